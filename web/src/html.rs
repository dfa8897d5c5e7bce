//! HTML building blocks, drawn with maud (which escapes every value): the page layout with its inline CSS, tiles, tables.

use maud::{html, Markup, PreEscaped};
use serde_json::Value;

/// What [`url`] leaves as it is: the unreserved characters of RFC 3986 (letters, digits,
/// `-`, `.`, `_`, `~`); everything else is percent-encoded.
const COMPONENT: &percent_encoding::AsciiSet =
    &percent_encoding::NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_').remove(b'~');

/// Percent-encodes a path segment or query value (the `percent-encoding` crate).
pub(crate) fn url(s: &str) -> String {
    percent_encoding::utf8_percent_encode(s, COMPONENT).to_string()
}

const CSS: &str = include_str!("paifu.css");

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

/// The form that opens a table (`table_form.rs`), in the navigation for those who may.
pub(crate) const TABLES_NEW: &str = "/tables/new";

/// A whole page, without script. `active` is the navigation entry to mark.
pub(crate) fn page(title: &str, active: &str, body: &str) -> String {
    layout(&Chrome { title, active, user: None, scripts: &[] }, body)
}

/// A whole page that loads scripts this server serves (`/static/...`).
pub(crate) fn page_with_scripts(title: &str, active: &str, body: &str, scripts: &[&str]) -> String {
    layout(&Chrome { title, active, user: None, scripts }, body)
}

/// What frames a page: its title, the navigation entry to mark, who is logged in (the header
/// then names them instead of offering to log in), the scripts it loads.
pub(crate) struct Chrome<'a> {
    pub title: &'a str,
    pub active: &'a str,
    pub user: Option<&'a Viewer>,
    pub scripts: &'a [&'a str],
}

/// Who is logged in on a page's session, as its frame shows them.
#[derive(Clone, Debug)]
pub(crate) struct Viewer {
    /// The token's name.
    pub name: String,
    /// Whether its role may open tables (an organiser or an admin): the navigation then offers
    /// `/tables/new`, which answers 403 to anyone else.
    pub opens_tables: bool,
}

/// A whole page in its frame. No page has an inline script (the pages' CSP allows none): its
/// scripts are this server's files, `c.scripts`.
pub(crate) fn layout(c: &Chrome, body: &str) -> String {
    use maud::DOCTYPE;
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width,initial-scale=1";
                title { (c.title) " · Paifu" }
                style { (PreEscaped(CSS)) }
            }
            body {
                a.skip href="#main" { "Skip to content" }
                header { nav.in aria-label="Main" {
                    a.brand href="/" { "Paifu" }
                    @for (href, label) in NAV {
                        @if *href == "/login" {
                            @if c.user.is_some_and(|u| u.opens_tables) {
                                a #open-table href=(TABLES_NEW) aria-current=[(c.active == TABLES_NEW).then_some("page")] { "Open a table" }
                            }
                            @match c.user {
                                Some(u) => a #account href="/login" aria-current=[(c.active == *href).then_some("page")] { "Logged in: " (u.name) },
                                None => a href="/login" aria-current=[(c.active == *href).then_some("page")] { (label) },
                            }
                        } @else {
                            a href=(href) aria-current=[(c.active == *href).then_some("page")] { (label) }
                        }
                    }
                } }
                main #main tabindex="-1" { (PreEscaped(body)) }
                @for src in c.scripts { script src=(src) defer {} }
            }
        }
    }
    .into_string()
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
    html! { span class={ "t " (tile_class(t)) } title=(t) { (t) } }.into_string()
}

/// A Tien Zi Que card drawn as a card: its kind large (a number, a wind, 中 the Red Dragon, 雀
/// the Sparrow), its colour named under it, the card in its colour.
pub(crate) fn card(t: &str) -> String {
    // The Sparrow is written `Q` alone: its cards are all black.
    let (kind, colour) = if t == "Q" { ("Q", "k") } else { t.split_at(t.len().saturating_sub(1)) };
    let name = match colour {
        "b" => "blue",
        "g" => "green",
        "r" => "red",
        "w" => "white",
        "k" => "black",
        _ => "",
    };
    let face = match kind {
        "E" => "東",
        "S" => "南",
        "W" => "西",
        "N" => "北",
        "R" => "中",
        "Q" => "雀",
        k => k,
    };
    html! {
        span class={ "card c" (colour) } title={ (t) " (" (name) ")" } { b { (face) } small { (name) } }
    }
    .into_string()
}

/// "none", for an empty row of tiles or cards.
fn none() -> String {
    html! { span.k { "none" } }.into_string()
}

/// A row of Tien Zi Que cards.
pub(crate) fn cards(ts: &[String]) -> String {
    if ts.is_empty() {
        return none();
    }
    html! { span.cards { @for t in ts { (PreEscaped(card(t))) } } }.into_string()
}

/// A row of tiles.
pub(crate) fn tiles(ts: &[&str]) -> String {
    if ts.is_empty() {
        return none();
    }
    html! { span.tiles { @for t in ts { (PreEscaped(tile(t))) } } }.into_string()
}

/// Draws any JSON value: arrays of tile notation as tiles, nested arrays as groups (melds),
/// objects as key/value lists, other values as text. Everything is escaped.
pub(crate) fn value(v: &Value) -> String {
    value_markup(v).into_string()
}

