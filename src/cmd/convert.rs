//! `paifu convert`: a log from one encoding to the other.
//!
//! The log is read a record at a time and each record written as it is read, so that memory does
//! not grow with the log; the output is written under a temporary name beside it and renamed once
//! complete, so that a log that cannot be read leaves no half-written file.

use crate::args::LogFormat;
use crate::error::{Error, Result, Status};
use crate::output::{make_dir, outln};
use clap::Args;
use paifu_core::games::{self, Registered, Visitor};
use paifu_core::log::{self, Encoding, LogReader, ReadError};
use paifu_recorder::files::open_log;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// The log to read (either encoding).
    pub input: PathBuf,
    /// The file to write; its name chooses the encoding (.paifu.jsonl or .paifu) unless --to.
    #[arg(long, short)]
    pub output: PathBuf,
    /// The encoding to write.
    #[arg(long, value_enum)]
    pub to: Option<LogFormat>,
}

/// Why converting stopped.
enum Failed {
    Read(ReadError),
    Write(std::io::Error),
}

/// Copies the records of a log of the engine `G` from `reader` to `out` in `enc`.
struct Convert<'a, R, W> {
    reader: &'a mut LogReader<R>,
    enc: Encoding,
    out: &'a mut W,
}

impl<R: BufRead, W: Write> Visitor for Convert<'_, R, W> {
    type Output = std::result::Result<(), Failed>;
    fn visit<G: Registered>(self) -> Self::Output {
        let mut buf = Vec::new();
        log::write_header(self.reader.header(), self.enc, &mut buf);
        self.out.write_all(&buf).map_err(Failed::Write)?;
        while let Some(r) = self.reader.next_record::<G::Action>().map_err(Failed::Read)? {
            buf.clear();
            log::write_record(&r, self.enc, &mut buf);
            self.out.write_all(&buf).map_err(Failed::Write)?;
        }
        self.out.flush().map_err(Failed::Write)
    }
}

/// The encoding a file's name asks for.
fn encoding_of(output: &Path) -> Result<Encoding> {
    let name = output.to_string_lossy();
    if name.ends_with(".paifu.jsonl") || name.ends_with(".jsonl") {
        Ok(Encoding::JsonLines)
    } else if name.ends_with(".paifu") {
        Ok(Encoding::Binary)
    } else {
        Err(Error::Usage(format!("{}: name the output *.paifu.jsonl or *.paifu, or give --to", output.display())))
    }
}

/// `paifu convert`.
pub fn run(a: ConvertArgs) -> Result {
    let enc = match a.to {
        Some(f) => f.encoding(),
        None => encoding_of(&a.output)?,
    };
    let input = open_log(&a.input)?;
    let unreadable = |e: ReadError| match e {
        ReadError::Fault(f) => Error::unreadable(a.input.display(), f.describe()),
        ReadError::Io(source) => Error::Io { path: a.input.clone(), source },
    };
    let mut reader = LogReader::open(BufReader::with_capacity(64 << 10, input)).map_err(unreadable)?;
    let dir = a.output.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    make_dir(dir)?;
    let tmp = temporary_name(&a.output);
    let file = std::fs::File::create(&tmp).map_err(Error::io(&tmp))?;
    let mut out = BufWriter::new(file);
    // The one place the game's engine is chosen.
    let game = reader.header().game.clone();
    let copied = games::by_name(&game, Convert { reader: &mut reader, enc, out: &mut out });
    drop(out);
    let done = match copied {
        Err(f) => Err(Error::unreadable(a.input.display(), f.describe())),
        Ok(Err(Failed::Read(e))) => Err(unreadable(e)),
        Ok(Err(Failed::Write(source))) => Err(Error::Io { path: a.output.clone(), source }),
        Ok(Ok(())) => std::fs::rename(&tmp, &a.output).map_err(Error::io(&a.output)),
    };
    if done.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    done?;
    outln!("wrote {}", a.output.display())?;
    Ok(Status::Fine)
}

/// A name beside `output` for the file being written: `.NAME.partial`.
fn temporary_name(output: &Path) -> PathBuf {
    let name = output.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    output.with_file_name(format!(".{name}.partial"))
}
