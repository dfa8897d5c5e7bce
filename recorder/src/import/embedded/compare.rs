//! Comparing a file with the export of the log rebuilt from it: the first difference and the
//! message that names it.

use serde_json::Value;

/// A value as JSON, or `nothing` where one side has none.
pub(crate) fn show(v: Option<&Value>) -> String {
    v.map_or_else(|| "nothing".to_owned(), Value::to_string)
}

/// The first place where two JSON values differ: its path (`log[2][5][7]`, `name[1]`,
/// `paifu.header.seats[0]`), the first value there and the second.
pub(crate) fn first_difference(a: &Value, b: &Value, path: &str) -> Option<(String, String, String)> {
    match (a, b) {
        (Value::Array(x), Value::Array(y)) => {
            for i in 0..x.len().max(y.len()) {
                let p = format!("{path}[{i}]");
                match (x.get(i), y.get(i)) {
                    (Some(u), Some(v)) => {
                        if let Some(d) = first_difference(u, v, &p) {
                            return Some(d);
                        }
                    }
                    (u, v) => return Some((p, show(u), show(v))),
                }
            }
            None
        }
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                let p = if path.is_empty() { k.clone() } else { format!("{path}.{k}") };
                match (x.get(k), y.get(k)) {
                    (Some(u), Some(v)) => {
                        if let Some(d) = first_difference(u, v, &p) {
                            return Some(d);
                        }
                    }
                    (u, v) => return Some((p, show(u), show(v))),
                }
            }
            None
        }
        _ if a == b => None,
        _ => Some((path.to_owned(), a.to_string(), b.to_string())),
    }
}

/// The message for a file that differs from the export of its embedded log: what the file has
/// there and what the embedded log gives.
pub(crate) fn mismatch(seeded: bool, file: &str, ours: &str) -> String {
    format!(
        "the file does not match the Paifu log it embeds (\"paifu\"): the file has {file}, the embedded {} give \
         {ours}",
        if seeded { "header, seed and decisions" } else { "header and records" }
    )
}
