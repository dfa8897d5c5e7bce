//! Scorer tests. Every expectation is computed by hand from the rules in docs/rules/riichi.md
//! (han and fu per the seed's tables, basic points = fu x 2^(han+2), payments rounded up to 100).

use super::super::score_line::score_line;
use super::*;
use serde_json::{json, Value};

fn run(input: Value) -> Value {
    let out = score_line(&input.to_string());
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("bad output {out}: {e}"))
}

fn yaku_of(v: &Value) -> Vec<String> {
    let mut names: Vec<String> = v["yaku"]
        .as_array()
        .unwrap_or(&Vec::new())
        .iter()
        .map(|y| format!("{}:{}", y["name"].as_str().unwrap_or("?"), y["han"]))
        .collect();
    names.sort();
    names
}

/// Checks han, fu, the exact yaku list and the total paid.
#[track_caller]
fn expect(input: Value, han: u64, fu: u64, yaku: &str, total: i64) {
    let v = run(input.clone());
    assert_eq!(v["ok"], true, "{input} -> {v}");
    let mut want: Vec<String> = yaku.split_whitespace().map(str::to_owned).collect();
    want.sort();
    assert_eq!(yaku_of(&v), want, "yaku of {input}: {v}");
    assert_eq!(v["han"], han, "han of {input}: {v}");
    assert_eq!(v["fu"], fu, "fu of {input}: {v}");
    assert_eq!(v["total"], total, "total of {input}: {v}");
}

#[track_caller]
fn expect_err(input: Value, code: &str) {
    let v = run(input.clone());
    assert_eq!(v["ok"], false, "{input} -> {v}");
    assert_eq!(v["error"], code, "{input} -> {v}");
}

#[test]
fn the_seeds_worked_example() {
    // The seed's example: chun and hatsu pons, a concealed East triplet, a 1-3 man run and a
    // haku tanki won on a discarded haku; East round, dealer (East), one honba, haku is dora
    // (indicator chun). The seed counts 40 fu (20 + 8 + 8 + 2 + 2) and 10 han: East twice,
    // hatsu, chun, two dora, shousangen, open honitsu; baiman x 1.5 + 300 = 24300.
    //
    // Read as a 2-3-4 man run, the hand is exactly the seed's count: 10 han 40 fu, 24300.
    let v = run(json!({
        "id": "seed", "hand": "234m11155z", "melds": ["pon:666z", "pon:777z"], "win": "5z",
        "seat_wind": "E", "round_wind": "E", "dora": ["7z"], "honba": 1
    }));
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["fu"], 40);
    assert_eq!(v["han"], 10);
    assert_eq!(v["limit"], "baiman");
    assert_eq!(v["payment"], json!({"ron": 24300}));
    assert_eq!(v["total"], 24300);
    assert_eq!(v["id"], "seed");
    assert_eq!(
        yaku_of(&v),
        ["dora:2", "honitsu:2", "round_wind:1", "seat_wind:1", "shousangen:2", "yakuhai_chun:1", "yakuhai_hatsu:1"]
    );
    // With the run 1-2-3 man as written, every set and the pair hold a terminal or an honour:
    // that is also chanta (1 han open) by the seed's own yaku list, which the example leaves out.
    // Paifu (like Tenhou) counts it: 11 han, sanbaiman, 36000 + 300. See docs/rules/riichi.md.
    let v = run(json!({
        "hand": "123m11155z", "melds": ["pon:666z", "pon:777z"], "win": "5z",
        "seat_wind": "E", "round_wind": "E", "dora": ["7z"], "honba": 1
    }));
    assert_eq!(v["fu"], 40, "{v}");
    assert_eq!(v["han"], 11, "{v}");
    assert!(yaku_of(&v).contains(&"chanta:1".to_owned()));
    assert_eq!(v["total"], 36300);
}

