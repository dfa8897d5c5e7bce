//! The seed's ritual where it decides who gets which tile (docs/rules/hungarian.md): the seating
//! by dice and wind markers, the wall's ring, the break by dice, the loose tiles and the dead wall,
//! the deal.

use super::rules::Seating as How;
use crate::mahjong::{Piece, Wall, WallEnd};
use crate::random::{Seed, Stream};
use crate::Seat;
use serde::Serialize;

/// Two loose tiles lifted onto the wall's end a pair at a time, and 14 tiles kept apart before
/// them ("a fal utolsó 14 köve ... el legyen választva").
pub(crate) const WALL_END: WallEnd = WallEnd { dead: 14, loose: 2 };

/// The tiles of one player's wall: 18 stacks of two.
pub(crate) const SIDE: usize = 36;

/// How the players sat down, for the whole match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Seating {
    /// The two dice seat 0 rolled.
    pub dice: [u8; 2],
    /// The chair the dice counted to: East's place (chair k is where seat k sat down).
    pub east_chair: u8,
    /// The wind each seat drew from the markers (0 East, 1 South, 2 West, 3 North).
    pub markers: [u8; 4],
    /// The seat at each chair once everyone has taken its wind's place. Play goes round the
    /// chairs: East's, then the one to its right.
    pub seat_at: [Seat; 4],
}

/// The dice's sum as a count round the table to the right from the roller, the roller being 1:
/// how many places on from it (0 the roller itself).
pub(crate) fn counted(sum: u8) -> u8 {
    (sum + 3) % 4
}

/// Seats the players from the seed's `hungarian/seating` stream: seat 0 rolls two dice, whose sum
/// counted from it to the right gives East's place; the shuffled markers give each seat its wind
/// (or, with `seating: dice`, everyone keeps its place and the winds follow round from East's).
pub(super) fn seat(seed: &Seed, how: How) -> Seating {
    let mut s = seed.stream("hungarian/seating");
    let dice = [s.die(6) as u8, s.die(6) as u8];
    let east_chair = counted(dice[0] + dice[1]);
    let markers = match how {
        How::Markers => {
            let mut m = [0u8, 1, 2, 3];
            s.shuffle(&mut m);
            m
        }
        How::Dice => std::array::from_fn(|k| (k as u8 + 4 - east_chair) % 4),
    };
    let mut seat_at = [0u8; 4];
    for (k, &w) in markers.iter().enumerate() {
        seat_at[usize::from((east_chair + w) % 4)] = k as u8;
    }
    Seating { dice, east_chair, markers, seat_at }
}

/// Where a hand's wall was broken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Break {
    /// East's two dice, then (with two throws) the wall owner's two.
    pub dice: [u8; 4],
    /// The wind of the player whose wall was opened.
    pub wall: u8,
    /// The stack lifted out, counted from that wall's right end (1 the first; past 18 the count
    /// runs on into the next wall to the left).
    pub stack: u8,
}

impl Break {
    /// Throws the dice on the hand's `dice` stream: East counts its sum round the players to the
    /// right from itself to the wall to open; its owner throws too (unless `throws` is 1) and the
    /// two sums count the stacks.
    pub fn throw(s: &mut Stream, throws: u8) -> Break {
        let mut dice = [0u8; 4];
        for d in dice.iter_mut().take(if throws == 1 { 2 } else { 4 }) {
            *d = s.die(6) as u8;
        }
        let wall = counted(dice[0] + dice[1]);
        let stack = dice.iter().sum();
        Break { dice, wall, stack }
    }

    /// The ring position of the first tile the deal takes: just past the lifted stack. The ring
    /// runs clockwise, the way tiles are taken, each wall counted from its owner's right end:
    /// East's wall, then North's, West's and South's.
    pub fn start(&self) -> usize {
        let side = (4 - usize::from(self.wall)) % 4;
        (SIDE * side + 2 * usize::from(self.stack)) % (4 * SIDE)
    }
}

/// The shuffled set of hand `n`'s `wall` stream as a ring of stacks (the top tile first).
pub(super) fn ring(seed: &Seed, label: &str) -> [Piece; 144] {
    let mut ring = Piece::set();
    seed.stream(label).shuffle(&mut ring);
    ring
}

