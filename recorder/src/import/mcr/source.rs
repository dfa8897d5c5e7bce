//! An imported MCR log checked against the source hand it embeds (`meta.source`), as imported
//! riichi logs are (crate::import::source): `source.digest` must be the blake3 of the embedded
//! text (`source_digest_mismatch`), and importing that text again must give the very header (the
//! engine name apart) and records, claims included (`source_mismatch` at the first difference).

use super::{botzone, pmn, to_log};
use crate::import::to_log::{digest_fault, META_KEY};
use paifu_core::log::{Log, Positions};
use paifu_core::mcr::Action;
use paifu_core::{ErrorCode, Fault};

/// The first fault of an imported MCR log against its embedded source; `None` when it is what
/// its source gives or embeds no source.
pub(crate) fn check_log(log: &Log<Action>, pos: &Positions) -> Option<Fault> {
    let src = log.header.source.as_ref()?;
    let text = log.header.meta.get(META_KEY)?.as_str();
    if let Some(f) = digest_fault(src, text) {
        return Some(f);
    }
    let hands = match src.format.as_str() {
        "botzone" => botzone::read(text),
        "pmn" => pmn::read(text),
        other => Err(crate::import::ImportError::new(
            "source.format",
            format!("{other:?} is not an MCR format Paifu imports"),
        )),
    };
    let again = hands.and_then(|hands| match &hands[..] {
        [one] => to_log(one),
        _ => Err(crate::import::ImportError::new("", format!("{} hands; a log embeds one", hands.len()))),
    });
    let imp = match again {
        Ok(imp) => imp,
        Err(e) => {
            return Some(Fault::new(
                ErrorCode::SourceMismatch,
                format!("the source the log embeds ({}) cannot be imported: {e}", src.format),
            ))
        }
    };
    let (a, b) = (&log.header, &imp.log.header);
    if (&a.game, &a.ruleset, &a.options, &a.seats, &a.seed, &a.commitment, &a.source, &a.meta)
        != (&b.game, &b.ruleset, &b.options, &b.seats, &b.seed, &b.commitment, &b.source, &b.meta)
    {
        return Some(Fault::new(ErrorCode::SourceMismatch, "the header differs from what its embedded source gives"));
    }
    let (ours, theirs) = (&log.records, &imp.log.records);
    for i in 0..ours.len().max(theirs.len()) {
        let (x, y) = (ours.get(i), theirs.get(i));
        if x == y {
            continue;
        }
        let say = |r: Option<&paifu_core::log::Record<Action>>| {
            r.map_or_else(|| "nothing".to_owned(), |r| format!("seat {} {}", r.seat, r.action))
        };
        let place = imp.positions.get(i).map(|p| format!(" ({p})")).unwrap_or_default();
        let mut f = Fault::new(
            ErrorCode::SourceMismatch,
            format!("the log has {}, but its embedded source gives {}{place}", say(x), say(y)),
        )
        .at_index(i);
        f.line = pos.line_of(i);
        if let Some(r) = x {
            f.seat = Some(r.seat);
            f.action = Some(r.action.to_string());
        }
        return Some(f);
    }
    None
}