#[test]
fn one_han_yaku() {
    // Riichi, menzen tsumo, pinfu (tsumo: 20 fu), tanyao: 4 han 20 fu = 1280 basic,
    // non-dealer tsumo 1300/2600.
    expect(
        json!({"hand": "234m567p678s23455s", "win": "4s", "tsumo": true, "riichi": true}),
        4,
        20,
        "riichi:1 menzen_tsumo:1 pinfu:1 tanyao:1",
        5200,
    );
    // Pinfu ron is 30 fu; 2 han 30 fu = 480 basic -> 2000.
    expect(json!({"hand": "234m567p678s23455s", "win": "4s"}), 2, 30, "pinfu:1 tanyao:1", 2000);
    // Iipeikou: 3 han 30 fu ron = 960 basic -> 3900.
    expect(json!({"hand": "223344m456p678s55p", "win": "2m"}), 3, 30, "iipeikou:1 pinfu:1 tanyao:1", 3900);
    // Ippatsu, and double riichi instead of riichi.
    expect(
        json!({"hand": "234m567p678s23455s", "win": "4s", "riichi": true, "ippatsu": true}),
        4,
        30,
        "riichi:1 ippatsu:1 pinfu:1 tanyao:1",
        7700,
    );
    expect(
        json!({"hand": "234m567p678s23455s", "win": "4s", "double_riichi": true}),
        4,
        30,
        "double_riichi:2 pinfu:1 tanyao:1",
        7700,
    );
}

#[test]
fn yakuhai() {
    // Haku pon: 20 + 4 (open honour triplet) + 2 (tanki) = 26 -> 30 fu, 1 han = 1000.
    expect(json!({"hand": "123m456p789s99s", "melds": ["pon:555z"], "win": "9s"}), 1, 30, "yakuhai_haku:1", 1000);
    expect(json!({"hand": "123m456p789s99s", "melds": ["pon:666z"], "win": "9s"}), 1, 30, "yakuhai_hatsu:1", 1000);
    expect(json!({"hand": "123m456p789s99s", "melds": ["pon:777z"], "win": "9s"}), 1, 30, "yakuhai_chun:1", 1000);
    // South seat in the East round: South is the seat wind, East the round wind, West nothing.
    expect(json!({"hand": "123m456p789s99s", "melds": ["pon:222z"], "win": "9s"}), 1, 30, "seat_wind:1", 1000);
    expect(json!({"hand": "123m456p789s99s", "melds": ["pon:111z"], "win": "9s"}), 1, 30, "round_wind:1", 1000);
    expect_err(json!({"hand": "123m456p789s99s", "melds": ["pon:333z"], "win": "9s"}), "no_yaku");
    // Double East for the dealer: 2 han 30 fu dealer ron = 480 x 6 = 2880 -> 2900.
    expect(
        json!({"hand": "123m456p789s99s", "melds": ["pon:111z"], "win": "9s", "seat_wind": "E"}),
        2,
        30,
        "round_wind:1 seat_wind:1",
        2900,
    );
    // West round, West seat.
    expect(
        json!({"hand": "123m456p789s99s", "melds": ["pon:333z"], "win": "9s", "seat_wind": "W", "round_wind": "W"}),
        2,
        30,
        "round_wind:1 seat_wind:1",
        2000,
    );
}

#[test]
fn situational_yaku() {
    let open = |extra: Value| {
        let mut v = json!({"hand": "234m567p23455s", "melds": ["chi:678s"], "win": "4s"});
        if let (Value::Object(a), Value::Object(b)) = (&mut v, extra) {
            a.extend(b);
        }
        v
    };
    // Open tanyao + one situational yaku: 2 han; open pinfu shape: 20 fu (ron) -> 30.
    expect(open(json!({"houtei": true})), 2, 30, "houtei:1 tanyao:1", 2000);
    expect(open(json!({"chankan": true})), 2, 30, "chankan:1 tanyao:1", 2000);
    // Tsumo: 20 + 2 = 22 -> 30 fu; 2 han 30 fu tsumo = 480 basic: 500/1000.
    expect(open(json!({"haitei": true, "tsumo": true})), 2, 30, "haitei:1 tanyao:1", 2000);
    // Rinshan after an open kan: 20 + 8 (open kan of simples) + 2 (tsumo) = 30.
    expect(
        json!({"hand": "234m567p23455s", "melds": ["minkan:8888p"], "win": "4s", "tsumo": true, "rinshan": true}),
        2,
        30,
        "rinshan:1 tanyao:1",
        2000,
    );
}

