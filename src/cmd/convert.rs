//! `paifu convert`: a log from one encoding to the other.

use crate::args::LogFormat;
use crate::error::{Error, Result, Status};
use crate::output::{outln, write_file};
use clap::Args;
use paifu_core::games::{self, Registered, Visitor};
use paifu_core::log::{self, Encoding};
use paifu_core::Fault;
use paifu_recorder::files::read_log_bytes;
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

/// Converts a log of the engine `G`.
struct Convert<'a>(&'a [u8], Encoding);

impl Visitor for Convert<'_> {
    type Output = std::result::Result<Vec<u8>, Fault>;
    fn visit<G: Registered>(self) -> Self::Output {
        convert_typed::<G>(self.0, self.1)
    }
}

fn convert_typed<G: Registered>(bytes: &[u8], enc: Encoding) -> std::result::Result<Vec<u8>, Fault> {
    let (log, _) = log::decode::<G::Action>(bytes)?;
    Ok(log::encode(&log, enc))
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
    let bytes = read_log_bytes(&a.input)?;
    // The one place the game's engine is chosen.
    let out = log::read_header(&bytes)
        .and_then(|h| games::by_name(&h.game, Convert(&bytes, enc)).and_then(|r| r))
        .map_err(|f| Error::unreadable(a.input.display(), f.describe()))?;
    write_file(&a.output, &out)?;
    outln!("wrote {}", a.output.display())?;
    Ok(Status::Fine)
}
