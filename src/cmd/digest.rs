//! `paifu digest`: each log's blake3 digest, the same for both encodings of a log.

use crate::error::{Result, Status};
use crate::output::outln;
use clap::Args;
use paifu_core::games::{self, Registered, Visitor};
use paifu_core::log::{self, Chain};
use paifu_core::Fault;
use paifu_recorder::files::{collect_logs, read_log_bytes};
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct DigestArgs {
    /// Log files or folders.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Also print the header's and every record's link of the digest chain.
    #[arg(long)]
    pub chain: bool,
}

/// A log's digest, and with `chain` the header's and every record's link.
/// The digest (and with `.1` the chain) of a log of the engine `G`.
struct Digest<'a>(&'a [u8], bool);

impl Visitor for Digest<'_> {
    type Output = std::result::Result<(String, Vec<String>), Fault>;
    fn visit<G: Registered>(self) -> Self::Output {
        digest_typed::<G>(self.0, self.1)
    }
}

fn digest_typed<G: Registered>(bytes: &[u8], chain: bool) -> std::result::Result<(String, Vec<String>), Fault> {
    let (log, _) = log::decode::<G::Action>(bytes)?;
    let links = if chain {
        std::iter::once(Chain::new(&log.header).digest()).chain(log.chain()).map(|d| d.to_hex()).collect()
    } else {
        Vec::new()
    };
    Ok((log.digest().to_hex(), links))
}

/// `paifu digest`: 0 every log decoded, 1 some log could not be, 2 a file could not be read.
pub fn run(a: DigestArgs) -> Result {
    let files = collect_logs(&a.paths)?;
    let mut status = Status::Fine;
    for f in files {
        let bytes = read_log_bytes(&f)?;
        // The one place the game's engine is chosen.
        let r = log::read_header(&bytes).and_then(|h| games::by_name(&h.game, Digest(&bytes, a.chain)).and_then(|r| r));
        match r {
            Ok((d, links)) => {
                outln!("{d}  {}", f.display())?;
                for (i, l) in links.iter().enumerate() {
                    match i {
                        0 => outln!("  header:   {l}")?,
                        _ => outln!("  record {}: {l}", i - 1)?,
                    }
                }
            }
            Err(fault) => {
                eprintln!("paifu: {}: {}", f.display(), fault.describe());
                status = Status::Faulty;
            }
        }
    }
    Ok(status)
}
