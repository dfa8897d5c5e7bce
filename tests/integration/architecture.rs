//! The architecture invariants of ARCHITECTURE.md, checked on the source tree: no module circle
//! inside any crate, the log format naming no engine, core doing no I/O, only `web` knowing
//! HTTP, and the analyzer reading replays rather than the archive's SQL.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let p = e.expect("a directory entry").path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

type Module = Vec<String>;

/// A crate's modules, one per file (`a/b.rs` and `a/b/mod.rs` are `a::b`; `lib.rs` and
/// `main.rs` the root), without test-only files (`tests.rs`) and binaries (`bin/`).
fn modules(src: &Path) -> BTreeMap<Module, PathBuf> {
    let mut mods = BTreeMap::new();
    for f in rust_files(src) {
        let rel = f.strip_prefix(src).expect("under src").with_extension("");
        let mut parts: Module = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
        if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
            parts.pop();
        }
        if parts.first().is_some_and(|p| p == "bin") || parts.last().is_some_and(|p| p == "tests") {
            continue;
        }
        mods.insert(parts, f);
    }
    mods
}

/// The source without line comments and without its first `#[cfg(test)] mod NAME {` and what
/// follows it (test modules may use anything).
fn code_of(text: &str) -> String {
    let mut code = String::new();
    for line in text.lines() {
        let line = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        code.push_str(line);
        code.push('\n');
    }
    let mut search = 0;
    while let Some(i) = code[search..].find("#[cfg(test)]") {
        let at = search + i;
        let rest = code[at + "#[cfg(test)]".len()..].trim_start();
        let rest = rest.strip_prefix("pub(crate) ").or_else(|| rest.strip_prefix("pub ")).unwrap_or(rest);
        if let Some(after) = rest.strip_prefix("mod ") {
            let name_end = after.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(after.len());
            if after[name_end..].trim_start().starts_with('{') {
                code.truncate(at);
                break;
            }
        }
        search = at + 1;
    }
    code
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Every path that starts with `crate`, `super` or `self` in `code`, with each item of a
/// `use ...::{a, b::c}` group as a path of its own.
fn paths(code: &str) -> Vec<Vec<String>> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let starts = (i == 0 || !(is_ident(chars[i - 1]) || chars[i - 1] == ':')) && is_ident(chars[i]);
        if !starts {
            i += 1;
            continue;
        }
        let mut segs = Vec::new();
        let mut j = i;
        let group = loop {
            let s = j;
            while j < chars.len() && is_ident(chars[j]) {
                j += 1;
            }
            segs.push(chars[s..j].iter().collect::<String>());
            if chars.get(j) == Some(&':') && chars.get(j + 1) == Some(&':') {
                j += 2;
                if chars.get(j) == Some(&'{') {
                    break true;
                }
                if !chars.get(j).is_some_and(|&c| is_ident(c)) {
                    break false;
                }
            } else {
                break false;
            }
        };
        if matches!(segs[0].as_str(), "crate" | "super" | "self") {
            if group {
                // The first-level items of the group: each item's first segment.
                let mut depth = 0;
                let mut item = String::new();
                let mut k = j + 1;
                while k < chars.len() {
                    match chars[k] {
                        '{' => depth += 1,
                        '}' if depth == 0 => break,
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            push_item(&mut out, &segs, &item);
                            item.clear();
                        }
                        c if depth == 0 => item.push(c),
                        _ => {}
                    }
                    k += 1;
                }
                push_item(&mut out, &segs, &item);
            } else {
                out.push(segs.clone());
            }
        }
        i = j.max(i + 1);
    }
    out
}

fn push_item(out: &mut Vec<Vec<String>>, base: &[String], item: &str) {
    let first: String = item.trim().chars().take_while(|&c| is_ident(c)).collect();
    if !first.is_empty() && first != "self" {
        let mut p = base.to_vec();
        p.push(first);
        out.push(p);
    }
}

