//! `paifu contribution`: a party's share of a fair seed (docs/protocol.md, "Fair randomness"),
//! made and kept secret, and the `--seed-from` file assembled from every party's.

use crate::error::{Error, Result, Status};
use crate::output::{outln, write_file};
use clap::{Args, Subcommand};
use paifu_core::{fair, Digest};
use paifu_recorder::files::read_small_text;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
#[command(after_help = "\
Each party (the organiser, each participant) makes its own contribution and publishes only the commitment \
it prints; once every commitment is published, each party hands its file to the host, who assembles the seed \
file for paifu arena --seed-from. Nobody chooses the seed: any one secret contribution makes it unpredictable.

Example:
  paifu contribution make --name organiser -o organiser.contribution   # prints organiser's commitment
  paifu contribution make --name alice -o alice.contribution
  paifu contribution assemble organiser.contribution alice.contribution -o match.seed.json
  paifu arena riichi --bot ... --seed-from match.seed.json --out match/")]
pub struct ContributionArgs {
    #[command(subcommand)]
    pub action: ContributionAction,
}

#[derive(Subcommand, Debug)]
pub enum ContributionAction {
    /// Make a secret contribution (32 random bytes; the file readable by its owner only) and
    /// print its commitment, the line to publish.
    Make {
        /// The party's name, bound into its commitment.
        #[arg(long)]
        name: String,
        /// The contribution's file (must not exist).
        #[arg(long, short)]
        output: PathBuf,
    },
    /// Assemble the seed file of `paifu arena --seed-from` from every party's contribution file.
    Assemble {
        /// The parties' contribution files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The seed file to write.
        #[arg(long, short)]
        output: PathBuf,
    },
}

/// A contribution file: `{"name": NAME, "contribution": HEX}`.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ContributionFile {
    name: String,
    contribution: Digest,
}

fn unreadable(path: &Path, message: impl Into<String>) -> Error {
    Error::Unreadable { what: path.display().to_string(), message: message.into() }
}

/// `paifu contribution`.
pub fn run(a: ContributionArgs) -> Result {
    match a.action {
        ContributionAction::Make { name, output } => {
            if name.trim().is_empty() {
                return Err(Error::Usage("--name: give the party's name".into()));
            }
            if output.exists() {
                return Err(Error::Usage(format!("{} exists: a contribution is never overwritten", output.display())));
            }
            let mut value = [0u8; 32];
            getrandom::fill(&mut value).map_err(|e| Error::Usage(format!("no random source: {e}")))?;
            let file = ContributionFile { name: name.clone(), contribution: Digest(value) };
            let text = serde_json::to_string(&file).map_err(|e| Error::Usage(e.to_string()))?;
            paifu_recorder::keys::write_private(&output, &format!("{text}\n"))?;
            outln!("{name}: {}", fair::commit(&name, &value))?;
            Ok(Status::Fine)
        }
        ContributionAction::Assemble { files, output } => {
            let mut commitments = BTreeMap::new();
            let mut contributions = BTreeMap::new();
            for path in &files {
                let text = read_small_text(path)?;
                let f: ContributionFile =
                    serde_json::from_str(text.trim()).map_err(|e| unreadable(path, e.to_string()))?;
                if commitments.insert(f.name.clone(), fair::commit(&f.name, &f.contribution.0)).is_some() {
                    return Err(unreadable(path, format!("a second contribution of {:?}", f.name)));
                }
                contributions.insert(f.name, f.contribution.to_hex());
            }
            let seed = serde_json::json!({ "commitments": commitments, "contributions": contributions });
            write_file(&output, format!("{seed:#}\n").as_bytes())?;
            outln!(
                "{}: the seed file of {} parties (commitments digest {})",
                output.display(),
                files.len(),
                fair::commitments_digest(&commitments)
            )?;
            Ok(Status::Fine)
        }
    }
}