#[test]
fn two_han_yaku() {
    // Sanshoku closed: 2 + pinfu 1 = 3 han 30 fu ron = 3900.
    expect(json!({"hand": "123m123p123s456s88p", "win": "6s"}), 3, 30, "pinfu:1 sanshoku:2", 3900);
    // Open sanshoku: 1 han, 20 fu -> 30 (naki pinfu): 1000.
    expect(json!({"hand": "123p123s456s88p", "melds": ["chi:123m"], "win": "6s"}), 1, 30, "sanshoku:1", 1000);
    // Ittsu closed: 2 + pinfu = 3 han 30 fu.
    expect(json!({"hand": "123456789m234p55s", "win": "9m"}), 3, 30, "ittsu:2 pinfu:1", 3900);
    // Chanta: penchan 3m, East pair in the East round (2 fu), concealed 999m (8):
    // 20 + 10 + 8 + 2 + 2 = 42 -> 50 fu; 2 han 50 fu = 800 basic -> 3200.
    expect(json!({"hand": "123m789p789s999m11z", "win": "3m"}), 2, 50, "chanta:2", 3200);
    // Toitoi with tanyao: 20 + 2 + 2 + 2 + 4 (concealed 777m) + 2 (tanki) = 32 -> 40; 3 han 40 fu = 5200.
    expect(
        json!({"hand": "777m88s", "melds": ["pon:222m", "pon:444p", "pon:666s"], "win": "8s"}),
        3,
        40,
        "toitoi:2 tanyao:1",
        5200,
    );
    // Sanankou: 20 + 10 + 8 + 4 + 4 + 2 (penchan) = 48 -> 50; 2 han 50 fu = 3200.
    expect(json!({"hand": "111m333p555s789s99p", "win": "7s"}), 2, 50, "sanankou:2", 3200);
    // Sanshoku doukou with tanyao: 20 + 2 + 4 + 4 + 2 = 32 -> 40; 3 han 40 fu = 5200.
    expect(
        json!({"hand": "222p222s456m88p", "melds": ["pon:222m"], "win": "8p"}),
        3,
        40,
        "sanshoku_doukou:2 tanyao:1",
        5200,
    );
    // Sankantsu: 20 + 3 x 8 + 2 (tanki) = 46 -> 50; 3 han 50 fu = 6400.
    expect(
        json!({"hand": "345m88s", "melds": ["minkan:2222m", "minkan:4444p", "minkan:6666s"], "win": "8s"}),
        3,
        50,
        "sankantsu:2 tanyao:1",
        6400,
    );
    // Shousangen with haku, hatsu, honitsu: 1 + 1 + 2 + 3 = 7 han: haneman 12000.
    let v = run(json!({"hand": "555z666z77z234567m", "win": "4m"}));
    assert_eq!(yaku_of(&v), ["honitsu:3", "shousangen:2", "yakuhai_haku:1", "yakuhai_hatsu:1"], "{v}");
    assert_eq!(v["limit"], "haneman");
    assert_eq!(v["total"], 12000);
    // Honroutou with toitoi, sanankou and East (round wind): 2 + 2 + 2 + 1 = 7 han, haneman.
    let v = run(json!({"hand": "999p999s111z55z", "melds": ["pon:111m"], "win": "5z"}));
    assert_eq!(yaku_of(&v), ["honroutou:2", "round_wind:1", "sanankou:2", "toitoi:2"], "{v}");
    assert_eq!(v["limit"], "haneman");
    assert_eq!(v["total"], 12000);
    // Chiitoitsu: 25 fu, 2 han = 400 basic -> 1600.
    expect(json!({"hand": "1122m3344p5566s77z", "win": "7z"}), 2, 25, "chiitoitsu:2", 1600);
}