/// The module a path names from module `here`: its longest prefix that is a module.
fn resolve(mods: &BTreeMap<Module, PathBuf>, here: &Module, path: &[String]) -> Module {
    let mut cur: Module = if path[0] == "crate" { Vec::new() } else { here.clone() };
    let rest = if matches!(path[0].as_str(), "crate" | "self") { &path[1..] } else { path };
    for p in rest {
        match p.as_str() {
            "super" => {
                cur.pop();
            }
            "self" => {}
            other => cur.push(other.to_owned()),
        }
    }
    while !cur.is_empty() && !mods.contains_key(&cur) {
        cur.pop();
    }
    cur
}

/// Module circles of the crate whose sources are in `src`: each set of two or more modules that
/// reach each other (an edge to one's own ancestor, the facade, does not count).
fn circles(src: &Path) -> Vec<BTreeSet<Module>> {
    circles_by(src, &|m: &Module| m.clone())
}

/// Circles among the folders (and files) right under the module `parent` of the crate in `src`:
/// each of them taken whole, with every module inside it, so that `parent::a::x` using
/// `parent::b` and `parent::b` using `parent::a` is a circle although no file reaches back to
/// `parent::a::x` itself.
fn folder_circles(src: &Path, parent: &[&str]) -> Vec<BTreeSet<Module>> {
    let depth = parent.len() + 1;
    circles_by(src, &|m: &Module| {
        let under = m.len() > depth && m.iter().zip(parent).all(|(a, b)| a == b);
        if under {
            m[..depth].to_vec()
        } else {
            m.clone()
        }
    })
}

/// [`circles`] among the modules taken as `group` says (each module counted as its group).
fn circles_by(src: &Path, group: &dyn Fn(&Module) -> Module) -> Vec<BTreeSet<Module>> {
    let files = modules(src);
    let mods: BTreeSet<Module> = files.keys().map(group).collect();
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (m, f) in &files {
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let g = group(m);
        let targets = edges.entry(g.clone()).or_default();
        for p in paths(&code_of(&text)) {
            let t = group(&resolve(&files, m, &p));
            if t != g && !g.starts_with(&t) {
                targets.insert(t);
            }
        }
    }
    // Modules that reach each other: m reaches t and t reaches m.
    let reach = |from: &Module| -> BTreeSet<Module> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(x) = todo.pop() {
            for y in edges.get(&x).into_iter().flatten() {
                if seen.insert(y.clone()) {
                    todo.push(y.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<Module, BTreeSet<Module>> = mods.iter().map(|m| (m.clone(), reach(m))).collect();
    let mut out: Vec<BTreeSet<Module>> = Vec::new();
    for m in &mods {
        let set: BTreeSet<Module> =
            reaches[m].iter().filter(|t| *t != m && reaches.get(*t).is_some_and(|r| r.contains(m))).cloned().collect();
        if !set.is_empty() && !out.iter().any(|c| c.contains(m)) {
            let mut c = set;
            c.insert(m.clone());
            out.push(c);
        }
    }
    out
}

fn crate_srcs() -> Vec<PathBuf> {
    ["core/src", "recorder/src", "analyzer/src", "web/src", "src"].iter().map(|d| root().join(d)).collect()
}

#[test]
fn no_module_circle_in_any_crate() {
    let mut shown = Vec::new();
    for src in crate_srcs() {
        for c in circles(&src) {
            let c: Vec<String> = c.iter().map(|m| m.join("::")).collect();
            shown.push(format!("{}: circle among {}", src.display(), c.join(", ")));
        }
    }
    assert!(shown.is_empty(), "{}", shown.join("\n"));
}

#[test]
fn the_circle_check_finds_a_circle() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::write(src.join("lib.rs"), "mod a;\nmod b;\nmod c;\n").unwrap();
    std::fs::write(src.join("a.rs"), "use crate::b::B;\n").unwrap();
    std::fs::write(src.join("b.rs"), "use super::{c, x};\npub struct B;\n").unwrap();
    std::fs::write(src.join("c.rs"), "// crate::b is only in a comment\nfn f() { crate::a::g() }\n").unwrap();
    let found = circles(src);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].len(), 3);
    // A test module may use anything.
    std::fs::write(src.join("c.rs"), "fn f() {}\n#[cfg(test)]\nmod tests {\n    use crate::a::g;\n}\n").unwrap();
    assert!(circles(src).is_empty());
}

/// The importers depend one way (issue 26): `import::source` on the formats, the formats on
/// `embedded`, `to_log` and the record model, never back; no format's writer reaches the source
/// check.
#[test]
fn the_importers_depend_one_way() {
    let found = folder_circles(&root().join("recorder/src"), &["import"]);
    let shown: Vec<String> =
        found.iter().map(|c| c.iter().map(|m| m.join("::")).collect::<Vec<_>>().join(", ")).collect();
    assert!(shown.is_empty(), "circles among the folders of recorder/src/import: {}", shown.join("; "));
}

/// The circle of issue 26 (a format's writer taking a helper of the source check, which reads
/// that format) is no file-level circle, but a folder-level one.
#[test]
fn the_folder_check_finds_a_circle_through_a_folder() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir_all(src.join("import/fmt")).unwrap();
    std::fs::write(src.join("lib.rs"), "mod import;\n").unwrap();
    std::fs::write(src.join("import/mod.rs"), "mod fmt;\nmod source;\nmod record;\n").unwrap();
    std::fs::write(src.join("import/source.rs"), "use super::fmt::read;\npub fn embedded() {}\n").unwrap();
    std::fs::write(src.join("import/fmt/mod.rs"), "mod write;\npub fn read() {}\n").unwrap();
    std::fs::write(src.join("import/fmt/write.rs"), "use crate::import::source::embedded;\n").unwrap();
    std::fs::write(src.join("import/record.rs"), "pub struct Game;\n").unwrap();
    assert!(circles(src).is_empty(), "no file reaches back to the file that uses it");
    let found = folder_circles(src, &["import"]);
    assert_eq!(found.len(), 1, "{found:?}");
    let names: Vec<String> = found[0].iter().map(|m| m.join("::")).collect();
    assert_eq!(names, ["import::fmt", "import::source"]);
    // The writer taking the helper from below both (the record model): no circle.
    std::fs::write(src.join("import/fmt/write.rs"), "use crate::import::record::Game;\n").unwrap();
    assert!(folder_circles(src, &["import"]).is_empty());
}

