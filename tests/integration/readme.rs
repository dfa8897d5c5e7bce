//! The README's "Using it" commands run as written, in order, in a fresh folder (issue 16): a
//! command that the README teaches and that fails is a bug of the README or of the command.

use crate::util::{paifu, stderr, stdout};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn readme() -> String {
    fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("README.md")).expect("README.md")
}

/// The command lines of the README's "Using it" block: comments and blank lines left out.
fn using_it(readme: &str) -> Vec<String> {
    let section = readme.split("## Using it").nth(1).expect("a \"Using it\" section");
    let block = section.split("```sh").nth(1).and_then(|b| b.split("```").next()).expect("its sh block");
    block.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(str::to_owned).collect()
}

/// The JSON input lines of the worked examples in docs/rules/hungarian.md.
fn hungarian_hands() -> String {
    let doc = fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/rules/hungarian.md")).unwrap();
    let hands: Vec<&str> =
        doc.split("```json input\n").skip(1).filter_map(|b| b.split("\n```").next()).take(3).collect();
    assert!(!hands.is_empty(), "docs/rules/hungarian.md has worked examples");
    hands.join("\n") + "\n"
}

/// The files the README's commands read that no earlier command writes: a real Tenhou game, the
/// same game as mjai, Botzone and PMN hands, Hungarian hands.
fn inputs(dir: &Path) {
    let real = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/real-logs/tenhou/2010081709gm-00a9-0000-fe3371ad.json");
    fs::copy(&real, dir.join("game.json")).unwrap();
    let setup = tempfile::tempdir().unwrap();
    let s = setup.path();
    fs::copy(&real, s.join("g.json")).unwrap();
    let o = paifu(&["import", "tenhou", "g.json", "-o", "in"], s);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let o = paifu(&["export", "mjai", "in/g.paifu.jsonl", "-o", "g.mjson"], s);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    fs::copy(s.join("g.mjson"), dir.join("game.mjson")).unwrap();
    fs::write(dir.join("sample.txt"), crate::mcr_import::HAND).unwrap();
    fs::write(dir.join("hands.pmn"), crate::mcr_import::PMN).unwrap();
    fs::write(dir.join("hands.jsonl"), hungarian_hands()).unwrap();
}

#[test]
fn every_command_of_the_readme_runs_as_written() {
    let lines = using_it(&readme());
    let (alias, lines) = lines.split_first().expect("commands");
    assert!(alias.starts_with("alias paifu="), "the block starts by making `paifu` a command: {alias}");
    // `paifu serve` runs until stopped: the web tests serve the same archive.
    let (serve, lines): (Vec<String>, Vec<String>) = lines.iter().cloned().partition(|l| l.starts_with("paifu serve"));
    assert_eq!(serve.len(), 1, "{serve:?}");
    assert!(lines.len() >= 30, "{} commands", lines.len());

    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("work");
    let bin = t.path().join("bin");
    fs::create_dir_all(&dir).unwrap();
    fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_paifu"), bin.join("paifu")).unwrap();
    inputs(&dir);
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    for line in &lines {
        let o = Command::new("sh").arg("-c").arg(line).current_dir(&dir).env("PATH", &path).output().unwrap();
        assert!(
            o.status.success(),
            "the README's `{line}` failed ({:?}):\n{}{}",
            o.status.code(),
            stdout(&o),
            stderr(&o)
        );
    }
    // What the commands say they made is there.
    for made in
        ["logs/tzq-0020.paifu.jsonl", "referee.key", "referee.pub", "game.paifu", "aiko.svg", "back.json", "paifu.db"]
    {
        assert!(dir.join(made).exists(), "{made}");
    }
    assert!(fs::read_dir(dir.join("club")).unwrap().count() == 5, "the five riichi games exported");
}

#[test]
fn the_readme_block_is_read_without_its_comments() {
    let lines =
        using_it("## Using it\n```sh\n# a comment\npaifu a   # why\n\n  paifu b\n```\n## Next\n```sh\npaifu c\n```");
    assert_eq!(lines, ["paifu a   # why", "paifu b"]);
}
