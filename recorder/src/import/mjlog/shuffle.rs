//! Tenhou's shuffle: how the seed of a game's `<SHUFFLE seed="mt19937ar-sha512-n288-base64,...">`
//! makes every round's wall and dice.
//!
//! Tenhou published the algorithm (blog.tenhou.net/article/30503297.html, with the reference code
//! at tenhou.net/stat/rand/) and validation data for one game's seed, with the intermediate values
//! (blog.tenhou.net/article/174202532.html; the tests below check them). In words:
//!
//! 1. The seed's text after `mt19937ar-sha512-n288-base64,` is base64 of 2,496 bytes: 624 32-bit
//!    words, each little-endian. They seed one MT19937 generator for the whole game with the
//!    reference `init_by_array` (Matsumoto and Nishimura's mt19937ar.c of 2002).
//! 2. Each round, in play order, takes the next 288 outputs of that generator (`src`), laid out as
//!    little-endian bytes; each of the 9 blocks of 128 bytes is hashed with SHA-512, and the 9
//!    digests, read as 144 little-endian words, are `rnd`.
//! 3. The wall starts as the 136 tile ids in order (0-135: id / 4 is the kind, 1m first, Red
//!    last) and is shuffled front to back: for `i` in 0..135, tile `i` swaps with tile
//!    `i + rnd[i] % (136 - i)`.
//! 4. The dice are `rnd[135] % 6` and `rnd[136] % 6`, 0-5 as `<INIT seed=...>` writes them (one
//!    less than the faces); `rnd[137..144]` are unused.
//!
//! The wall is dealt from its end: [`Wall`] says which position each tile of the deal, each draw,
//! each dead-wall draw and each indicator comes from.

use base64::Engine as _;
use rand_mt::Mt;
use sha2::{Digest, Sha512};

/// The algorithm's name, as `<SHUFFLE seed=...>` starts (before a comma and the seed).
pub(crate) const ALGORITHM: &str = "mt19937ar-sha512-n288-base64";

/// Words in a seed (MT19937's state size).
const KEY_WORDS: usize = 624;
/// MT19937 outputs a round takes (`src`): 9 blocks of 1024 bits.
const SRC_WORDS: usize = 288;
/// Words of the 9 SHA-512 digests (`rnd`).
const RND_WORDS: usize = 144;

/// Tiles in a four-player wall.
pub(crate) const TILES: usize = 136;

/// Why a seed that names [`ALGORITHM`] cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum SeedError {
    #[error("the seed after \"{ALGORITHM},\" is not base64 ({0})")]
    Base64(String),
    #[error("the seed after \"{ALGORITHM},\" is {0} bytes, not the 2496 bytes of 624 words")]
    Length(usize),
}

/// A game's shuffler: the generator its seed starts, from which each round takes its wall.
pub(crate) struct Shuffle {
    mt: Mt,
}

impl Shuffle {
    /// The shuffler of a `<SHUFFLE seed=...>` text; `Ok(None)` for a seed of another algorithm (or
    /// none): only [`ALGORITHM`]'s is known.
    pub(crate) fn from_seed(seed: &str) -> Result<Option<Shuffle>, SeedError> {
        let Some(b64) = seed.strip_prefix(ALGORITHM).and_then(|s| s.strip_prefix(',')) else {
            return Ok(None);
        };
        // Tolerate line breaks a pretty-printer put inside the attribute.
        let b64: String = b64.chars().filter(|c| !c.is_ascii_whitespace()).collect();
        let bytes =
            base64::engine::general_purpose::STANDARD.decode(b64).map_err(|e| SeedError::Base64(e.to_string()))?;
        if bytes.len() != KEY_WORDS * 4 {
            return Err(SeedError::Length(bytes.len()));
        }
        let key = bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        Ok(Some(Shuffle { mt: Mt::new_with_key(key) }))
    }

    /// The next round's `src`: 288 outputs of the game's generator.
    fn src(&mut self) -> [u32; SRC_WORDS] {
        std::array::from_fn(|_| self.mt.next_u32())
    }

    /// The next round's wall and dice.
    pub(crate) fn next_wall(&mut self) -> Wall {
        Wall::from_rnd(&rnd(&self.src()))
    }
}