#[test]
fn three_and_six_han_yaku() {
    // Open honitsu + open ittsu + East: 4 han, 20 + 8 + 2 = 30 fu: 7700.
    expect(
        json!({"hand": "456m789m111z99m", "melds": ["chi:123m"], "win": "9m"}),
        4,
        30,
        "honitsu:2 ittsu:1 round_wind:1",
        7700,
    );
    // Junchan: 20 + 10 + 8 + 2 = 40; 3 han 40 fu = 5200.
    expect(json!({"hand": "123m789p789s999m11s", "win": "3m"}), 3, 40, "junchan:3", 5200);
    // Ryanpeikou (3 han 40 fu, 5200) beats the chiitoitsu reading (2 han 25 fu).
    expect(json!({"hand": "112233m445566p77s", "win": "7s"}), 3, 40, "ryanpeikou:3", 5200);
    // Open chinitsu: 5 han, mangan.
    let v = run(json!({"hand": "123s345s22s777s", "melds": ["chi:789s"], "win": "2s"}));
    assert_eq!(yaku_of(&v), ["chinitsu:5"], "{v}");
    assert_eq!(v["total"], 8000);
    // Closed chinitsu with pinfu: 7 han, haneman.
    let v = run(json!({"hand": "123m345m567m789m55m", "win": "9m"}));
    assert!(yaku_of(&v).contains(&"chinitsu:6".to_owned()), "{v}");
    assert_eq!(v["limit"], "haneman");
}

#[test]
fn yakuman() {
    let y = |input: Value, names: &str, count: u64, total: i64| {
        let v = run(input.clone());
        assert_eq!(v["ok"], true, "{input}: {v}");
        let mut want: Vec<String> = names.split_whitespace().map(|n| format!("{n}:13")).collect();
        want.sort();
        assert_eq!(yaku_of(&v), want, "{input}: {v}");
        assert_eq!(v["yakuman"], count, "{input}: {v}");
        assert_eq!(v["limit"], "yakuman");
        assert_eq!(v["total"], total, "{input}: {v}");
    };
    y(json!({"hand": "555z666z777z123m99p", "win": "3m"}), "daisangen", 1, 32000);
    y(json!({"hand": "111m333p555s777s99p", "win": "9p", "tsumo": true}), "suuankou", 1, 32000);
    y(json!({"hand": "19m19p19s12345677z", "win": "7z"}), "kokushi", 1, 32000);
    // Tsuuiisou with suuankou (a tanki on the pair): two yakuman stack.
    y(json!({"hand": "111z222z333z555z66z", "win": "6z"}), "tsuuiisou suuankou", 2, 64000);
    y(json!({"hand": "22334466888s666z", "win": "8s"}), "ryuuiisou", 1, 32000);
    y(json!({"hand": "999m111p999p11s", "melds": ["pon:111m"], "win": "1s"}), "chinroutou", 1, 32000);
    y(json!({"hand": "222z333z44z123m", "melds": ["pon:111z"], "win": "3m"}), "shousuushii", 1, 32000);
    y(json!({"hand": "333z444z55m", "melds": ["pon:111z", "pon:222z"], "win": "5m"}), "daisuushii", 1, 32000);
    y(
        json!({"hand": "55p", "melds": ["minkan:1111m", "ankan:2222p", "minkan:3333s", "kakan:4444m"], "win": "5p"}),
        "suukantsu",
        1,
        32000,
    );
    y(json!({"hand": "11123455678999m", "win": "5m"}), "chuuren", 1, 32000);
    // Dealer: 48000; tenhou is a dealer tsumo.
    y(
        json!({"hand": "234m567p678s23455s", "win": "4s", "tsumo": true, "seat_wind": "E", "tenhou": true}),
        "tenhou",
        1,
        48000,
    );
    y(json!({"hand": "234m567p678s23455s", "win": "4s", "tsumo": true, "chiihou": true}), "chiihou", 1, 32000);
    // Suuankou on a shanpon ron is sanankou + toitoi: 20 + 10 + 8 + 4 + 4 + 2 = 48 -> 50 fu,
    // 4 han 50 fu = 3200 basic: mangan.
    let v = run(json!({"hand": "111m333p555s777s99p", "win": "7s"}));
    assert_eq!(yaku_of(&v), ["sanankou:2", "toitoi:2"], "{v}");
    assert_eq!(v["fu"], 50);
    assert_eq!(v["total"], 8000);
}

