//! `paifu import --help` names every format the command reads, one line each on what it is and
//! where such files come from (issue 15, item 4); the formats are found by asking the command,
//! not from the help's own list.

use crate::util::{paifu, stderr, stdout};

/// The names `paifu import` takes: each candidate is tried on a file that does not exist; an
/// unknown format is refused as such before any file is read.
fn accepted(dir: &std::path::Path) -> Vec<String> {
    let candidates = [
        "tenhou",
        "tenhou6",
        "mjlog",
        "xml",
        "mjai",
        "mjson",
        "botzone",
        "pmn",
        "mahjongsoul",
        "majsoul",
        "riichi",
        "mcr",
        "paifu",
        "json",
        "TENHOU",
    ];
    candidates
        .iter()
        .filter(|f| {
            let o = paifu(&["import", f, "no-such-file", "-o", "out"], dir);
            !stderr(&o).contains("unknown source format")
        })
        .map(|f| (*f).to_owned())
        .collect()
}

#[test]
fn import_help_lists_each_format_the_command_reads() {
    let dir = tempfile::tempdir().unwrap();
    let help = stdout(&paifu(&["import", "--help"], dir.path()));
    let section = help.split("Formats (").nth(1).expect("a Formats section").split("\n\n").next().unwrap().to_owned();
    // Each entry: two spaces, the name, then what it is and where it comes from.
    let mut listed: Vec<(String, String)> = Vec::new();
    for l in section.lines().skip(1) {
        // An entry is the name then two spaces or more; clap indents wrapped lines as the entry.
        let entry = l
            .strip_prefix("  ")
            .filter(|r| r.split_once(' ').is_some_and(|(n, rest)| !n.is_empty() && rest.starts_with(' ')));
        match (entry, listed.last_mut()) {
            (Some(entry), _) => {
                let (name, what) = entry.split_once(' ').unwrap();
                listed.push((name.to_owned(), what.trim().to_owned()));
            }
            // A wrapped line goes on with the entry above.
            (None, Some((_, what))) => {
                what.push(' ');
                what.push_str(l.trim());
            }
            (None, None) => panic!("{section}"),
        }
    }
    let mut names: Vec<String> = listed.iter().map(|(n, _)| n.clone()).collect();
    names.dedup();
    assert_eq!(names, accepted(dir.path()), "{help}");
    // The file formats behind the names: tenhou.net/6 JSON and mjlog XML both under `tenhou`.
    for want in ["tenhou.net/6 JSON", "mjlog XML", "mjai JSON Lines", "Botzone", "PMN"] {
        assert!(listed.iter().any(|(_, w)| w.contains(want)), "{want}: {section}");
    }
    for (name, what) in &listed {
        assert!(what.len() > 80, "{name}: says what it is and where it comes from: {what}");
    }
}
