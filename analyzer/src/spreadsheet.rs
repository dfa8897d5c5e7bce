//! CSV as Paifu writes it (a report's `standings.csv` and `games.csv`, `paifu stats --format
//! csv`): quoted and escaped by the `csv` crate, and every text cell neutralised against formula
//! injection, as OWASP's "CSV Injection" page advises: a text cell that begins with `=`, `+`, `-`,
//! `@`, a tab, a carriage return or a line feed is written with a `'` before it, so that a
//! spreadsheet shows it as text instead of running it (a player named `=HYPERLINK(...)` is shown,
//! not followed). Numeric columns (scores, counts, points) are numbers Paifu formats itself and
//! are written as they are: a score of -4000 stays the number -4000.

use std::borrow::Cow;

/// One cell of a row.
pub(crate) enum Cell<'a> {
    /// Text from a log, a name, a code: neutralised.
    Text(&'a str),
    /// A number Paifu formatted: written as it is.
    Number(String),
}

impl Cell<'_> {
    pub(crate) fn number(n: impl ToString) -> Cell<'static> {
        Cell::Number(n.to_string())
    }
}

/// The characters that make a spreadsheet read a cell as a formula (or a command) when they
/// begin it.
const FORMULA_START: [char; 7] = ['=', '+', '-', '@', '\t', '\r', '\n'];

/// A text cell as written: with a `'` before it when it begins as a formula would.
pub(crate) fn neutralise(text: &str) -> Cow<'_, str> {
    match text.starts_with(FORMULA_START) {
        true => Cow::Owned(format!("'{text}")),
        false => Cow::Borrowed(text),
    }
}

/// A CSV table: the header line, then one line per row.
pub(crate) fn table<'a>(header: &[&str], rows: impl IntoIterator<Item = Vec<Cell<'a>>>) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    // Writing into memory cannot fail; a row of another length than the header cannot happen
    // (every caller writes its header's columns), and would only end the table early.
    let _ = w.write_record(header);
    for row in rows {
        let cells: Vec<Cow<'_, str>> = row
            .iter()
            .map(|c| match c {
                Cell::Text(t) => neutralise(t),
                Cell::Number(n) => Cow::Borrowed(n.as_str()),
            })
            .collect();
        if w.write_record(cells.iter().map(|c| c.as_bytes())).is_err() {
            break;
        }
    }
    let bytes = w.into_inner().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_cells_that_begin_as_formulas_are_neutralised_and_numbers_are_not() {
        let rows = vec![
            vec![Cell::Text("=HYPERLINK(\"http://x\",\"y\")"), Cell::number(-4000)],
            vec![Cell::Text("+1"), Cell::number(12.5)],
            vec![Cell::Text("-2+3"), Cell::Number("-12.3".into())],
            vec![Cell::Text("@SUM(A1)"), Cell::number(0)],
            vec![Cell::Text("\tx"), Cell::number(1)],
            vec![Cell::Text("\rx"), Cell::number(1)],
            vec![Cell::Text("Aiko, \"the\" first"), Cell::number(1)],
            vec![Cell::Text("a=b"), Cell::number(1)],
        ];
        let t = table(&["name", "score"], rows);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines[0], "name,score");
        assert_eq!(lines[1], "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",-4000");
        assert_eq!(lines[2], "'+1,12.5");
        assert_eq!(lines[3], "'-2+3,-12.3");
        assert_eq!(lines[4], "'@SUM(A1),0");
        assert_eq!(lines[5], "'\tx,1");
        assert!(t.contains("\"'\rx\",1"), "{t:?}");
        assert!(t.contains("\"Aiko, \"\"the\"\" first\",1"), "{t:?}");
        assert!(t.ends_with("a=b,1\n"), "a formula sign inside a cell is left alone: {t:?}");
        // Read back by a CSV reader: every cell as written, the text ones with their '.
        let mut r = csv::Reader::from_reader(t.as_bytes());
        let cells: Vec<Vec<String>> = r.records().map(|rec| rec.unwrap().iter().map(str::to_owned).collect()).collect();
        assert_eq!(cells[0], ["'=HYPERLINK(\"http://x\",\"y\")", "-4000"]);
        assert_eq!(cells[2], ["'-2+3", "-12.3"]);
    }
}