fn value_markup(v: &Value) -> Markup {
    match v {
        Value::Null => html! { span.k { "—" } },
        Value::Bool(b) => html! { (if *b { "yes" } else { "no" }) },
        Value::Number(n) => html! { (n) },
        Value::String(s) if s.contains('\n') => html! { pre { (s) } },
        Value::String(s) => html! { (s) },
        // A discard or similar: a tile with flags (riichi: turned sideways; called: taken away;
        // tsumogiri: discarded as drawn).
        Value::Object(o) if o.get("tile").and_then(Value::as_str).is_some_and(is_tile) => {
            let t = o.get("tile").and_then(Value::as_str).unwrap_or("");
            let flag = |k: &str| o.get(k).and_then(Value::as_bool).unwrap_or(false);
            let flags: Vec<(&str, &str)> =
                [("riichi", " side", "riichi"), ("called", " gone", "called"), ("tsumogiri", " tg", "as drawn")]
                    .into_iter()
                    .filter(|(k, _, _)| flag(k))
                    .map(|(_, c, label)| (c, label))
                    .collect();
            html! {
                span class={ "t " (tile_class(t)) @for (c, _) in &flags { (c) } }
                    title={ (t) @for (_, label) in &flags { " (" (label) ")" } } { (t) }
            }
        }
        // A meld: its kind and tiles.
        Value::Object(o) if o.get("tiles").is_some_and(Value::is_array) => {
            let kind = o.get("kind").and_then(Value::as_str).unwrap_or("");
            html! { span.meld { span.k { (kind) } " " @if let Some(t) = o.get("tiles") { (value_markup(t)) } } }
        }
        Value::Array(a) if !a.is_empty() && a.iter().all(|x| x.get("tile").is_some()) => {
            html! { span.tiles { @for x in a { (value_markup(x)) } } }
        }
        Value::Array(a) if !a.is_empty() && a.iter().all(|x| x.get("tiles").is_some()) => {
            html! { @for x in a { (value_markup(x)) } }
        }
        // Records of scalars with the same keys: a small table.
        Value::Array(a) if records(a).is_some() => {
            let keys = records(a).unwrap_or_default();
            html! {
                div.scroll { table.rec {
                    thead { tr { @for k in &keys { th { (k) } } } }
                    tbody { @for x in a { tr { @for k in &keys { td { @if let Some(y) = x.get(k) { (value_markup(y)) } } } } } }
                } }
            }
        }
        Value::Array(a) if a.iter().all(|x| x.as_str().is_some_and(is_tile)) => {
            PreEscaped(tiles(&a.iter().filter_map(Value::as_str).collect::<Vec<_>>()))
        }
        Value::Array(a) if a.iter().all(|x| x.is_array()) => {
            html! { @for x in a { span.tiles style="margin-right:10px" { (value_markup(x)) } } }
        }
        Value::Array(a) => html! { @for (i, x) in a.iter().enumerate() { @if i > 0 { ", " } (value_markup(x)) } },
        Value::Object(o) => html! { dl.kv { @for (k, x) in o { dt { (k) } dd { (value_markup(x)) } } } },
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

/// A stored verdict: an excerpt of an unknown game says so, never "valid".
pub(crate) fn stored_verdict(valid: bool, code: Option<&str>, excerpt: Option<&str>) -> String {
    match excerpt {
        Some(_) if valid => html! { span.ok { "✔ excerpt" } }.into_string(),
        _ => verdict(valid, code),
    }
}

/// A verdict badge: valid, or invalid with the fault's code.
pub(crate) fn verdict(valid: bool, code: Option<&str>) -> String {
    match valid {
        true => html! { span.ok { "✔ valid" } },
        false => html! { span.bad { "✘ invalid" } " " code { (code.unwrap_or("")) } },
    }
    .into_string()
}

/// Seconds since the epoch as a UTC date and time.
pub(crate) fn time(secs: i64) -> String {
    let t = std::time::UNIX_EPOCH + std::time::Duration::from_secs(secs.max(0) as u64);
    humantime::format_rfc3339_seconds(t).to_string().replace('T', " ").replace('Z', " UTC")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_are_drawn_with_their_text_escaped() {
        let bad = "<script>alert(1)</script>\"'&";
        let shown = "&lt;script&gt;alert(1)&lt;/script&gt;&quot;'&amp;";
        for v in [
            json!(bad),
            json!({ bad: 1 }),
            json!([{ "a": bad, "b": 1 }, { "a": 2, "b": bad }]),
            json!({ "kind": bad, "tiles": ["1m", "2m"] }),
            json!([bad, "x"]),
            json!(format!("{bad}\nline")),
        ] {
            let h = value(&v);
            assert!(!h.contains("<script>") && h.contains(shown), "{v}: {h}");
        }
        assert_eq!(
            value(&json!({ "tile": "5p", "riichi": true, "tsumogiri": true })),
            "<span class=\"t cp side tg\" title=\"5p (riichi) (as drawn)\">5p</span>"
        );
        assert_eq!(tiles(&["1m", "Eg"]), "<span class=\"tiles\"><span class=\"t cm\" title=\"1m\">1m</span><span class=\"t cg\" title=\"Eg\">Eg</span></span>");
        assert_eq!(verdict(false, Some(bad)), format!("<span class=\"bad\">✘ invalid</span> <code>{shown}</code>"));
    }
}
