//! What mjai writers name differently: the reasons of a `ryukyoku` and the original mjai's
//! romanised yaku names (docs/import.md, "Writers and their dialects", cites each writer's source).

/// Tenhou's name of the draw an mjai `ryukyoku` `reason` names, or why it is refused.
///
/// Paifu's export, Mortal's converters: `kyushukyuhai` ... `fanpai`; the original mjai (Ruby,
/// lib/mjai/tenhou_archive.rb) and mjx's translator: `sufonrenta`, `suchareach`, `sukaikan`;
/// RiichiEnv (riichienv-core/src/state/mod.rs): `kyushu_kyuhai`, `sufuurenta`, `suukansansen`,
/// `suucha_riichi`, `exhaustive_draw`; akochan (share/make_move.cpp): `fanpai`.
pub(super) fn draw_name(reason: &str) -> Result<&'static str, String> {
    Ok(match reason {
        "kyushukyuhai" | "kyuushukyuuhai" | "kyushu_kyuhai" | "kyushu" | "yao9" | "九種九牌" => "九種九牌",
        "sanchaho" | "sanchahou" | "sanchahoo" | "ron3" | "三家和了" => "三家和了",
        "suufonrenda" | "sufonrenda" | "sufonrenta" | "sufuurenta" | "kaze4" | "四風連打" => "四風連打",
        "suuchariichi" | "suucha_riichi" | "suchareach" | "reach4" | "四家立直" => "四家立直",
        "suukaikan" | "sukaikan" | "suukansansen" | "kan4" | "四槓散了" => "四槓散了",
        "nagashimangan" | "nagashi_mangan" | "nm" | "流し満貫" => "流し満貫",
        "fanpai" | "exhaustive_draw" | "exhaustive" | "ryukyoku" | "流局" => "流局",
        "error" => return Err(stopped("mjai.app's `error`")),
        r if r.starts_with("Error:") => return Err(stopped(&format!("RiichiEnv's {r:?}"))),
        r => {
            return Err(format!(
                "ryukyoku reason {r:?} is no draw of the rules: an exhaustive draw (fanpai, exhaustive_draw), \
                 kyushukyuhai, suufonrenda, suuchariichi, suukaikan, sanchaho or nagashimangan"
            ))
        }
    })
}

fn stopped(what: &str) -> String {
    format!(
        "ryukyoku reason {what}: the hand was stopped by the host for a bot's error, which no rule of the game \
         provides (a chombo penalty set by the host, not a draw): Paifu does not import it"
    )
}

/// What a yaku of the original mjai's names is in Paifu's names (its han as given), or, for
/// `sangenpai`, the dragon pungs it counts (read from the winner's tiles).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum RubyYaku {
    Named(&'static str),
    Dragons,
}

/// The original mjai's yaku names (lib/mjai/hora.rb `add_yaku`, lib/mjai/tenhou_archive.rb
/// `YAKU_ID_TO_NAME`; mjx's translator writes the same), as Paifu names them.
pub(super) fn ruby_yaku(name: &str) -> Option<RubyYaku> {
    use RubyYaku::Named;
    Some(match name {
        "menzenchin_tsumoho" => Named("menzen_tsumo"),
        "reach" => Named("riichi"),
        "ippatsu" => Named("ippatsu"),
        "chankan" => Named("chankan"),
        "rinshankaiho" => Named("rinshan"),
        "haiteiraoyue" => Named("haitei"),
        "hoteiraoyui" => Named("houtei"),
        "pinfu" => Named("pinfu"),
        "tanyaochu" => Named("tanyao"),
        "ipeko" => Named("iipeikou"),
        "jikaze" => Named("seat_wind"),
        "bakaze" => Named("round_wind"),
        "sangenpai" => RubyYaku::Dragons,
        "double_reach" => Named("double_riichi"),
        "chitoitsu" => Named("chiitoitsu"),
        "honchantaiyao" => Named("chanta"),
        "ikkitsukan" => Named("ittsu"),
        "sanshokudojun" => Named("sanshoku"),
        "sanshokudoko" => Named("sanshoku_doukou"),
        "sankantsu" => Named("sankantsu"),
        "toitoiho" => Named("toitoi"),
        "sananko" => Named("sanankou"),
        "shosangen" => Named("shousangen"),
        "honroto" => Named("honroutou"),
        "ryanpeko" => Named("ryanpeikou"),
        "junchantaiyao" => Named("junchan"),
        "honiso" => Named("honitsu"),
        "chiniso" => Named("chinitsu"),
        "renho" => Named("renhou"),
        "tenho" => Named("tenhou"),
        "chiho" => Named("chiihou"),
        "daisangen" => Named("daisangen"),
        "suanko" => Named("suuankou"),
        "tsuiso" => Named("tsuuiisou"),
        "ryuiso" => Named("ryuuiisou"),
        "chinroto" => Named("chinroutou"),
        "churenpoton" => Named("chuuren"),
        "kokushimuso" => Named("kokushi"),
        "daisushi" => Named("daisuushii"),
        "shosushi" => Named("shousuushii"),
        "sukantsu" => Named("suukantsu"),
        "dora" => Named("dora"),
        "uradora" => Named("ura_dora"),
        "akadora" => Named("aka_dora"),
        _ => return None,
    })
}

