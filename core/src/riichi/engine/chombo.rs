//! A chombo (`incident chombo`, entered by a referee): the hand is annulled, its riichi
//! deposits returned, the offender pays the ruleset's penalty, and the same dealer deals again
//! with the same honba (docs/rules/riichi.md, "Incidents").

use super::round_end::Ending;
use super::Riichi;
use crate::error::Violation;
use crate::riichi::rules::Chombo;
use crate::riichi::view::{HandEndKind, Transfer};
use crate::Seat;

impl Riichi {
    /// A chombo deals the hand again from the seed; an imported game has none (its deals are
    /// records of the source), so it is refused there.
    pub(crate) fn check_chombo(&self, seat: Seat) -> Result<(), Violation> {
        if self.seed.is_none() {
            return Err(Violation::illegal(format!(
                "a chombo of seat {seat} annuls the hand and deals it again from the seed; this game is imported \
                 (its deals are records of its source) and has no seed to deal from"
            )));
        }
        Ok(())
    }

    /// Annuls the hand: deposits back, the penalty paid (`mangan`: a non-dealer 4000 to the
    /// dealer and 2000 to each other player, the dealer 4000 to each), and the same hand dealt
    /// again with the same honba from the match's next chombo streams.
    pub(crate) fn chombo(&mut self, seat: Seat) {
        let offender = usize::from(seat & 3);
        let dealer = usize::from(self.dealer());
        let mut returned = 0;
        for s in 0..4 {
            let deposit = -self.table.deltas[s];
            if deposit > 0 {
                self.scores[s] += deposit;
                self.table.deltas[s] = 0;
                returned += deposit / 1000;
            }
        }
        self.sticks = self.sticks.saturating_sub(u32::try_from(returned).unwrap_or(0));
        let mut d = [0i64; 4];
        let mut payments = Vec::new();
        if self.rules.chombo == Chombo::Mangan {
            for o in (0..4).filter(|&o| o != offender) {
                let points = if offender == dealer || o == dealer { 4000 } else { 2000 };
                d[o] += points;
                d[offender] -= points;
                payments.push(Transfer { from: Some(seat), to: Some(o as Seat), points });
            }
        }
        self.chombos += 1;
        let summary = match self.rules.chombo {
            Chombo::Mangan => format!("chombo by seat {seat}: the hand is annulled, seat {seat} pays a mangan"),
            Chombo::Off => format!("chombo by seat {seat}: the hand is annulled"),
        };
        let ending = Ending {
            summary,
            facts: Vec::new(),
            renchan: true,
            dealer_won: false,
            next_honba: self.honba,
            how: HandEndKind::Chombo { seat },
            payments,
        };
        self.end_round(d, ending);
    }
}