#[test]
fn double_yakuman_option() {
    let rules = json!({"double_yakuman": true});
    let v = run(json!({"hand": "333z444z55m", "melds": ["pon:111z", "pon:222z"], "win": "5m", "rules": rules}));
    assert_eq!(v["yakuman"], 2, "{v}");
    assert_eq!(v["total"], 64000);
    // Junsei chuuren (nine-sided wait) and kokushi's thirteen-sided wait.
    let v = run(json!({"hand": "11123455678999m", "win": "5m", "rules": rules}));
    assert_eq!(v["yakuman"], 2, "{v}");
    let v = run(json!({"hand": "11123455678999m", "win": "1m", "rules": rules}));
    assert_eq!(v["yakuman"], 1, "{v}");
    let v = run(json!({"hand": "19m19p19s12345677z", "win": "7z", "rules": rules}));
    assert_eq!(v["yakuman"], 2, "{v}");
    let v = run(json!({"hand": "19m19p19s12345677z", "win": "1m", "rules": rules}));
    assert_eq!(v["yakuman"], 1, "{v}");
}

#[test]
fn dora_kinds() {
    // Pinfu tanyao ron with dora 5p (indicator 4p), a red 5s, and ura only with riichi.
    expect(
        json!({"hand": "234m567p678s23450s", "win": "4s", "dora": ["4p"], "ura": ["1m"]}),
        4,
        30,
        "pinfu:1 tanyao:1 dora:1 aka_dora:1",
        7700,
    );
    // Riichi: the ura indicator 1m makes 2m dora: 6 han haneman.
    let v = run(json!({"hand": "234m567p678s23450s", "win": "4s", "dora": ["4p"], "ura": ["1m"], "riichi": true}));
    assert!(yaku_of(&v).contains(&"ura_dora:1".to_owned()), "{v}");
    assert_eq!(v["han"], 6);
    assert_eq!(v["total"], 12000);
    // Dora alone is not a yaku.
    expect_err(json!({"hand": "123m456p789s99s", "melds": ["pon:333z"], "win": "9s", "dora": ["8s"]}), "no_yaku");
    // An indicator counts each time it is shown; 9 indicates 1.
    let v = run(json!({"hand": "123m456p789s11s", "melds": ["pon:555z"], "win": "1s", "dora": ["9s", "9s"]}));
    assert!(yaku_of(&v).contains(&"dora:4".to_owned()), "{v}");
}

#[test]
fn fu_components() {
    // Each line isolates one component (totals are rounded up to 10).
    // Open kan of simples 8: 20 + 8 + 2 (tanki) = 30.  Of terminals 16: 20 + 16 + 2 = 38 -> 40.
    let fu = |input: Value| run(input)["fu"].as_u64().unwrap_or(0);
    assert_eq!(fu(json!({"hand": "234m567p234s88p", "melds": ["minkan:6666s"], "win": "8p"})), 30);
    assert_eq!(fu(json!({"hand": "123m567p234s99p", "melds": ["minkan:7777z"], "win": "9p"})), 40);
    // Closed kan of terminals 32 + menzen ron 10 + base 20 + tanki 2 = 64 -> 70 (with chun ankan as yaku).
    assert_eq!(fu(json!({"hand": "123m567p234s99p", "melds": ["ankan:7777z"], "win": "9p"})), 70);
    // Closed kan of simples 16: 20 + 10 + 16 + 2 + 8 (chun anko) = 56 -> 60.
    assert_eq!(fu(json!({"hand": "777z567p234s99p", "melds": ["ankan:4444m"], "win": "9p"})), 60);
    // Open triplet of simples 2 vs terminal 4: with haku pon (4) and tanki (2) 20+4+2+2 = 28 -> 30,
    // 20+4+2+4 = 30.  A concealed terminal triplet: 20+4+8+2 = 34 -> 40.
    assert_eq!(fu(json!({"hand": "567p234s99p", "melds": ["pon:555z", "pon:222m"], "win": "9p"})), 30);
    assert_eq!(fu(json!({"hand": "567p111s99p", "melds": ["pon:555z", "chi:234m"], "win": "9p"})), 40);
    // Value pair: 20 + 10 (menzen ron) + 2 (haku pair) = 32 -> 40, while a plain pair gives 30 (pinfu).
    assert_eq!(fu(json!({"hand": "234m567p678s234s55z", "win": "4s", "riichi": true})), 40);
    // Menzen ron 10: closed 20 + 10 + 2 (kanchan) = 32 -> 40 vs tsumo 20 + 2 + 2 = 24 -> 30.
    assert_eq!(fu(json!({"hand": "234m567p678s123s55p", "win": "2s", "riichi": true})), 40);
    assert_eq!(fu(json!({"hand": "234m567p678s123s55p", "win": "2s", "riichi": true, "tsumo": true})), 30);
    // Waits: kanchan/penchan/tanki 2 each (above); ryanmen and shanpon 0: closed ron pinfu 30.
    // Pinfu tsumo 20 fu; with tsumo_pinfu off the hand is menzen tsumo only: 20 + 2 = 22 -> 30.
    let v = run(json!({"hand": "234m567p678s23455s", "win": "4s", "tsumo": true, "rules": {"tsumo_pinfu": false}}));
    assert_eq!(yaku_of(&v), ["menzen_tsumo:1", "tanyao:1"], "{v}");
    assert_eq!(v["fu"], 30);
    // Open pinfu shape: 30 fu, or 20 with naki_pinfu_30 off (1 han 20 fu = 160 basic -> 700).
    let v =
        run(json!({"hand": "234m567p23455s", "melds": ["chi:678s"], "win": "4s", "rules": {"naki_pinfu_30": false}}));
    assert_eq!(v["fu"], 20, "{v}");
    assert_eq!(v["total"], 700);
}

