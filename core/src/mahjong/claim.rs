//! Claims on a discard (or on a tile added to a kong): what each seat may claim ([`Can`]), the
//! window that collects the answers ([`Window`]), and which claims stand ([`arbitrate`]): a win
//! over a pung or kong over a chow, and among claims of one rank the seat nearest the
//! discarder in turn order; several wins stand where the rules allow ([`SeveralWins`]).
//!
//! Every mahjong ruleset here is played by four seats.

use crate::{Seat, SeatSet};

/// The claims a seat may make on one tile, as bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Can(u8);

impl Can {
    pub(crate) const NOTHING: Can = Can(0);
    pub(crate) const WIN: Can = Can(1);
    pub(crate) const PUNG: Can = Can(2);
    /// A kong on the discarded tile.
    pub(crate) const KONG: Can = Can(4);
    pub(crate) const CHOW: Can = Can(8);

    #[inline]
    pub(crate) const fn bits(self) -> u8 {
        self.0
    }

    /// The claims of these bits (bits of no claim are dropped).
    #[inline]
    pub(crate) const fn from_bits(bits: u8) -> Can {
        Can(bits & 0xf)
    }

    #[inline]
    pub(crate) const fn contains(self, other: Can) -> bool {
        self.0 & other.0 == other.0
    }

    #[inline]
    pub(crate) const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl std::ops::BitOr for Can {
    type Output = Can;
    #[inline]
    fn bitor(self, other: Can) -> Can {
        Can(self.0 | other.0)
    }
}

impl std::ops::BitOrAssign for Can {
    #[inline]
    fn bitor_assign(&mut self, other: Can) {
        self.0 |= other.0;
    }
}

/// A claim's rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Priority {
    Chow,
    /// A pung, or a kong on the discard.
    Pung,
    Win,
}

/// How many of several wins on one tile stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SeveralWins {
    /// Only the seat nearest the discarder in turn order wins (the head bump).
    Nearest,
    /// Every seat that claimed the win wins (riichi's double ron).
    All,
}

/// The three other seats in turn order from `from`, nearest first.
#[inline]
pub(crate) fn seats_after(from: Seat) -> [Seat; 3] {
    [(from + 1) % 4, (from + 2) % 4, (from + 3) % 4]
}

/// A claim window: the seat whose tile may be claimed, what each seat may claim, and the
/// answers (claims or passes) given so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Window<A> {
    from: Seat,
    can: [Can; 4],
    answers: [Option<A>; 4],
}

impl<A> Window<A> {
    /// A window on `from`'s tile, asking every seat that may claim something.
    #[inline]
    pub(crate) fn new(from: Seat, can: [Can; 4]) -> Window<A> {
        Window { from, can, answers: [const { None }; 4] }
    }

    /// The seat whose tile may be claimed.
    #[inline]
    pub(crate) fn from(&self) -> Seat {
        self.from
    }

    /// What `seat` may claim.
    #[inline]
    pub(crate) fn can(&self, seat: Seat) -> Can {
        self.can[usize::from(seat & 3)]
    }

    /// Whether `seat` may claim and has not answered yet.
    #[inline]
    pub(crate) fn asks(&self, seat: Seat) -> bool {
        let i = usize::from(seat & 3);
        !self.can[i].is_empty() && self.answers[i].is_none()
    }

    /// The seats that still owe an answer.
    #[inline]
    pub(crate) fn waiting(&self) -> SeatSet {
        let mut s = SeatSet::EMPTY;
        for i in 0..4 {
            if self.asks(i) {
                s.insert(i);
            }
        }
        s
    }

    /// Records `seat`'s answer.
    #[inline]
    pub(crate) fn answer(&mut self, seat: Seat, answer: A) {
        self.answers[usize::from(seat & 3)] = Some(answer);
    }

    /// `seat`'s answer, if given.
    #[inline]
    pub(crate) fn answer_of(&self, seat: Seat) -> Option<&A> {
        self.answers[usize::from(seat & 3)].as_ref()
    }

    /// Every seat that may claim has answered (so also a window where nobody may claim).
    #[inline]
    pub(crate) fn is_closed(&self) -> bool {
        (0..4).all(|s| !self.asks(s))
    }

    /// The claims that stand, each answer ranked by `rank` (`None`: a pass).
    #[inline]
    pub(crate) fn arbitrate(&self, rank: impl Fn(&A) -> Option<Priority>) -> Ruling {
        arbitrate(self.from, |s| self.answer_of(s).and_then(&rank))
    }
}

/// Which claims on one tile stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Ruling {
    wins: [Seat; 3],
    win_count: u8,
    call: Option<Seat>,
}

impl Ruling {
    /// Every seat that claimed a win, nearest the discarder first.
    #[inline]
    pub(crate) fn wins(&self) -> &[Seat] {
        &self.wins[..usize::from(self.win_count)]
    }

