//! What follows a round: the match ends (a seat below zero, the last hand decided, the West
//! extension's end) or the next hand starts; the final ranking, and uma and oka.

use super::round_end::Ending;
use super::{Phase, Riichi};
use crate::riichi::facts::FactKind;
use crate::{Fact, Seat};

impl Riichi {
    /// After a round: the match ends (a seat below zero, or the last hand decided), or the next
    /// hand starts (the same dealer after a dealer's win or tenpai, else the next).
    pub(super) fn next_hand(&mut self, e: &Ending) {
        self.last_hand = Some((self.round_wind, self.kyoku, self.honba));
        let length = self.rules.length.clamp(1, 4);
        let in_extension = self.round_wind >= length;
        let all_last = (self.round_wind + 1 == length && self.kyoku == 3) || in_extension;
        let dealer = usize::from(self.dealer());
        let top = self.ranking()[0];
        let someone_reached = self.scores.iter().any(|&s| s >= self.rules.return_points);
        let over = if self.rules.bust && self.scores.iter().any(|&s| s < 0) {
            true
        } else if all_last {
            if e.renchan {
                self.rules.agari_yame
                    && e.dealer_won
                    && top == dealer
                    && self.scores[dealer] >= self.rules.return_points
            } else {
                someone_reached || !self.rules.extension || (in_extension && self.kyoku == 3) || self.round_wind >= 3
            }
        } else {
            false
        };
        self.honba = e.next_honba;
        if over {
            self.finish();
            return;
        }
        if !e.renchan {
            self.kyoku += 1;
            if self.kyoku == 4 {
                self.kyoku = 0;
                self.round_wind += 1;
            }
        }
        self.start_round();
    }

    /// Seats from first to last: by score, ties to the seat nearer the first dealer.
    pub fn ranking(&self) -> [usize; 4] {
        let mut r = [0, 1, 2, 3];
        r.sort_by_key(|&s| (std::cmp::Reverse(self.scores[s]), s));
        r
    }

    /// The match is over: leftover riichi sticks to the top, the ranking and final points as
    /// facts of the last round.
    fn finish(&mut self) {
        let rank = self.ranking();
        // Leftover riichi sticks go to the top.
        self.scores[rank[0]] += 1000 * i64::from(self.sticks);
        let leftover = self.sticks;
        self.sticks = 0;
        let standing = self.final_points();
        if let Some(last) = self.results.last_mut() {
            if leftover > 0 {
                last.facts.push(Fact::seat(rank[0] as Seat, FactKind::LeftoverSticks, i64::from(leftover)));
            }
            for (place, &s) in rank.iter().enumerate() {
                last.facts.push(Fact::seat(s as Seat, FactKind::Rank, place as i64 + 1));
                last.facts.push(Fact::seat(s as Seat, FactKind::FinalPoints, standing[s]));
            }
        }
        self.phase = Phase::Over;
    }

    /// Each seat's result after uma and oka (or sanmanten), in points: score - return points
    /// + uma x 1000, and the oka ((return - start) x 4) to the top.
    pub fn final_points(&self) -> [i64; 4] {
        let rank = self.ranking();
        let mut out = [0i64; 4];
        let r = &self.rules;
        for (place, &s) in rank.iter().enumerate() {
            out[s] = self.scores[s] - r.return_points;
            if !r.sanmanten {
                out[s] += r.uma[place] * 1000;
            }
        }
        out[rank[0]] += (r.return_points - r.start_points) * 4;
        if r.sanmanten {
            let diff1 = self.scores[rank[0]] - self.scores[rank[3]];
            let diff2 = self.scores[rank[1]] - self.scores[rank[2]];
            out[rank[0]] += diff1;
            out[rank[3]] -= diff1;
            out[rank[1]] += diff2;
            out[rank[2]] -= diff2;
        }
        out
    }
}