#[test]
fn double_wind_pair_fu() {
    // Dealer in the East round, tsumo on a kanchan with an East pair and an open haku pon and
    // an open 2m pon: 20 + 2 (tsumo) + 4 (haku) + 2 (222m) + 2 (kanchan) + pair.
    // Pair 4 (renfuu): 34 -> 40; pair 2: 32 -> 40. Remove the 2m pon (use a chi): 32 -> 40 vs 30.
    let h = |on: bool| {
        run(json!({"hand": "11z345m567p", "melds": ["pon:555z", "chi:234s"], "win": "4m",
            "seat_wind": "E", "round_wind": "E", "tsumo": true, "rules": {"renfuu_4fu": on}}))
    };
    let on = h(true);
    let off = h(false);
    assert_eq!(on["fu"], 40, "{on}");
    assert_eq!(off["fu"], 30, "{off}");
}

#[test]
fn payments_and_limits() {
    // Non-dealer ron 1 han 30 fu: 240 x 4 = 960 -> 1000; dealer: 240 x 6 = 1440 -> 1500.
    let base = json!({"hand": "123m456p789s99s", "melds": ["pon:555z"], "win": "9s"});
    let mut dealer = base.clone();
    dealer["seat_wind"] = json!("E");
    assert_eq!(run(base.clone())["payment"], json!({"ron": 1000}));
    assert_eq!(run(dealer.clone())["payment"], json!({"ron": 1500}));
    // Tsumo: 20 + 4 + 2 + 2 = 28 -> 30 fu: non-dealer 300/500 (240 -> 300, 480 -> 500).
    let mut t = base.clone();
    t["tsumo"] = json!(true);
    let v = run(t.clone());
    assert_eq!(v["payment"], json!({"dealer": 500, "non_dealer": 300}));
    assert_eq!(v["total"], 1100);
    // Dealer tsumo: 500 all.
    let mut dt = t.clone();
    dt["seat_wind"] = json!("E");
    assert_eq!(run(dt.clone())["payment"], json!({"all": 500}));
    // Honba: 300 per counter on a ron, 100 from each payer on a tsumo; riichi sticks to the total.
    let mut h = base.clone();
    h["honba"] = json!(2);
    h["riichi_sticks"] = json!(3);
    let v = run(h);
    assert_eq!(v["payment"], json!({"ron": 1600}));
    assert_eq!(v["total"], 4600);
    let mut ht = t.clone();
    ht["honba"] = json!(1);
    assert_eq!(run(ht)["payment"], json!({"dealer": 600, "non_dealer": 400}));
    let mut hdt = dt.clone();
    hdt["honba"] = json!(1);
    assert_eq!(run(hdt)["payment"], json!({"all": 600}));
}