    /// The wins that stand: all of them, or the nearest.
    #[inline]
    pub(crate) fn standing_wins(&self, several: SeveralWins) -> &[Seat] {
        match several {
            SeveralWins::All => self.wins(),
            SeveralWins::Nearest => &self.wins[..usize::from(self.win_count.min(1))],
        }
    }

    /// The call that stands when no win does: the highest rank of pung (or kong) and chow, the
    /// seat nearest the discarder among equals.
    #[inline]
    pub(crate) fn call(&self) -> Option<Seat> {
        self.call
    }
}

/// The claims that stand on `from`'s tile, each seat's claim ranked by `claim` (`None`: no
/// claim).
#[inline]
pub(crate) fn arbitrate(from: Seat, claim: impl Fn(Seat) -> Option<Priority>) -> Ruling {
    let mut r = Ruling { wins: [0; 3], win_count: 0, call: None };
    let mut best: Option<Priority> = None;
    for s in seats_after(from) {
        match claim(s) {
            Some(Priority::Win) => {
                r.wins[usize::from(r.win_count)] = s;
                r.win_count += 1;
            }
            Some(p) if best.is_none_or(|b| p > b) => {
                best = Some(p);
                r.call = Some(s);
            }
            _ => {}
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claim_bits() {
        let c = Can::WIN | Can::CHOW;
        assert!(c.contains(Can::WIN) && c.contains(Can::CHOW) && !c.contains(Can::PUNG));
        assert_eq!(Can::from_bits(c.bits()), c);
        assert_eq!(Can::from_bits(0xff), Can::WIN | Can::PUNG | Can::KONG | Can::CHOW);
        let mut d = Can::NOTHING;
        assert!(d.is_empty());
        d |= Can::KONG;
        assert_eq!(d.bits(), 4);
    }

    /// Seat `s` claims `claims[s]`.
    fn rule(from: Seat, claims: [Option<Priority>; 4]) -> Ruling {
        arbitrate(from, |s| claims[usize::from(s)])
    }

    #[test]
    fn a_win_beats_a_pung_beats_a_chow() {
        use Priority::*;
        let r = rule(0, [None, Some(Chow), Some(Pung), None]);
        assert_eq!((r.wins(), r.call()), (&[][..], Some(2)));
        let r = rule(0, [None, Some(Chow), Some(Pung), Some(Win)]);
        assert_eq!((r.wins(), r.call()), (&[3][..], Some(2)));
        let r = rule(2, [Some(Chow), None, None, Some(Pung)]);
        assert_eq!(r.call(), Some(3));
        assert_eq!(rule(1, [None; 4]), Ruling { wins: [0; 3], win_count: 0, call: None });
        // The discarder's own answer is never a claim.
        assert_eq!(rule(1, [None, Some(Pung), None, None]).call(), None);
    }

    #[test]
    fn several_wins_in_turn_order_from_the_discarder() {
        let w = Some(Priority::Win);
        let r = rule(2, [w, w, None, w]);
        assert_eq!(r.wins(), &[3, 0, 1]);
        assert_eq!(r.standing_wins(SeveralWins::All), &[3, 0, 1]);
        assert_eq!(r.standing_wins(SeveralWins::Nearest), &[3]);
        let r = rule(3, [None, w, w, None]);
        assert_eq!(r.standing_wins(SeveralWins::Nearest), &[1]);
        assert_eq!(rule(3, [None; 4]).standing_wins(SeveralWins::Nearest), &[] as &[Seat]);
        // Among calls of one rank, the nearest seat.
        let p = Some(Priority::Pung);
        assert_eq!(rule(0, [None, None, p, p]).call(), Some(2));
        assert_eq!(rule(2, [p, None, None, p]).call(), Some(3));
    }

    #[test]
    fn a_window_collects_the_answers() {
        let mut w: Window<char> = Window::new(1, [Can::NOTHING, Can::NOTHING, Can::PUNG, Can::WIN | Can::CHOW]);
        assert_eq!(w.waiting().iter().collect::<Vec<_>>(), [2, 3]);
        assert!(!w.asks(1) && !w.asks(0) && w.asks(2) && !w.is_closed());
        w.answer(3, 'r');
        assert_eq!((w.answer_of(3), w.answer_of(2)), (Some(&'r'), None));
        assert_eq!(w.waiting(), SeatSet::single(2));
        w.answer(2, 'p');
        assert!(w.is_closed() && w.waiting().is_empty());
        let rank = |a: &char| match a {
            'r' => Some(Priority::Win),
            'p' => Some(Priority::Pung),
            _ => None,
        };
        let r = w.arbitrate(rank);
        assert_eq!((r.wins(), r.call()), (&[3][..], Some(2)));
        assert_eq!((w.from(), w.can(3)), (1, Can::WIN | Can::CHOW));
        assert!(Window::<char>::new(0, [Can::NOTHING; 4]).is_closed());
    }
}
