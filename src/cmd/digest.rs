//! `paifu digest`: each log's blake3 digest, the same for both encodings of a log.

use crate::error::{Error, Result, Status};
use crate::output::outln;
use clap::Args;
use paifu_core::games::{self, Registered, Visitor};
use paifu_core::log::{LogReader, ReadError};
use paifu_core::Fault;
use paifu_recorder::files::{collect_logs, open_log};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct DigestArgs {
    /// Log files or folders.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Also print the header's and every record's link of the digest chain.
    #[arg(long)]
    pub chain: bool,
}

/// Reads a log of the engine `G` to its end, handing each record's link of the digest chain to
/// `link` as it goes (a record at a time: the log is never held whole).
struct Digest<'a, R, F>(&'a mut LogReader<R>, F);

impl<R: BufRead, F: FnMut(usize, paifu_core::Digest)> Visitor for Digest<'_, R, F> {
    type Output = std::result::Result<(), ReadError>;
    fn visit<G: Registered>(self) -> Self::Output {
        let Digest(reader, mut link) = self;
        while reader.next_record::<G::Action>()?.is_some() {
            link(reader.records_read() - 1, reader.digest());
        }
        Ok(())
    }
}

/// The digest of the log in `path` (and with `chain`, every link of the chain after it).
fn digest_of(path: &Path, chain: bool) -> Result<std::result::Result<String, Fault>> {
    let file = open_log(path)?;
    let fault = |e: ReadError| match e {
        ReadError::Fault(f) => Ok(Err(f)),
        ReadError::Io(source) => Err(Error::Io { path: path.to_owned(), source }),
    };
    let mut reader = match LogReader::open(BufReader::with_capacity(64 << 10, file)) {
        Ok(r) => r,
        Err(e) => return fault(e),
    };
    let mut links = Vec::new();
    if chain {
        links.push(format!("  header:   {}", reader.digest().to_hex()));
    }
    // With `chain` the links are kept (a line of 80 bytes a record) and printed once the log is
    // read whole, under its digest (an error names the log instead); without it nothing is kept
    // and nothing is formatted a record.
    let game = reader.header().game.clone();
    let read = games::by_name(
        &game,
        Digest(&mut reader, |i, l: paifu_core::Digest| {
            if chain {
                links.push(format!("  record {i}: {}", l.to_hex()));
            }
        }),
    );
    match read {
        Err(f) => return Ok(Err(f)),
        Ok(Err(e)) => return fault(e),
        Ok(Ok(())) => {}
    }
    let d = reader.digest().to_hex();
    outln!("{d}  {}", path.display())?;
    for l in &links {
        outln!("{l}")?;
    }
    Ok(Ok(d))
}

/// `paifu digest`: 0 every log decoded, 1 some log could not be, 2 a file could not be read.
pub fn run(a: DigestArgs) -> Result {
    let files = collect_logs(&a.paths)?;
    let mut status = Status::Fine;
    for f in files {
        if let Err(fault) = digest_of(&f, a.chain)? {
            eprintln!("paifu: {}: {}", f.display(), fault.describe());
            status = Status::Faulty;
        }
    }
    Ok(status)
}