#[test]
fn limit_table() {
    let r = Rules::default();
    assert_eq!(basic_points(1, 30, &r), (240, Limit::None));
    assert_eq!(basic_points(4, 30, &r), (1920, Limit::None));
    assert_eq!(basic_points(3, 70, &r), (2000, Limit::Mangan));
    assert_eq!(basic_points(4, 40, &r), (2000, Limit::Mangan));
    assert_eq!(basic_points(5, 30, &r), (2000, Limit::Mangan));
    assert_eq!(basic_points(6, 30, &r), (3000, Limit::Haneman));
    assert_eq!(basic_points(7, 30, &r), (3000, Limit::Haneman));
    assert_eq!(basic_points(8, 30, &r), (4000, Limit::Baiman));
    assert_eq!(basic_points(10, 30, &r), (4000, Limit::Baiman));
    assert_eq!(basic_points(11, 30, &r), (6000, Limit::Sanbaiman));
    assert_eq!(basic_points(12, 30, &r), (6000, Limit::Sanbaiman));
    assert_eq!(basic_points(13, 30, &r), (8000, Limit::Yakuman));
    let no_kazoe = Rules { kazoe_yakuman: false, ..Rules::default() };
    assert_eq!(basic_points(13, 30, &no_kazoe), (6000, Limit::Sanbaiman));
    let kiriage = Rules { kiriage_mangan: true, ..Rules::default() };
    assert_eq!(basic_points(4, 30, &kiriage), (2000, Limit::Mangan));
    assert_eq!(basic_points(3, 60, &kiriage), (2000, Limit::Mangan));
    assert_eq!(basic_points(3, 60, &r), (1920, Limit::None));
    // The seed's table, row by row, for a non-dealer ron.
    let table: [(u32, [i64; 11]); 4] = [
        (1, [0, 0, 1000, 1300, 1600, 2000, 2300, 2600, 2900, 3200, 3600]),
        (2, [1300, 1600, 2000, 2600, 3200, 3900, 4500, 5200, 5800, 6400, 7100]),
        (3, [2600, 3200, 3900, 5200, 6400, 7700, 8000, 8000, 8000, 8000, 8000]),
        (4, [5200, 6400, 7700, 8000, 8000, 8000, 8000, 8000, 8000, 8000, 8000]),
    ];
    let fus = [20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110];
    for (han, row) in table {
        for (i, &want) in row.iter().enumerate() {
            if want == 0 {
                continue;
            }
            let (b, _) = basic_points(han, fus[i], &r);
            let got = payment(b, false, false).total();
            assert_eq!(got, want, "{han} han {} fu", fus[i]);
        }
    }
}

#[test]
fn kazoe_and_kiriage_through_the_scorer() {
    // Riichi tsumo pinfu tanyao + 8 dora + 1 aka: 13 han, kazoe yakuman 32000; off: sanbaiman 24000.
    let input = json!({"hand": "234m567p678s23405s", "win": "4s", "tsumo": true, "riichi": true,
        "dora": ["4s", "4s", "4s", "1m", "3m"]});
    let v = run(input.clone());
    assert_eq!(v["limit"], "yakuman", "{v}");
    assert_eq!(v["yakuman"], 0);
    assert_eq!(v["total"], 32000);
    let mut off = input;
    off["rules"] = json!({"kazoe_yakuman": false});
    assert_eq!(run(off)["total"], 24000);
}

#[test]
fn kuitan_and_atozuke_options() {
    let open_tanyao = json!({"hand": "234m567p23455s", "melds": ["chi:678s"], "win": "4s"});
    assert_eq!(run(open_tanyao.clone())["han"], 1);
    let mut off = open_tanyao;
    off["rules"] = json!({"kuitan": false});
    expect_err(off, "no_yaku");
    // Sakizuke: the haku pon counts only as the first call.
    let late = json!({"hand": "567p99s", "melds": ["chi:123m", "pon:555z", "chi:234s"], "win": "9s",
        "rules": {"atozuke": false}});
    expect_err(late, "no_yaku");
    let first = json!({"hand": "567p99s", "melds": ["pon:555z", "chi:123m", "chi:234s"], "win": "9s",
        "rules": {"atozuke": false}});
    assert_eq!(run(first)["han"], 1);
}