/// The code (test modules left out) of every file under `dir` that names any of `words`.
fn files_naming(dir: &Path, words: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for f in rust_files(dir) {
        if f.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let code = code_of(&std::fs::read_to_string(&f).expect("readable"));
        for w in words {
            if code.contains(w) {
                out.push(format!("{} names {w}", f.strip_prefix(root()).unwrap_or(&f).display()));
            }
        }
    }
    out
}

#[test]
fn the_log_format_depends_on_no_engine() {
    let engines = ["crate::riichi", "crate::tzq", "crate::tayu", "crate::mcr", "crate::hungarian", "crate::mahjong"];
    let mut found = files_naming(&root().join("core/src/log"), &engines);
    found.extend(files_naming(&root().join("core/src/log"), &["crate::games", "crate::replay"]));
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn core_does_no_io() {
    let io = [
        "std::fs",
        "std::net",
        "std::process",
        "std::env",
        "std::io::stdin",
        "std::io::stdout",
        "println!",
        "eprintln!",
    ];
    let found = files_naming(&root().join("core/src"), &io);
    assert!(found.is_empty(), "{found:?}");
}

/// The places in `dir`'s code (comments and strings left out) that print to standard output with
/// `print!` or `println!` (`eprint!` and `eprintln!` apart).
fn stdout_prints(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for f in rust_files(dir) {
        let code = code_of(&std::fs::read_to_string(&f).expect("readable"));
        for macro_name in ["println!", "print!"] {
            let hits = code.match_indices(macro_name).filter(|(i, _)| {
                let before = code[..*i].chars().next_back();
                !before.is_some_and(|c| c == 'e' || is_ident(c))
            });
            for _ in hits {
                out.push(format!("{} uses {macro_name}", f.strip_prefix(root()).unwrap_or(&f).display()));
            }
        }
    }
    out
}

#[test]
fn commands_write_standard_output_only_through_outln() {
    // ARCHITECTURE.md: `println!` panics when the reader has gone (`paifu show ... | head`).
    let found = stdout_prints(&root().join("src"));
    assert!(found.is_empty(), "{found:?}");
    // The check sees a print, and not an eprint.
    let t = tempfile::tempdir().unwrap();
    std::fs::write(t.path().join("a.rs"), "fn f() { eprintln!(\"x\"); println!(\"y\"); print!(\"z\"); }").unwrap();
    assert_eq!(stdout_prints(t.path()).len(), 2, "{:?}", stdout_prints(t.path()));
}

/// The names of a crate's `[dependencies]` (not its dev-dependencies).
fn dependencies(manifest: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(manifest).expect("a manifest");
    let mut inside = false;
    let mut out = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            inside = line == "[dependencies]";
            continue;
        }
        if inside {
            if let Some((name, _)) = line.split_once(['=', '.']) {
                if !name.trim().is_empty() && !name.starts_with('#') {
                    out.push(name.trim().to_owned());
                }
            }
        }
    }
    out
}