/// The original mjai counts a yakuman as 100 han (lib/mjai/hora.rb `YAKUMAN_FAN`); Paifu, as
/// Tenhou, as 13.
pub(super) fn yakuman_han(han: u32) -> u32 {
    if han >= 100 && han % 100 == 0 {
        han / 100 * 13
    } else {
        han
    }
}

/// akochan writes a win's fu as counted, before it is rounded up to the ten (share/calc_yaku.cpp
/// sums 20, the melds, the wait and the win; ai_src/agari.cpp `fu_to_fuidx` rounds when it
/// scores): 38 fu is the 40 fu of the rules. Seven pairs' 25 stays.
pub(super) fn rounded_fu(fu: u32) -> u32 {
    if fu == 25 {
        fu
    } else {
        fu.div_ceil(10) * 10
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ruby_yaku_name_is_a_yaku_paifu_knows() {
        let names = [
            "menzenchin_tsumoho",
            "reach",
            "ippatsu",
            "chankan",
            "rinshankaiho",
            "haiteiraoyue",
            "hoteiraoyui",
            "pinfu",
            "tanyaochu",
            "ipeko",
            "jikaze",
            "bakaze",
            "double_reach",
            "chitoitsu",
            "honchantaiyao",
            "ikkitsukan",
            "sanshokudojun",
            "sanshokudoko",
            "sankantsu",
            "toitoiho",
            "sananko",
            "shosangen",
            "honroto",
            "ryanpeko",
            "junchantaiyao",
            "honiso",
            "chiniso",
            "renho",
            "tenho",
            "chiho",
            "daisangen",
            "suanko",
            "tsuiso",
            "ryuiso",
            "chinroto",
            "churenpoton",
            "kokushimuso",
            "daisushi",
            "shosushi",
            "sukantsu",
            "dora",
            "uradora",
            "akadora",
        ];
        for n in names {
            let Some(RubyYaku::Named(p)) = ruby_yaku(n) else { panic!("{n}") };
            assert_eq!(crate::import::yaku::paifu_name(p), Some(p), "{n} -> {p}");
        }
        assert_eq!(ruby_yaku("sangenpai"), Some(RubyYaku::Dragons));
        assert_eq!(ruby_yaku("teleport"), None);
        assert_eq!((yakuman_han(200), yakuman_han(7)), (26, 7));
        assert_eq!([rounded_fu(38), rounded_fu(40), rounded_fu(25), rounded_fu(22)], [40, 40, 25, 30]);
    }

    #[test]
    fn a_draw_is_named_or_refused() {
        assert_eq!(draw_name("kyushu_kyuhai"), Ok("九種九牌"));
        assert_eq!(draw_name("exhaustive_draw"), Ok("流局"));
        assert_eq!(draw_name("suchareach"), Ok("四家立直"));
        assert!(draw_name("error").unwrap_err().contains("no rule of the game"));
        assert!(draw_name("Error: Illegal Action by Player 2").unwrap_err().contains("RiichiEnv"));
        assert!(draw_name("tired").unwrap_err().contains("is no draw of the rules"));
    }
}