#[test]
fn renhou_options() {
    let base = json!({"hand": "234m567p678s23455s", "win": "4s", "renhou": true});
    assert_eq!(run(base.clone())["han"], 2);
    let mut m = base.clone();
    m["rules"] = json!({"renhou": "mangan"});
    let v = run(m);
    assert!(yaku_of(&v).contains(&"renhou:5".to_owned()), "{v}");
    assert_eq!(v["total"], 12000); // 5 + pinfu + tanyao = 7 han, haneman
    let mut y = base;
    y["rules"] = json!({"renhou": "yakuman"});
    assert_eq!(run(y)["total"], 32000);
}

#[test]
fn bad_inputs() {
    assert_eq!(serde_json::from_str::<Value>(&score_line("{nope")).unwrap()["error"], "bad_input");
    assert_eq!(serde_json::from_str::<Value>(&score_line("[1]")).unwrap()["error"], "bad_input");
    assert_eq!(serde_json::from_str::<Value>(&score_line("")).unwrap()["id"], Value::Null);
    expect_err(json!({"id": 1, "hand": "123m456p789s11z", "win": "1z"}), "invalid_tiles");
    expect_err(json!({"hand": "123m456p789s11234z", "win": "1z"}), "not_a_winning_hand");
    expect_err(json!({"hand": "11111m456p789s123z", "win": "1m"}), "invalid_tiles");
    expect_err(json!({"hand": "123m456p789s11z22x", "win": "1z"}), "invalid_tiles");
    expect_err(json!({"hand": "123m456p789s99s", "melds": ["pon:555z"], "win": "1s"}), "invalid_tiles");
    expect_err(json!({"hand": "123m456p789s99s", "melds": ["pon:556z"], "win": "9s"}), "invalid_tiles");
    expect_err(json!({"hand": "123m456p789s99s", "melds": ["pan:555z"], "win": "9s"}), "bad_input");
    expect_err(json!({"hand": "234m567p678s23455s", "win": "4s", "colour": 1}), "bad_input");
    expect_err(json!({"hand": "234m567p678s23455s", "win": "4s", "rules": {"kuitan": 3}}), "bad_rules");
    expect_err(json!({"hand": "234m567p678s23455s", "win": "4s", "ippatsu": true}), "inconsistent");
    expect_err(json!({"hand": "234m567p23455s", "melds": ["chi:678s"], "win": "4s", "riichi": true}), "inconsistent");
    expect_err(json!({"hand": "234m567p678s23400s", "win": "4s"}), "invalid_tiles");
    expect_err(json!({"hand": "234m567p678s23405s", "win": "4s", "rules": {"red_fives": 0}}), "invalid_tiles");
    expect_err(json!({"hand": "234m567p678s23455s", "win": "4s", "seat_wind": "X"}), "bad_input");
    // The id is echoed on errors too.
    let v = run(json!({"id": "x7", "hand": "1m", "win": "1m"}));
    assert_eq!(v["id"], "x7");
    // Never panics on odd input.
    for s in ["{\"hand\": 5}", "{\"hand\":\"\",\"win\":\"\"}", "null", "{\"hand\":\"1m\",\"win\":\"9z\"}"] {
        let v: Value = serde_json::from_str(&score_line(s)).unwrap();
        assert_eq!(v["ok"], false);
    }
}

#[test]
fn messages_are_what_display_writes() {
    let all = [
        ScoreError::InvalidTiles("five of 1m".into()),
        ScoreError::NotAWinningHand,
        ScoreError::NoYaku,
        ScoreError::Inconsistent("ippatsu without riichi".into()),
    ];
    for e in all {
        let shown = e.to_string();
        let message = e.into_message();
        assert_eq!(message, shown);
        // Only what is fixed is borrowed.
        assert_eq!(matches!(message, Cow::Borrowed(_)), !shown.contains("five") && !shown.contains("ippatsu"));
    }
}
