//! HTML building blocks: escaping, the page layout with its inline CSS, tiles, tables.

use serde_json::Value;
use std::fmt::Write as _;

/// Escapes text for HTML content and attribute values.
pub(crate) fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

/// Percent-encodes a path segment or query value.
pub(crate) fn url(s: &str) -> String {
    let mut o = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            o.push(b as char);
        } else {
            let _ = write!(o, "%{b:02X}");
        }
    }
    o
}

const CSS: &str = r#"
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1b1b;background:#f6f5f1}
a{color:#0b57a4}
a:focus,button:focus,input:focus,select:focus,textarea:focus,summary:focus{outline:3px solid #f2a900;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:4px 8px;z-index:9}
header{background:#20313b;color:#fff}
header .in{display:flex;flex-wrap:wrap;align-items:center;gap:4px 16px;max-width:1100px;margin:0 auto;padding:8px 16px}
header a{color:#fff;text-decoration:none;padding:6px 4px}
header a[aria-current]{border-bottom:3px solid #f2a900}
header .brand{font-weight:700;font-size:1.2em}
main{max-width:1100px;margin:0 auto;padding:12px 16px 48px}
h1{font-size:1.6em;margin:.4em 0}
h2{font-size:1.25em;margin:1.2em 0 .4em}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:10px}
.card{background:#fff;border:1px solid #ddd;border-radius:8px;padding:10px}
.card b{display:block;font-size:1.6em}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch}
table{border-collapse:collapse;background:#fff;min-width:100%}
th,td{border-bottom:1px solid #e3e3e3;padding:6px 8px;text-align:left;vertical-align:top}
th{background:#eef0f2}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.ok{color:#13692c;font-weight:600}.bad{color:#a11;font-weight:600}
.fault{background:#fff1f0;border-left:4px solid #a11;padding:8px 12px;margin:8px 0;overflow-wrap:anywhere}
.note{background:#eef6ff;border-left:4px solid #0b57a4;padding:8px 12px;margin:8px 0}
form.filters{display:flex;flex-wrap:wrap;gap:8px;align-items:flex-end;margin:8px 0}
label{display:flex;flex-direction:column;font-size:.9em;gap:2px}
input,select,button,textarea{font:inherit;padding:6px 8px;border:1px solid #888;border-radius:6px;background:#fff}
button,.button{background:#0b57a4;color:#fff;border-color:#0b57a4;cursor:pointer;text-decoration:none;display:inline-block;padding:6px 12px;border-radius:6px}
.button.off{background:#aaa;border-color:#aaa;pointer-events:none}
.pager{display:flex;gap:8px;align-items:center;flex-wrap:wrap;margin:10px 0}
svg.plot{width:100%;height:auto;max-width:720px;background:#fff;border:1px solid #ddd;border-radius:8px}
.plots{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,460px),1fr));gap:12px}
figure.chart{margin:0}table.numbers{min-width:0;font-size:.9em;margin-top:4px}table.numbers td,table.numbers th{padding:2px 8px}
.t{display:inline-block;min-width:2.1em;padding:4px 3px;margin:2px 1px;border:1px solid #999;border-bottom-width:3px;border-radius:5px;background:#fffdf6;text-align:center;font-weight:700;font-family:ui-monospace,Menlo,Consolas,monospace;line-height:1.2}
.t.cb{color:#1d4ed8}.t.cg{color:#15803d}.t.cr{color:#b91c1c}.t.cw{color:#555;background:#fff}.t.ck{color:#111;background:#f3e9c6}
.t.cm{color:#b91c1c}.t.cp{color:#1d4ed8}.t.cs{color:#15803d}.t.cz{color:#111}
.tiles{display:flex;flex-wrap:wrap;align-items:center;gap:1px}
.t.side{transform:rotate(90deg);margin:2px 6px}.t.gone{opacity:.35}.t.tg{background:#eee}
table.rec{min-width:0;font-size:.9em}table.rec th,table.rec td{padding:2px 6px}
.meld{display:inline-flex;align-items:center;gap:2px;margin-right:10px}
svg.board{width:100%;max-width:560px;height:auto;background:#fff;border:1px solid #ccc}
svg.table{width:100%;max-width:760px;height:auto;display:block;margin:8px 0}svg.tiles-svg{vertical-align:middle;max-width:100%;height:auto}
.viewer-forms{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center;margin:0 0 8px}.viewer-forms form{display:flex;gap:6px;align-items:center}
.viewer-forms label{flex-direction:row;gap:4px;align-items:center}#slider{width:min(420px,60vw)}
.hand-end{background:#fff;border:2px solid #2e6b4f;border-radius:8px;padding:8px 12px;margin:8px 0}.hand-end h2{margin-top:.2em}
tr.faulty td{background:#fff1f0}
code.incident{color:#a8071a;font-weight:bold}
.seats{display:grid;grid-template-columns:repeat(auto-fit,minmax(280px,1fr));gap:10px}
.seat{background:#fff;border:1px solid #ccc;border-radius:8px;padding:8px 10px}
.seat.act{border:2px solid #f2a900;box-shadow:0 0 0 2px #fde9a8}
.seat h3{margin:0 0 4px;font-size:1.05em;display:flex;justify-content:space-between;gap:8px}
.k{font-size:.85em;color:#555;margin-top:4px}
.viewer-nav{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:10px 0;position:sticky;top:0;background:#f6f5f1;padding:6px 0;z-index:2}
pre{background:#fff;border:1px solid #ddd;padding:8px;overflow-x:auto;white-space:pre-wrap}
.board td{width:2em;height:2em;text-align:center;border:1px solid #999;padding:0}
dl.kv{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0}
dl.kv dt{font-weight:600}dl.kv dd{margin:0;overflow-wrap:anywhere}
code{overflow-wrap:anywhere}
@media (max-width:600px){.wide{display:none}body{font-size:15px}main{padding:8px 10px 40px}h1{font-size:1.3em}.card b{font-size:1.3em}th,td{padding:5px 6px}}
"#;

/// The sections of the site, for the navigation bar.
pub(crate) const NAV: &[(&str, &str)] = &[
    ("/", "Overview"),
    ("/games", "Games"),
    ("/live", "Live"),
    ("/players", "Players"),
    ("/tournaments", "Tournaments"),
    ("/upload", "Upload"),
    ("/verify", "Verify"),
    ("/login", "Log in"),
];

/// A whole page. `active` is the navigation entry to mark; `script` is inline JavaScript.
pub(crate) fn page(title: &str, active: &str, body: &str, script: Option<&str>) -> String {
    let mut nav = String::new();
    for (href, label) in NAV {
        let cur = if *href == active { " aria-current=\"page\"" } else { "" };
        let _ = write!(nav, "<a href=\"{href}\"{cur}>{label}</a>");
    }
    let script = script.map(|s| format!("<script>{s}</script>")).unwrap_or_default();
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>{t} · Paifu</title><style>{CSS}</style></head><body>\
         <a class=\"skip\" href=\"#main\">Skip to content</a>\
         <header><nav class=\"in\" aria-label=\"Main\"><a class=\"brand\" href=\"/\">Paifu</a>{nav}</nav></header>\
         <main id=\"main\" tabindex=\"-1\">{body}</main>{script}</body></html>",
        t = esc(title)
    )
}

/// The CSS class of a tile from its notation's last letter: the suit or colour.
fn tile_class(t: &str) -> &'static str {
    match t.chars().last() {
        Some('b') => "cb",
        Some('g') => "cg",
        Some('r') => "cr",
        Some('w') => "cw",
        Some('Q') | Some('k') => "ck",
        Some('m') => "cm",
        Some('p') => "cp",
        Some('s') => "cs",
        Some('z') => "cz",
        _ => "",
    }
}

/// Whether a string reads as one tile or card in notation (`5b`, `Eg`, `Q`, `3m`, `7z`).
pub(crate) fn is_tile(s: &str) -> bool {
    !s.is_empty() && s.len() <= 3 && s.chars().all(|c| c.is_ascii_alphanumeric())
}

/// One tile or card, drawn as a tile.
pub(crate) fn tile(t: &str) -> String {
    format!("<span class=\"t {}\" title=\"{}\">{}</span>", tile_class(t), esc(t), esc(t))
}

/// A row of tiles.
pub(crate) fn tiles(ts: &[&str]) -> String {
    if ts.is_empty() {
        return "<span class=\"k\">none</span>".into();
    }
    format!("<span class=\"tiles\">{}</span>", ts.iter().map(|t| tile(t)).collect::<String>())
}

/// Draws any JSON value: arrays of tile notation as tiles, nested arrays as groups (melds),
/// objects as key/value lists, other values as text. Everything is escaped.
pub(crate) fn value(v: &Value) -> String {
    match v {
        Value::Null => "<span class=\"k\">—</span>".into(),
        Value::Bool(b) => if *b { "yes" } else { "no" }.into(),
        Value::Number(n) => esc(&n.to_string()),
        Value::String(s) if s.contains('\n') => format!("<pre>{}</pre>", esc(s)),
        Value::String(s) => esc(s),
        // A discard or similar: a tile with flags (riichi: turned sideways; called: taken away;
        // tsumogiri: discarded as drawn).
        Value::Object(o) if o.get("tile").and_then(Value::as_str).is_some_and(is_tile) => {
            let t = o.get("tile").and_then(Value::as_str).unwrap_or("");
            let flag = |k: &str| o.get(k).and_then(Value::as_bool).unwrap_or(false);
            let mut class = String::new();
            let mut title = t.to_owned();
            for (k, c, label) in
                [("riichi", " side", "riichi"), ("called", " gone", "called"), ("tsumogiri", " tg", "as drawn")]
            {
                if flag(k) {
                    class.push_str(c);
                    title.push_str(&format!(" ({label})"));
                }
            }
            format!("<span class=\"t {}{class}\" title=\"{}\">{}</span>", tile_class(t), esc(&title), esc(t))
        }
        // A meld: its kind and tiles.
        Value::Object(o) if o.get("tiles").is_some_and(Value::is_array) => {
            let kind = o.get("kind").and_then(Value::as_str).unwrap_or("");
            format!(
                "<span class=\"meld\"><span class=\"k\">{}</span> {}</span>",
                esc(kind),
                o.get("tiles").map(value).unwrap_or_default()
            )
        }
        Value::Array(a) if !a.is_empty() && a.iter().all(|x| x.get("tile").is_some()) => {
            format!("<span class=\"tiles\">{}</span>", a.iter().map(value).collect::<String>())
        }
        Value::Array(a) if !a.is_empty() && a.iter().all(|x| x.get("tiles").is_some()) => a.iter().map(value).collect(),
        // Records of scalars with the same keys: a small table.
        Value::Array(a) if records(a).is_some() => {
            let keys = records(a).unwrap_or_default();
            let mut s = String::from("<div class=\"scroll\"><table class=\"rec\"><thead><tr>");
            for k in &keys {
                let _ = write!(s, "<th>{}</th>", esc(k));
            }
            s.push_str("</tr></thead><tbody>");
            for x in a {
                s.push_str("<tr>");
                for k in &keys {
                    let _ = write!(s, "<td>{}</td>", x.get(k).map(value).unwrap_or_default());
                }
                s.push_str("</tr>");
            }
            s + "</tbody></table></div>"
        }
        Value::Array(a) if a.iter().all(|x| x.as_str().is_some_and(is_tile)) => {
            tiles(&a.iter().filter_map(Value::as_str).collect::<Vec<_>>())
        }
        Value::Array(a) if a.iter().all(|x| x.is_array()) => {
            a.iter().map(|x| format!("<span class=\"tiles\" style=\"margin-right:10px\">{}</span>", value(x))).collect()
        }
        Value::Array(a) => a.iter().map(value).collect::<Vec<_>>().join(", "),
        Value::Object(o) => {
            let mut s = String::from("<dl class=\"kv\">");
            for (k, x) in o {
                let _ = write!(s, "<dt>{}</dt><dd>{}</dd>", esc(k), value(x));
            }
            s + "</dl>"
        }
    }
}

/// The keys of an array of at least two objects that all have the same keys and only scalar
/// values.
fn records(a: &[Value]) -> Option<Vec<String>> {
    let first = a.first()?.as_object()?;
    let keys: Vec<String> = first.keys().cloned().collect();
    let same = a.len() >= 2
        && a.iter().all(|x| {
            x.as_object().is_some_and(|o| {
                o.len() == keys.len() && keys.iter().all(|k| o.get(k).is_some_and(|v| !v.is_array() && !v.is_object()))
            })
        });
    same.then_some(keys)
}

/// A verdict badge.
/// A stored verdict: an excerpt of an unknown game says so, never "valid".
pub(crate) fn stored_verdict(valid: bool, code: Option<&str>, excerpt: Option<&str>) -> String {
    match excerpt {
        Some(_) if valid => "<span class=\"ok\">✔ excerpt</span>".into(),
        _ => verdict(valid, code),
    }
}

pub(crate) fn verdict(valid: bool, code: Option<&str>) -> String {
    if valid {
        "<span class=\"ok\">✔ valid</span>".into()
    } else {
        format!("<span class=\"bad\">✘ invalid</span> <code>{}</code>", esc(code.unwrap_or("")))
    }
}

/// Seconds since the epoch as a UTC date and time.
pub(crate) fn time(secs: i64) -> String {
    let t = std::time::UNIX_EPOCH + std::time::Duration::from_secs(secs.max(0) as u64);
    humantime::format_rfc3339_seconds(t).to_string().replace('T', " ").replace('Z', " UTC")
}