/// `rnd`: each 128-byte block of `src` (little-endian words) hashed with SHA-512, the digests read
/// as little-endian words.
fn rnd(src: &[u32; SRC_WORDS]) -> [u32; RND_WORDS] {
    let mut out = [0u32; RND_WORDS];
    for (block, words) in src.chunks_exact(32).zip(out.chunks_exact_mut(16)) {
        let bytes: Vec<u8> = block.iter().flat_map(|w| w.to_le_bytes()).collect();
        let digest = Sha512::digest(&bytes);
        for (w, c) in words.iter_mut().zip(digest.chunks_exact(4)) {
            *w = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        }
    }
    out
}

/// One round's wall (tile ids by position, 0-135) and dice (0-5 each), and where each tile the
/// round hands out comes from. Tiles are dealt from position 135 down:
///
/// - the deal, positions 135 to 84: four tiles to each seat in turn from the dealer, three times
///   (the dealer 135-132, the next seat 131-128, ...), then one each (the dealer 87, ..., 84);
/// - the draws, positions 83 down, one after another whoever draws;
/// - the dead wall, positions 0-13: the dead-wall (rinshan) draws from positions 1, 0, 3, 2 in
///   turn, the dora indicators at 5 (the first), then 7, 9, 11, 13 for each kan, each ura
///   indicator just below its dora indicator (4, 6, 8, 10, 12). A dead-wall draw takes the last
///   tile of the live wall into the dead wall, so the live wall ends at position 14 plus the
///   dead-wall draws made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Wall {
    pub(crate) tiles: [u8; TILES],
    pub(crate) dice: [u8; 2],
}

impl Wall {
    fn from_rnd(rnd: &[u32; RND_WORDS]) -> Wall {
        let mut tiles: [u8; TILES] = std::array::from_fn(|i| i as u8);
        for (i, r) in rnd.iter().take(TILES - 1).enumerate() {
            tiles.swap(i, i + (*r as usize) % (TILES - i));
        }
        Wall { tiles, dice: [(rnd[135] % 6) as u8, (rnd[136] % 6) as u8] }
    }

    /// The position of tile `i` (0-12, in the order dealt) of the deal of the seat `k` seats after
    /// the dealer (0-3).
    pub(crate) fn deal_position(k: usize, i: usize) -> usize {
        if i < 12 {
            TILES - 1 - (16 * (i / 4) + 4 * k + i % 4)
        } else {
            TILES - 1 - 48 - k
        }
    }

    /// The position of the round's `n`th draw from the live wall (0-based), when the live wall
    /// still has it after `dead_draws` dead-wall draws.
    pub(crate) fn draw_position(n: usize, dead_draws: usize) -> Option<usize> {
        83usize.checked_sub(n).filter(|p| *p >= 14 + dead_draws)
    }

    /// The position of the `k`th dead-wall draw (0-3).
    pub(crate) fn dead_draw_position(k: usize) -> Option<usize> {
        [1, 0, 3, 2].get(k).copied()
    }

    /// The position of the `k`th dora indicator (0 the first, 1-4 one per kan).
    pub(crate) fn dora_position(k: usize) -> Option<usize> {
        (k < 5).then_some(5 + 2 * k)
    }