#[test]
fn only_web_knows_http_and_the_analyzer_reads_no_sql() {
    let http = ["actix-web", "actix-http", "actix-multipart", "hyper", "hyper-util", "reqwest", "fantoccini"];
    for krate in ["core", "recorder", "analyzer"] {
        let deps = dependencies(&root().join(krate).join("Cargo.toml"));
        assert!(!deps.is_empty(), "{krate} lists no dependencies: the manifest reader is broken");
        let bad: Vec<&String> = deps.iter().filter(|d| http.contains(&d.as_str())).collect();
        assert!(bad.is_empty(), "{krate} depends on {bad:?}");
    }
    // The command serves the dashboard through `paifu_web` and knows no HTTP itself.
    let root_deps = dependencies(&root().join("Cargo.toml"));
    assert!(root_deps.contains(&"paifu-web".to_owned()), "{root_deps:?}");
    assert!(!root_deps.iter().any(|d| http.contains(&d.as_str())), "{root_deps:?}");
    let analyzer = dependencies(&root().join("analyzer/Cargo.toml"));
    for sql in ["rusqlite", "paifu-recorder"] {
        assert!(!analyzer.contains(&sql.to_owned()), "the analyzer depends on {sql}");
    }
    let core = dependencies(&root().join("core/Cargo.toml"));
    for other in ["paifu-recorder", "paifu-analyzer", "paifu-web", "rusqlite"] {
        assert!(!core.contains(&other.to_owned()), "core depends on {other}");
    }
}

/// The `pub use` lines of `code` whose first segment names one of the file's own `pub mod`s, or
/// that reach up (`crate::`, `super::`): each makes an item reachable by a second path.
fn second_paths(code: &str) -> Vec<String> {
    let public: BTreeSet<&str> = code
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .filter_map(|rest| rest.strip_suffix(';'))
        .collect();
    code.lines()
        .map(str::trim)
        .filter_map(|l| l.strip_prefix("pub use ").map(|rest| (l, rest)))
        .filter(|(_, rest)| {
            let first = rest.split("::").next().unwrap_or("");
            public.contains(first) || first == "crate" || first == "super"
        })
        .map(|(l, _)| l.to_owned())
        .collect()
}

/// One path per public item: a re-export lifts items only out of a private module (the
/// `unreachable_pub` lint in the workspace's Cargo.toml keeps the other half: what no other crate
/// can reach is `pub(crate)`).
#[test]
fn a_public_item_has_one_path() {
    let mut found = Vec::new();
    for src in crate_srcs() {
        for f in rust_files(&src) {
            let code = code_of(&std::fs::read_to_string(&f).expect("readable source"));
            for l in second_paths(&code) {
                found.push(format!("{}: {l}", f.strip_prefix(root()).unwrap_or(&f).display()));
            }
        }
    }
    assert!(found.is_empty(), "items reachable by two paths:\n{}", found.join("\n"));
    let lints = std::fs::read_to_string(root().join("Cargo.toml")).expect("the workspace manifest");
    assert!(lints.contains("unreachable_pub = \"warn\""), "the workspace lints unreachable_pub");
}

#[test]
fn the_one_path_check_finds_a_second_path() {
    let code = "pub mod log;\nmod game;\npub use game::Game;\npub use log::Log;\n";
    assert_eq!(second_paths(code), vec!["pub use log::Log;".to_owned()]);
    assert_eq!(second_paths("pub use super::x::Y;\n"), vec!["pub use super::x::Y;".to_owned()]);
}