/// The deal, from the wall's start: two stacks each, East first, three times round; then East
/// the tops of the next first and third stacks, South the first's bottom, West the second's top,
/// North its bottom. Indexed by place from East (0 East, 1 South, ...).
pub(super) fn deal(wall: &mut Wall<Piece>) -> [Vec<Piece>; 4] {
    let mut hands: [Vec<Piece>; 4] = Default::default();
    for _ in 0..3 {
        for h in hands.iter_mut() {
            if let Some(tiles) = wall.take(4) {
                h.extend_from_slice(tiles);
            }
        }
    }
    if let Some(last) = wall.take(5) {
        for (i, &p) in last.iter().enumerate() {
            hands[i % 4].push(p);
        }
    }
    hands
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dice_count_from_the_roller_to_the_right() {
        // The seed: 2, 6, 10 the right-hand neighbour; 3, 7, 11 opposite; 4, 8, 12 the left;
        // 5, 9 the roller itself.
        for (sums, place) in [([2, 6, 10], 1), ([3, 7, 11], 2), ([4, 8, 12], 3), ([5, 9, 9], 0)] {
            for s in sums {
                assert_eq!(counted(s), place, "{s}");
            }
        }
    }

    #[test]
    fn seating_puts_each_wind_at_its_place_round_from_east() {
        for i in 0..50 {
            let seed = Seed::from_text(&format!("seating {i}"));
            for how in [How::Markers, How::Dice] {
                let s = seat(&seed, how);
                assert_eq!(s.east_chair, counted(s.dice[0] + s.dice[1]));
                let mut m = s.markers;
                m.sort_unstable();
                assert_eq!(m, [0, 1, 2, 3]);
                for k in 0..4u8 {
                    let chair = (s.east_chair + s.markers[usize::from(k)]) % 4;
                    assert_eq!(s.seat_at[usize::from(chair)], k);
                }
                if how == How::Dice {
                    // Nobody moves.
                    assert_eq!(s.seat_at, [0, 1, 2, 3]);
                }
            }
        }
        // The same seed, the same seating.
        assert_eq!(seat(&Seed::from_text("x"), How::Markers), seat(&Seed::from_text("x"), How::Markers));
    }

    #[test]
    fn the_break_opens_the_counted_wall_after_the_counted_stack() {
        let b = Break { dice: [3, 4, 6, 6], wall: 2, stack: 19 };
        // West's wall is the third side of the ring (East, North, West, South): the 19th stack is
        // the first of the wall to its left, South's; the deal starts at the stack after it.
        assert_eq!(b.start(), 2 * SIDE + 38);
        assert_eq!(Break { dice: [1, 1, 1, 1], wall: 1, stack: 4 }.start(), 3 * SIDE + 8);
        // South's wall is the ring's last side: 24 stacks run on into East's, at the ring's start.
        assert_eq!(Break { dice: [6, 6, 6, 6], wall: 1, stack: 24 }.start(), 12);
        for i in 0..200 {
            let mut s = Seed::from_text(&format!("break {i}")).stream("dice");
            let b = Break::throw(&mut s, 2);
            assert_eq!(b.wall, counted(b.dice[0] + b.dice[1]));
            assert_eq!(u32::from(b.stack), b.dice.iter().map(|&d| u32::from(d)).sum::<u32>());
            assert!(b.dice.iter().all(|d| (1..=6).contains(d)) && (4..=24).contains(&b.stack));
            let one = Break::throw(&mut s, 1);
            assert!(one.dice[2] == 0 && one.dice[3] == 0 && (2..=12).contains(&one.stack));
            assert!(b.start() < 144 && b.start() % 2 == 0);
        }
    }

    #[test]
    fn the_deal_follows_the_seed() {
        let ring: Vec<Piece> = Piece::set().to_vec();
        let mut wall = Wall::new(WALL_END);
        wall.build(&ring, 10);
        assert_eq!(wall.left(), 128);
        let hands = deal(&mut wall);
        let at = |i: usize| ring[(10 + i) % 144];
        // East: stacks 1-2, 9-10, 17-18, then the tops of stacks 25 and 27.
        let east: Vec<Piece> = (0..4).chain(16..20).chain(32..36).chain([48, 52]).map(at).collect();
        assert_eq!(hands[0], east);
        assert_eq!(hands[1], (4..8).chain(20..24).chain(36..40).chain([49]).map(at).collect::<Vec<_>>());
        assert_eq!(hands[2], (8..12).chain(24..28).chain(40..44).chain([50]).map(at).collect::<Vec<_>>());
        assert_eq!(hands[3], (12..16).chain(28..32).chain(44..48).chain([51]).map(at).collect::<Vec<_>>());
        // The next draw is the third stack's bottom tile; 75 are left to draw.
        assert_eq!(wall.left(), 75);
        assert_eq!(wall.draw(), Some(at(53)));
        // The loose tiles are the lifted stack, top first, just before the start.
        assert_eq!(wall.draw_replacement(), Some(at(142)));
        assert_eq!(wall.draw_replacement(), Some(at(143)));
        // Both used: the next pair is lifted and the dead wall takes a stack from the live wall.
        assert_eq!(wall.left(), 72);
        assert_eq!(wall.draw_replacement(), Some(at(140)));
    }
}