    /// The position of the `k`th ura indicator (under the `k`th dora indicator).
    pub(crate) fn ura_position(k: usize) -> Option<usize> {
        (k < 5).then_some(4 + 2 * k)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Tenhou's validation data for the seed of game 2016022509gm-0009-0000-b327da61, published
    /// with the algorithm (blog.tenhou.net/article/174202532.html, archived at
    /// web.archive.org/web/20211026055010/http://blog.tenhou.net/article/174202532.html; also
    /// transcribed in the tests of the tenhou-shuffle crate, github.com/summivox/riichi-rs,
    /// tenhou-shuffle/test_data): the seed, and what its first round must give.
    pub(crate) const VALIDATION_SEED: &str = concat!(
        "mt19937ar-sha512-n288-base64,",
        "lFMmGcbVp9UtkFOWd6eDLxicuIFw2eWpoxq/3uzaRv3MHQboS6pJPx3LCxBR2Yionfv217Oe2vvC2LCVNnl+8YxCjunLHFb2unMaNzBvHWQzMz+6",
        "f3Che7EkazzaI9InRy05MXkqHOLCtVxsjBdIP13evJep6NnEtA79M+qaEHKUOKo+qhJOwBBsHsLVh1X1Qj93Sm6nNcB6Xy3fCTPp4rZLzRQsnia9",
        "d6vE0RSM+Mu2Akg5w/QWDbXxFpsVFlElfLJL+OH0vcjICATfV3RVEgKR10037B1I2zDRF3r9AhXnz+2FIdu9qWjI/YNza3Q/6X429oNBXKLSvZb8",
        "ePGJAyXabp2IbrQPX2acLhW5FqdLZAWt504fBO6tb7w41iuDh1NoZUodzgw5hhpAZ2UjznTIBiHSfL1T8L2Ho5tHN4SoZJ62xdfzLPU6Rts9pkIg",
        "WOgTfN35FhJ+6e7QYhl2x6OXnYDkbcZQFVKWfm9G6gA/gC4DjPAfBdofnJp4M+vi3YctG5ldV88A89CFRhOPP96w6m2mwUjgUmdNnWUyM7LQnYWO",
        "BBdZkTUo4eWaNC1R2zVxDSG4TCROlc/CaoHJBxcSWg+8IQb2u/Gaaj8y+9k0G4k5TEeaY3+0r0h9kY6T0p/rEk8v95aElJJU79n3wH24q3jD8oCu",
        "TNlC50sAqrnw+/GP5XfmqkVv5O/YYReSay5kg83j8tN+H+YDyuX3q+tsIRvXX5KGOTgjobknkdJcpumbHXJFle9KEQKi93f6SZjCjJvvaz/FJ4qy",
        "AeUmzKDhiM3V2zBX8GWP0Kfm9Ovs8TfCSyt6CH3PLFpnV94WDJ/Hd1MPQ3ASWUs78V3yi8XEvMc8g5l9U1MYIqVIbvU7JNY9PAB04xTbm6Orb+7s",
        "FiFLzZ4P/Xy4bdyGNmN4LbduYOjsIn4Sjetf/wxqK4tFnaw9aYlo3r6ksvZzFQl6WI1xqZlB10G9rD297A5vn5mc2mqpDnEGnOExMx8HA7MQqfPM",
        "5AYDQmOKy9VYkiiLqHk2nj4lqVeo5vvkvM1hBy+rqcabdF6XNYA2W5v0Mu3OaQuPjN75A7vjGd2t9J5t2erSmHT1WI0RCrUiensUha5obn+sZSiA",
        "8FFtSiUAtpGC7+jYRKP7EHhDwPvpUvjoQIg/vgFb5FvT4AzGcr4kxhKlaS2eofgC7Q7u/A329Kxpf54Pi7wVNvHtDkmQBFSLcMN50asBtFlg7CO+",
        "N1/nmClmfGSmBkI/SsX8WKbr0vKaFSnKmt8a19hOimJ0/G0Lj+yizqWPQ4fuoRzEwv41utfrySrzR3iLJrhk29dzUgSFaGScylepk/+RX3nge2Ty",
        "qHNqOAUol4/bH4KDyDGP4QxrBYXE1qSPG+/6QECYmZh/c3I7qBSLnJ+XWqUzH0wih7bkjJWYv1gNPp6gDOFDWXimDtcnU5A2sF3vW2ui6scAnRV4",
        "7DgzWk4d94uFTzXNNTDbGX1k1ZPnOlWwVLP0ojeFCrirccHui7MRov+JTd8j8iAXRykCFcD79+mB7zs/1E69rCxbuu4msBjdBFUs+ACN3D4d14EU",
        "gDNDw8lrX23g9orTMtey8/s6XmumvRRUT86wc/E3piUHyUgnELNM1UaXVL/I+zkqISjuSdLqrb+CVZ10s0ttwbEtt1CMEVN9bVLUGZzTAgwEsuYc",
        "hVrdgjJY4puNJc2DNwiPFc63ek9ZsXLmF1ljVXJPXpNJhX8B0HUCNVvkzeqR5uNcUDdzYJPlZIcmNO8NW9InK0b3z3y0rfTK8jnqDDYmeLFtVonj",
        "P5rPgK3g4LvWuTmjisQIceuPjdVSZChx7lfaCopzM83rV3dPOuQOGOvVwLqzvYY5Hj4GUZ7tXtDzKRaHSkniheRU0LOmQ3Na3rUAfRzr4QFC36++",
        "FPtHoUKx4ozQB9LWjirQejsjp/Of6FZ+VWionwpT1aP87ks+Sgg0Ubpe8dccJIVLfsbcAB2i0FDWuslcFy2T7NY6+YJdj8Dcp62ZNRBxl5AANWD5",
        "1wfmkcxWU+JPoC2zOVetAOEQiA4ntfkF3Xui5a9T/ovuhTzBbI2XN3P2iZStarYMWqj0QyT5tdNdj1UfCI8NN6iIFvUBzsSwX1lhDiC+FSh6c+xD",
        "Or8tnVh6PfENwIHhfqC2cCTCLujeYno6xQvWlogN68DtqQhwdiBMe6BHX76o4RYADbiszd3h2+XRpqlc3j7OI5DDUL/GEEq13Q97Eub6VETe5LY4",
        "YIF+Y9z4B8rKMEOn15pehYymdovidT7xiZd88VFonXNJmWh9KI4+z5MxEwhT/dsCty+mxpBmOUpCPPMkLuRyd4VjH+eGnUc3BDo4og0D+vEsKbOq",
        "AT1da/dgE0XrxTsiliqNyw/6DHUB5jnKYrlcUNJb0QCpBag8b2m2/yH7dFbiK1utbnI6AoELbEDhPhfUr6cjgM07ju6xarzEMse0zN3c0w58l063",
        "I2Rf2lefFW7cU0Jc5Rh10+QKQpmiMYySYybGlt9eMMEdNrU+AhTRacGozxFRi+ij9zRoZ+X+4NIARqQJfdhV+w2365XS9bzG92weHlIJgpS0Mq+/",
        "KjLpWKh6HTeXmdGCq07/ZBx/zw9lkmQXnw3ydcpyplk8GblKn1H4jdkSIz5E3RSWzb+8C7BVcpaBcHfDejvbGU5zxT8Vq50oS1c7V9tDzhAoyYZP",
        "ahgO0MSB1zMyBKfDcfHIPdoSMv+a4QL1mpSWa6NuwumWSIghOKam2bFNedHqlbrBglpfabTKSnYIibBrZCNhDtm/vG0DUtjEXx4ixM1NaYuMU7qi",
        "CmTkU3pK3BYqNXTlhK8kwZD72UkR4lzB9th5eqDsW2blED8evnujJtlTptYvoHqcNFHjnNvtuaNUWqcBXKFIl+I+PSuDaIO/paWJO0kf5VbVFpZd",
        "gvnimHZbY8uJ7s4w9W8XoegGqrVIlAT/PjE/2HdPfy75QatjPr8g0Q88wa5BpkWJeOv42NuEWKaVCK55S/kyVUkxcgNop6jWecsjjdmLoGqcaCiA",
        "18aKr6MYCtFCxMqW780AKFSUCXKI5obp1DoSsRn24Gd5ww5S74vT99VcBECDMYlvisIKe07dApsRPOhR7Z4Kt6lSelmjI6vLG0Dri1HjkiAFy8TT",
        "6Uoi+JqOBS6tv40dvPknRWyU7MmZugaZ0davAjEbvvlOiKVjkYyh7q+uh4eZ/qN2kAs/n6RyJaL4v+mx1jlQ1HvOOc+meQoXpedLt0aGMt1QU7Jh",
        "4EV68Xz6JLge+h+867RmmvkyWc8qU8GiSwbUXqIBPcKZVZgfP6nPtI7AXq1syVdQkEy2Rus1Csuf0uts",
    );

    /// The first round's wall of [`VALIDATION_SEED`] (Tenhou's validation data), position 0 first.
    pub(crate) const VALIDATION_WALL: [u8; TILES] = [
        22, 91, 36, 115, 56, 19, 60, 16, 124, 35, 59, 43, 107, 9, 5, 11, 57, 73, 18, 41, 42, 20, 25, 30, 103, 100, 126,
        130, 77, 109, 17, 15, 67, 46, 72, 65, 131, 118, 102, 61, 113, 123, 89, 122, 92, 3, 129, 81, 97, 28, 24, 76, 37,
        69, 31, 26, 66, 78, 51, 54, 112, 64, 94, 38, 88, 128, 13, 133, 87, 21, 27, 114, 105, 50, 10, 29, 1, 4, 48, 70,
        32, 14, 86, 33, 23, 84, 93, 12, 117, 47, 75, 96, 44, 111, 95, 62, 74, 39, 116, 63, 53, 6, 2, 58, 79, 71, 108,
        68, 121, 8, 49, 55, 34, 135, 82, 125, 90, 98, 83, 45, 132, 106, 0, 101, 134, 40, 7, 85, 110, 99, 52, 80, 120,
        104, 119, 127,
    ];

    /// The seed of Tenhou game 2015060814gm-0029-0000-f1ac5f4d, a real game (its mjlog is among the
    /// test resources of github.com/terralian/fastmaj, src/test/resources/tenhou): in its fourth
    /// round, East 4 (`<INIT seed="3,0,0,1,1,49" oya="3">`), three closed kans (seats 1, 2, 1) drew
    /// 17, 123 and 130 from the dead wall and turned 31, 8 and 68 as kan dora indicators, and the
    /// winner's ura indicators were 65, 5, 16 and 75.
    const KANS_SEED: &str = concat!(
        "mt19937ar-sha512-n288-base64,",
        "Di4yjg7kZNO5mczo+MgaddpyXJ2pa0CNU78skOAs29UfpgcHO7ytCCJAoxvfFQJJv3Rp1EcugoX35Nkgp7PusxzHCMOb7Fo5ZRWeUBnQyeT7CKFW",
        "GncCYcLG0TLpQsljKjnkgtONZpz6+ZRRN224aSr0V7UKIef6dOir7q5t7WeR5PY+mmpY/f5AUQuWEJVeVLIE5fSweh6CplJe3fC0zTUIbOX7ntrI",
        "nSJaBht470pROB9gzScSi37oCQ2kpVcfrSnvi9MfGXa4Jx87tQFpy1orJZpEZKMjIOxX3GMD0tFIfwFVi0lLZMWYhPuETV8tIWUoCjFDT/jNZV8w",
        "eYU6o1z3uwH0eN6e7GAn9XviCHRCkA7XA6zmT8KdeYG6FXy22ye3bYVdNA8dkvVzyb0VaU2mdJSF3kbkgoYZM5I+hyog6Rh1JWaw+4jUC9ewcdvZ",
        "MMbmoTiK5gu4ufwQqn1Yf4rTSMZbEk7aN113evEhRN4tezYE2nLajXVwK2t8UXcga1SoajIFSsPaQMzk2GYpdJP540jM16tI3iNwDr8bv0a0183G",
        "fnq6e8J8viItyfpfGrr3hujX+6LzspXGzHP4+mVKKLJ5HZci/mJgoC+95JFHBi87/40LIMtIYCj3TWnmP0JUMJ9FuCjC5GqaMsHssWnpC1RCh6cy",
        "xjVqr2vPT33at8Ivd5/ClWzXxwnT8u8ViVcnAYg9OhjBI6BmUeysFDCzEgd1NBpkThFNEPYaWLcrKHIvvwgipJdGxEFLTy4hwOT6aM+tVmi2YmYu",
        "uiI3TtzcjQwUOnbyKOQ9zx7vxJ2A1xS7EoOwgell2WeYqPnDPcysmXUwGuS4jSavzmRaBPnAOqx4Uydb6dPHoFUEXecSFD6c2kgyeTKTalJzc8pN",
        "cRPtkZ/CFH5MwCk4jf7qTJmnHiKFY0HoOEadKhVc8/JqDef3dbI7ZlQHG62iGO5eNitNdmYwK420vXwIOYPz41VCG+1KmRN9uaEK8j681devO2SJ",
        "BWjoLq4KyKGsSmCeprQlvm9gfDV0aUCbjZ3DAXKkHzqAh9y4zkIWy7JbybRivsXuPZkT9K6wqX8Bs5mGbbAchMQYzd+ZaDdZECMyS56K4uuyDKjr",
        "BtwAArI2n0OXGbxBlvx/adDirTzrPYSxq3aZe+uuRBXBQ4c4tNW7aID56q7D/D66EjR8I0UCaW6MmH4YtZC/3EgJLt6GXqqh1Bk9XT2BSuzyX5UG",
        "AIRTLF/gnN45V0MTnqyBYsNq22k2t8/4BvU7BZuKwpRzjHp0/XIZh2yAOcJBvlMBTVRJhtgtw9tg1XjKwNXT0EmZDMy3QOWKVCsKqR5VEmz1vQUK",
        "+7/XLwmFjX4qslJl28yb8+vr9ZMHac6Kfs+hmU9IxzrieyHdrKVVBiW6tLiv99bom0AHU9WNZ5RfLFmfm7DTL680x3Xunf3kex8c6iqtu4504dOP",
        "aqx2nqSS8ewesFoeKul/W+/WzrOxpJDpmHm6ujVRV39WqPryFHj15CLvht1ZB3KBTZ4dY0JNQaq1SfVLITCsDOrFm1rhqBBf16qyhv2ZR7CG/5ws",
        "yVycNboWotQVqVbN2tn03vD0f24GZIQaFWEpCTPiWX8n1AfvylvJARRu4YFha80wYMDNyFxH0CwVNqH8THfTJXZMsA3Llw8O2xsx7CxBrdPpvY4f",
        "iKEMupFY4OJ3K2qfhsAuv2s0g7iirmiShHXtY2fidjYlof6k7uuLnkM+QDWahuNC0fpHUynR/1dHf2lRAvEfVGhvK/woQo9btKjyaH2tWUxxBHj6",
        "gYHDfx09//g+eqP1jeyNXrmDye0TPjo8oNpL7B7xgbbIsIO0/Z05RfChvZRQMeLr/JOs6l6SePUtbcNIG/RGHJRdUqWAHiMUwmsXZHkgddE0qL2Y",
        "oQnUn15lQgycwsg4rIE7Dqv4NopPgY3O8pHdvKMwUP1wBETMgQON+5ALYMKXGLJi05lWBR1+VWSZMnDLnguU+cCycFBbA/m3xoztX8wHb8bT0rGo",
        "IA2ryb9TmeYee8Y0bl4SzGbkqF/XQiGCm8UU/CI5dYZYFIEbMq5d39yuhhDNMNixc6cweuJhKeIBejG8izlcdo+NA7jniTyA1Bo8q+ba+uq5+SLn",
        "NrqZt2+5n/dq/6hUBis3+NHPyDmsZk0P1tTA7ZExe5l0fdmRCG3mk1/UnBcOpndamXeOd8wYQkVnwulxiNTbyrVPPLhDr+J3ID5ZTOemlIKanaaa",
        "vfdOx9Ajy1exWi17a0JsK95Rqv0pg92+QNiniUEzuGQ77bLnLdsEdQ478Q3NR/WWs9DBThcmdf9X/xGRIBGLNlYhzxWggUsIUA+euf9FWZ8Y18BB",
        "To6UHTv9DIVfKSmQ/+C38JmMXrGUW8bE1uz/0w4Y2osvjigaoSlMLzrcAdZ3KaZoAVIObDLyWn9wDCbzLOiOWq/4MdeiG3TJ1BykSAHo8IAVwOra",
        "fS/1xzzEJV2PT3pgosWS5zO60okpxVQgw4BW03Zh0mn2ggNXYzm43uMNtc0iAWWecUJc6EiRm9AKelesgtBGsDDd/pSfm5/tprLnDcyIQANwh7Ul",
        "7LAaCkxZZJF8ci7Rw+pt/qqWfZvsG9WOtcy5MgLo6ZsCvYD1Wvk5v3RLuXGpdeI/mB7Ek24oKTL8GicfigCOZDOi0CbsvQ6kTQ1kfJjOn1913IbP",
        "WWpr57gtpwlnLSTzApC6wTBUVhD9AZ2TNtAEoGXxz0WEKrQGZ/5v0qqC4vvxmDuuR8CEcHyKtvkcGHzxcvrFXapFwqbCk2dbfIlSjUb3SPvu3LAc",
        "9mdp9CTKnrTb3q/6uVxUIBkGtSKIUAmPfVDv8KqTxFrCg8d2sIetBA0R/cin0sPx+NSuMmseDE9TN3BKzwYDCdjXbSGVw6GTLi9aGY99Syrc3Hrt",
        "xgz6koFNWgzFrMY9w2INJz3Edk0B521Osbxdue6KiFs5ed78i8zu0Yu3lbYR3TmHlUxkLSV8le7zJjGl5aMbabYJ66pVnnj8tFw7HQrWSoRMF5a6",
        "lLrPgfIZ6vGPVg5mi1yprUZx/tUB0E7x7KdzKMDvtaxNSL127vXfv0wdJEWFv8W1JI8JrAaTu3ssYkuRBlB48DovXCfGOevcrl4gNfkSyYUVbKDv",
        "WtzX5Uh2oz8dEJ2PfPoVD4b8xRvDYlPHgMFHIPAr0mZKfLF3gV/nH/0aH7rn8lmevSRn3mQEPYs9fhK5ogfiAGxrFN5PFfCSFVHOXYMJruR8aXNT",
        "E7IQ6mOQzlsKNP0MZTtttyNiywY3EMWagFTvjLkdLLEuVZiPlt5L83BbG3le4OwppOFrUBPJbBkZJhFE",
    );

    #[test]
    fn a_real_games_dead_wall_is_where_the_wall_says() {
        let mut s = Shuffle::from_seed(KANS_SEED).unwrap().unwrap();
        let w = (0..4).map(|_| s.next_wall()).last().unwrap();
        let at = |p: Option<usize>| w.tiles[p.unwrap()];
        assert_eq!(w.dice, [1, 1]);
        assert_eq!(at(Wall::dora_position(0)), 49);
        assert_eq!((0..3).map(|k| at(Wall::dead_draw_position(k))).collect::<Vec<_>>(), [17, 123, 130]);
        assert_eq!((1..4).map(|k| at(Wall::dora_position(k))).collect::<Vec<_>>(), [31, 8, 68]);
        assert_eq!((0..4).map(|k| at(Wall::ura_position(k))).collect::<Vec<_>>(), [65, 5, 16, 75]);
        // The dealer (seat 3) was dealt 115, 73, 54, 81 first (hai3="115,73,54,81,...").
        assert_eq!((0..4).map(|i| w.tiles[Wall::deal_position(0, i)]).collect::<Vec<_>>(), [115, 73, 54, 81]);
    }

    fn validation() -> Shuffle {
        Shuffle::from_seed(VALIDATION_SEED).unwrap().unwrap()
    }

    #[test]
    fn the_validation_seed_gives_tenhous_published_intermediate_values() {
        let mut s = validation();
        let src = s.src();
        // src[0..4] and src[287], as published.
        assert_eq!(src[..4], [0xB96FC1AE, 0x2C3F7889, 0x496EDE46, 0xC11E458F]);
        assert_eq!(src[287], 0x183A729A);
        let r = rnd(&src);
        assert_eq!(r[..4], [0x85B04666, 0xE7C12A95, 0x5C37A95A, 0x4C0C2589]);
        assert_eq!(r[143], 0x9A6F1083);
        assert_eq!(Wall::from_rnd(&r).tiles, VALIDATION_WALL);
    }

    #[test]
    fn the_validation_seed_deals_the_first_hand_of_its_game() {
        let w = validation().next_wall();
        assert_eq!(w.tiles, VALIDATION_WALL);
        // The game's <INIT seed="0,0,0,5,1,19" oya="0" hai0="127,119,104,120,...">: dice 5 and 1,
        // dora indicator 19, and the dealer's deal, in the order dealt.
        assert_eq!(w.dice, [5, 1]);
        assert_eq!(w.tiles[Wall::dora_position(0).unwrap()], 19);
        let deal: Vec<u8> = (0..13).map(|i| w.tiles[Wall::deal_position(0, i)]).collect();
        assert_eq!(deal, [127, 119, 104, 120, 45, 83, 98, 90, 58, 2, 6, 53, 12]);
        let west: Vec<u8> = (0..13).map(|i| w.tiles[Wall::deal_position(2, i)]).collect();
        assert_eq!(west, [85, 7, 40, 134, 55, 49, 8, 121, 62, 95, 111, 44, 84]);
        // Its first draws: <T33/>, <U86/>, <V14/>.
        let draws: Vec<u8> = (0..3).map(|n| w.tiles[Wall::draw_position(n, 0).unwrap()]).collect();
        assert_eq!(draws, [33, 86, 14]);
    }

    #[test]
    fn rounds_follow_one_another_on_the_games_generator() {
        let mut s = validation();
        let first = s.next_wall();
        let second = s.next_wall();
        assert_ne!(first, second);
        let mut sorted = second.tiles;
        sorted.sort_unstable();
        assert_eq!(sorted, std::array::from_fn(|i| i as u8), "a wall holds each tile once");
    }

    /// How many times each position is handed out in a round with `kans` dead-wall draws and as
    /// many draws as the live wall then holds.
    fn handed_out(kans: usize) -> [u8; TILES] {
        let mut seen = [0u8; TILES];
        for k in 0..4 {
            for i in 0..13 {
                seen[Wall::deal_position(k, i)] += 1;
            }
        }
        let mut n = 0;
        while let Some(at) = Wall::draw_position(n, kans) {
            seen[at] += 1;
            n += 1;
        }
        assert_eq!(n, 70 - kans, "each dead-wall draw takes the last live tile into the dead wall");
        for k in 0..kans {
            seen[Wall::dead_draw_position(k).unwrap()] += 1;
        }
        for k in 0..5 {
            seen[Wall::dora_position(k).unwrap()] += 1;
            seen[Wall::ura_position(k).unwrap()] += 1;
        }
        seen
    }

    #[test]
    fn the_wall_positions_hand_out_each_tile_at_most_once() {
        // No kan: the four dead-wall draws' tiles (positions 0-3) stay in the wall.
        let none = handed_out(0);
        assert_eq!(none[..4], [0; 4]);
        assert!(none[4..].iter().all(|&n| n == 1), "{none:?}");
        // Four kans: the live wall's last four tiles (positions 14-17) went to the dead wall.
        let four = handed_out(4);
        assert_eq!(four[14..18], [0; 4]);
        assert!(four[..14].iter().chain(&four[18..]).all(|&n| n == 1), "{four:?}");
        assert_eq!(Wall::dead_draw_position(4), None);
        assert_eq!(Wall::dora_position(5), None);
        assert_eq!(Wall::ura_position(5), None);
        assert_eq!((Wall::deal_position(0, 0), Wall::deal_position(3, 12)), (135, 84));
    }

    #[test]
    fn a_seed_of_another_algorithm_is_not_read_and_a_damaged_one_is_refused() {
        assert!(Shuffle::from_seed("").unwrap().is_none());
        assert!(Shuffle::from_seed("x").unwrap().is_none());
        assert!(Shuffle::from_seed("mt19937ar-sha512-n288,1234").unwrap().is_none());
        assert!(matches!(Shuffle::from_seed("mt19937ar-sha512-n288-base64,!!!!"), Err(SeedError::Base64(_))));
        assert_eq!(Shuffle::from_seed("mt19937ar-sha512-n288-base64,AAAA").err(), Some(SeedError::Length(3)));
        // A line break inside the attribute (a pretty-printer's) is not part of the seed.
        let (head, tail) = VALIDATION_SEED.split_at(100);
        let wrapped = format!("{head}\n    {tail}");
        assert_eq!(Shuffle::from_seed(&wrapped).unwrap().unwrap().next_wall().tiles, VALIDATION_WALL);
    }
}
