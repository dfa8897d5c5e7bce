//! A person's seat in the browser (`/play/{token}`, docs/play.md): the seat's view drawn as the
//! viewer draws a position (`view::parts`, the seat at the bottom), its legal actions as
//! tiles to click and buttons with keys, and the clock. The page follows the seat through
//! server-sent events (`/api/play/{token}/events`): every event carries the drawing of the
//! table and of the actions, made here, so that the script only puts them in place, sends what
//! is clicked, and takes the seat's share of the seed (its contribution drawn with WebCrypto,
//! kept in the browser's storage until it is revealed, its commitment computed with BLAKE3).
//!
//! The page's address holds the seat's credential: it is served with `Referrer-Policy:
//! no-referrer` and never cached, and it links nowhere that would need it.

use crate::html;
use actix_web::http::header;
use actix_web::HttpResponse;
use maud::{html, PreEscaped};
use paifu_core::games::View;
use paifu_recorder::arena::person::{SeatNow, Stage};
use serde_json::Value;

/// The page of `GET /play/{token}`: the seat as it is now.
pub(crate) fn page(now: &SeatNow) -> HttpResponse {
    let (table, actions) = drawing(now);
    let me = now.names.get(usize::from(now.seat)).cloned().unwrap_or_default();
    let body = html! {
        style { (PreEscaped(CSS)) }
        div.play #play {
            div.bar { span #status { (status(now)) } span #clock.clock aria-live="off" {} }
            p #notice.notice role="status" { (now.notice.as_deref().unwrap_or("")) }
            div #table.table-area { (PreEscaped(table)) }
            div #actions.actions { (PreEscaped(actions)) }
            noscript { p.fault { "The seat plays with script on: this page only shows it." } }
        }
    }
    .into_string();
    let title = format!("{me} at table {}", now.table);
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .insert_header((header::REFERRER_POLICY, "no-referrer"))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(html::page_with_scripts(&title, "", &body, &["/static/play.js"]))
}

/// The seat's script, `/static/play.js`: BLAKE3, then the seat's own (it reads the seat's
/// token from the page's address).
pub(crate) async fn play_js() -> HttpResponse {
    crate::pages::script(format!("{BLAKE3_JS}{PLAY_JS}"))
}

/// The line at the top: table, game, the seat's name and whose turn it is.
fn status(now: &SeatNow) -> String {
    let me = now.names.get(usize::from(now.seat)).map_or("?", String::as_str);
    let stage = match now.stage {
        Stage::Waiting => "waiting for every seat's share of the seed".to_owned(),
        Stage::Ended => "over".to_owned(),
        Stage::Playing if now.to_act => "your turn".to_owned(),
        Stage::Playing => match now.view.as_ref().map(to_act) {
            Some(seats) if !seats.is_empty() => {
                let who: Vec<&str> =
                    seats.iter().map(|s| now.names.get(usize::from(*s)).map_or("?", String::as_str)).collect();
                format!("{} to play", who.join(", "))
            }
            _ => "waiting".to_owned(),
        },
    };
    format!(
        "Table {} · game {} of {} · {me} (seat {}) · {stage}",
        now.table,
        now.number.max(1),
        now.games_planned,
        now.seat
    )
}

/// The seats to act in a view (as the seat sees them).
fn to_act(v: &View) -> Vec<u8> {
    match v {
        View::Tzq(v) => v.to_act.clone(),
        View::Riichi(v) => v.to_act.clone(),
        View::Mcr(v) => v.to_act.clone(),
        View::Hungarian(v) => v.to_act.clone(),
        View::Tayu(v) => v.to_act.clone(),
    }
}

/// The drawing of the seat now: the table, and the actions (its hand to click, its calls).
pub(crate) fn drawing(now: &SeatNow) -> (String, String) {
    let table = match &now.view {
        Some(v) => html! { p.k #status-line { (status(now)) } (PreEscaped(position_html(v, now.seat, &now.names))) }
            .into_string(),
        None => html! {
            p.k #status-line { (status(now)) }
            p.k { "The table is set: the first deal comes once every seat has sent its share of the seed." }
        }
        .into_string(),
    };
    (table, actions_html(now))
}

/// The key of a verb's button, and its label.
fn verb_key(verb: &str) -> (&'static str, &'static str) {
    match verb {
        "chi" | "chow" => ("c", "Chi"),
        "pon" | "pung" | "pong" => ("p", "Pon"),
        "minkan" | "ankan" | "kakan" | "kong" | "concealed_kong" | "added_kong" | "add" => ("k", "Kan"),
        "riichi" => ("r", "Riichi"),
        "tsumo" => ("t", "Tsumo"),
        "ron" => ("w", "Ron"),
        "win" | "mahjong" => ("w", "Win"),
        "pass" => ("s", "Pass"),
        "kyuushu" => ("q", "Nine terminals"),
        "draw" => ("d", "Draw"),
        "bid" => ("b", "Bid"),
        "choose" => ("h", "Choose"),
        "place" => ("l", "Place"),
        _ => ("", ""),
    }
}

/// A verb's label: its own, or the verb itself.
fn verb_label(verb: &str) -> String {
    match verb {
        "minkan" => "Kan (open)".into(),
        "ankan" => "Kan (closed)".into(),
        "kakan" => "Kan (added)".into(),
        "concealed_kong" => "Kong (concealed)".into(),
        "added_kong" | "add" => "Kong (added)".into(),
        "pung" | "pong" => "Pung".into(),
        "chow" => "Chow".into(),
        "kong" => "Kong".into(),
        v => match verb_key(v).1 {
            "" => v.to_owned(),
            l => l.to_owned(),
        },
    }
}

/// The seat's own concealed tiles (or cards) and its draw, from its view's JSON.
fn own_hand(view: &Value, seat: u8) -> (Vec<String>, Option<String>) {
    let strings = |v: &Value| -> Vec<String> {
        v.as_array().map(|a| a.iter().filter_map(|t| t.as_str().map(str::to_owned)).collect()).unwrap_or_default()
    };
    let mine = ["players", "seats"].iter().find_map(|key| {
        let list = view.get(*key)?.as_array()?;
        list.iter()
            .find(|p| p.get("seat").and_then(Value::as_u64) == Some(u64::from(seat)))
            .or_else(|| list.get(usize::from(seat)))
    });
    let mut hand = mine.map(|p| strings(&p["hand"])).unwrap_or_default();
    let drawn = view.get("drawn").and_then(Value::as_str).map(str::to_owned);
    if let Some(d) = &drawn {
        if let Some(i) = hand.iter().rposition(|t| t == d) {
            hand.remove(i);
        }
    }
    (hand, drawn)
}

/// The seat's actions: its hand as tiles to click (each the discard it makes, when one is
/// legal, and with riichi the declaring discard), every other legal action as a button with a
/// key, the tiles each would use shown on it.
fn actions_html(now: &SeatNow) -> String {
    match now.stage {
        Stage::Waiting => return waiting_html(now),
        Stage::Ended => return ended_html(now),
        Stage::Playing => {}
    }
    let Some(view) = &now.view else { return String::new() };
    let json = serde_json::to_value(view).unwrap_or(Value::Null);
    let (hand, drawn) = own_hand(&json, now.seat);
    // Discards by tile: the plain one and the riichi one.
    let mut discard: Vec<(String, String)> = Vec::new();
    let mut riichi: Vec<(String, String)> = Vec::new();
    let mut others: Vec<(String, String)> = Vec::new();
    for a in &now.legal {
        let words: Vec<&str> = a.split_whitespace().collect();
        match words.as_slice() {
            ["discard" | "tsumogiri", t] => discard.push(((*t).to_owned(), a.clone())),
            ["riichi", "discard" | "tsumogiri", t] => riichi.push(((*t).to_owned(), a.clone())),
            [verb, ..] => others.push(((*verb).to_owned(), a.clone())),
            [] => {}
        }
    }
    let pick = |list: &[(String, String)], t: &str, drawn_tile: bool| -> Option<String> {
        let want = if drawn_tile { "tsumogiri" } else { "discard" };
        list.iter()
            .filter(|(x, _)| x == t)
            .find(|(_, a)| a.contains(want))
            .or_else(|| list.iter().find(|(x, _)| x == t))
            .map(|(_, a)| a.clone())
    };
    let tile_button = |t: &str, is_drawn: bool| {
        let a = pick(&discard, t, is_drawn);
        let r = pick(&riichi, t, is_drawn);
        let label = match &a {
            Some(a) => a.to_string(),
            None => format!("{t} (cannot be discarded now)"),
        };
        html! {
            button type="button" class={ "tile" @if is_drawn { " drawn" } } aria-label=(label)
                disabled[a.is_none() && r.is_none()] data-action=[a.as_deref()] data-riichi=[r.as_deref()] {
                (PreEscaped(face(&now.game, t)))
            }
        }
    };
    html! {
        div.hand #hand role="group" aria-label="Your hand" {
            @for t in &hand { (tile_button(t, false)) }
            @if let Some(d) = &drawn {
                @if !hand.is_empty() { span.gap {} }
                (tile_button(d, true))
            }
        }
        div.calls #calls {
            @if !riichi.is_empty() {
                button type="button" class="call" id="riichi" data-key="r" aria-pressed="false" { "Riichi " kbd { "r" } }
            }
            @for (verb, a) in &others {
                @let (key, _) = verb_key(verb);
                button type="button" class="call" data-action=(a) data-key=(key) title=(a) {
                    span.verb { (verb_label(verb)) }
                    // The action's words in order: its tiles or cards drawn small, a run of them
                    // in one row, the rest as words (`take`, `keep`, a bid, a placement).
                    @for (tiles, w) in call_words(&now.game, a) {
                        " "
                        @if tiles { span.tiles { @for t in w.split(' ') { (PreEscaped(html::tile(t))) } } }
                        @else { span.w { (w) } }
                    }
                    @if !key.is_empty() { " " kbd { (key) } }
                }
            }
            @if now.to_act && now.legal.is_empty() { span.k { "nothing to do" } }
            @if !now.to_act { span.k { "Not your turn: the table waits for another seat." } }
        }
        p.k.keys { (help_line(now, &others, !discard.is_empty(), !riichi.is_empty())) }
        p.k #events { (recent(now)) }
    }
    .into_string()
}

/// An action's words after its verb, each run of tiles or cards joined (`true`, separated by
/// spaces) and each other word alone (`false`): `chow 5b 6g take 4b keep 6g` is `5b 6g`, `take`,
/// `4b`, `keep`, `6g`. Ta Yü's words are never tiles (`place 3 4 ...`).
fn call_words(game: &str, action: &str) -> Vec<(bool, String)> {
    let mut out: Vec<(bool, String)> = Vec::new();
    for w in action.split_whitespace().skip(1) {
        let tile = game != "tayu" && html::is_tile(w);
        match out.last_mut() {
            Some((true, run)) if tile => {
                run.push(' ');
                run.push_str(w);
            }
            _ => out.push((tile, w.to_owned())),
        }
    }
    out
}

/// The line under the hand: how to play the hand and the keys of the buttons shown.
fn help_line(now: &SeatNow, others: &[(String, String)], discards: bool, riichi: bool) -> String {
    let piece = match now.game.as_str() {
        "tzq" => "card",
        "tayu" => "piece",
        _ => "tile",
    };
    let mut keys: Vec<String> = Vec::new();
    if riichi {
        keys.push("r riichi (then a tile)".into());
    }
    for (verb, _) in others {
        let (key, _) = verb_key(verb);
        let k = format!("{key} {}", verb_label(verb).to_lowercase());
        if !key.is_empty() && !keys.contains(&k) {
            keys.push(k);
        }
    }
    let mut line =
        if discards { format!("Click a {piece} to discard it (arrows and Enter choose one).") } else { String::new() };
    if !keys.is_empty() {
        line += &format!(" Keys: {}.", keys.join(", "));
    }
    line.trim().to_owned()
}

/// The last few events, in words: `Bao: discard 5m · Chen: pass`.
fn recent(now: &SeatNow) -> String {
    now.events
        .iter()
        .rev()
        .take(4)
        .rev()
        .map(|e| format!("{}: {}", now.names.get(usize::from(e.seat)).map_or("?", String::as_str), e.action))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// A waiting table: where its seed stands.
fn waiting_html(now: &SeatNow) -> String {
    let f = &now.fair;
    let committed = f.commitments.values().filter(|c| c.is_some()).count();
    html! {
        div.fair #fair data-owed=(f.owed.unwrap_or("")) data-party=(f.party) {
            p { "The deal is made from a share of every party: the server committed to its own when the table opened ("
                (f.host_commitment.get(..16).unwrap_or("")) "…); this browser adds its own, drawn here. "
                (committed) " of " (f.commitments.len()) " commitments are in." }
            p { @match f.owed {
                Some("commit") => "Sending this seat's commitment…",
                Some("reveal") => "Every commitment is in: sending this seat's share…",
                _ if f.closed.is_none() => "Waiting for the other seats' commitments.",
                _ => "Waiting for the other seats' shares.",
            } }
            @if let Some(by) = f.reveal_by_ms {
                p #reveal-by data-by=(by) { "Every share must be in within "
                    ((by - paifu_recorder::arena::person::now_ms()).max(0) / 1000)
                    " s of the last commitment's arrival; if one is missing then (a browser that lost its share), \
                    the table is abandoned and no game is played on it." }
            }
        }
    }
    .into_string()
}

/// A table that is over: its games.
fn ended_html(now: &SeatNow) -> String {
    html! {
        @if now.finished.is_empty() {
            p { "The table is over: no game was played at it." }
        } @else {
            p { "The table's games are over. Its games in the archive:"
                @for id in &now.finished { " " a href={ "/games/" (id) } rel="noreferrer" { "#" (id) } } }
        }
        p.k { "Everything that fixed the seeds is published at /api/tables/" (now.table) "." }
    }
    .into_string()
}

const CSS: &str = r#"
body{display:flex;flex-direction:column;height:100vh;height:100dvh;margin:0}
body>header{flex:0 0 auto}
main{flex:1 1 auto;min-height:0;max-width:none;width:100%;box-sizing:border-box;padding:4px 8px;display:flex;flex-direction:column}
.play{flex:1 1 auto;min-height:0;display:flex;flex-direction:column;gap:4px}
.bar{display:flex;justify-content:space-between;gap:8px;font-size:.9em;flex-wrap:wrap}
.clock{font-variant-numeric:tabular-nums;font-weight:700}.clock.low{color:#a11}
.notice{margin:0;min-height:1.2em;font-size:.9em;color:#a8071a}
.table-area{flex:1 1 auto;min-height:0;overflow:auto;display:flex;flex-direction:column;align-items:center}
.table-area #status-line{display:none}
.table-area>*{flex:0 0 auto;max-width:100%}
.table-area>.rest{align-self:stretch}
.table-area svg.board{height:max(220px,calc(100vh - 260px));height:max(220px,calc(100dvh - 260px));width:100%;max-width:none}
.table-area:has(.picture){flex-direction:row;align-items:stretch;gap:12px;overflow:hidden}
.table-area .picture{flex:1 1 auto;min-width:0;display:flex;justify-content:center}
.table-area .picture svg.table{width:100%;height:100%;max-width:100%;margin:0}
.table-area .picture~.rest{flex:0 1 360px;overflow:auto;font-size:.9em}
.table-area .rest h2{margin:.2em 0;font-size:1.1em}
.table-area details.as-text{display:none}
.table-area .seats{width:100%;overflow:auto;font-size:.85em;gap:4px}
.actions{flex:0 0 auto}
.hand{display:flex;flex-wrap:wrap;gap:2px;align-items:flex-end}
.hand .gap{width:12px}
button.tile{background:none;border:2px solid transparent;padding:0;border-radius:6px;color:inherit}
button.tile .t{font-size:1.15em;min-width:2.2em;padding:6px 3px;margin:0}
button.tile:not([disabled]):hover .t,button.tile:focus .t,button.tile:not([disabled]):hover .card,button.tile:focus .card{background:#fde9a8}
button.tile[disabled] .t,button.tile[disabled] .card{opacity:.55}
.actions.riichi button.tile:not([data-riichi]) .t{opacity:.35}
.actions.riichi button.tile[data-riichi] .t{outline:2px solid #a11}
.calls{display:flex;flex-wrap:wrap;gap:6px;margin-top:4px;align-items:center}
button.call{padding:5px 9px;display:inline-flex;flex-wrap:wrap;align-items:center;justify-content:center;gap:2px 4px;white-space:nowrap;line-height:1.2}
button.call .tiles{display:inline-flex;flex-wrap:nowrap;gap:1px}
button.call .t{font-size:.85em;margin:0;padding:1px 2px;min-width:1.6em}
button.call[aria-pressed=true]{background:#a11;border-color:#a11}
kbd{font-size:.75em;background:rgba(255,255,255,.25);border-radius:3px;padding:0 3px}
.keys{margin:2px 0;font-size:.8em}#events{margin:0;font-size:.85em}
@media (max-width:800px){.table-area:has(.picture){flex-direction:column;overflow:auto}.table-area .picture{flex:0 0 auto;height:min(94vw,52vh);height:min(94vw,52dvh)}.table-area .picture~.rest{flex:0 0 auto;overflow:visible}}
@media (max-width:600px){main{padding:2px 4px}button.tile .t{font-size:1em;min-width:1.75em;padding:5px 1px}.keys{display:none}
.calls{gap:4px}
button.call{flex:1 1 auto;flex-wrap:nowrap;padding:4px 5px;font-size:.85em;gap:3px}button.call kbd{display:none}button.call .t{min-width:1.35em;padding:1px 1px}}
"#;

/// BLAKE3 (one chunk, at most 1024 bytes: hash and derive_key), for the seat's commitment:
/// `commit(name, value)` as `paifu_core::fair::commit` makes it. Checked against BLAKE3's
/// published test vectors and against `fair::commit` (the known answer in the tests below).
const BLAKE3_JS: &str = r#"
const B3IV=[0x6a09e667,0xbb67ae85,0x3c6ef372,0xa54ff53a,0x510e527f,0x9b05688c,0x1f83d9ab,0x5be0cd19];
const B3P=[2,6,3,10,7,0,4,13,1,11,12,5,9,14,15,8];
function b3compress(cv,m,len,flags){
  const s=[cv[0],cv[1],cv[2],cv[3],cv[4],cv[5],cv[6],cv[7],B3IV[0],B3IV[1],B3IV[2],B3IV[3],0,0,len,flags];
  const g=(a,b,c,d,x,y)=>{
    s[a]=(s[a]+s[b]+x)|0;s[d]^=s[a];s[d]=(s[d]>>>16)|(s[d]<<16);
    s[c]=(s[c]+s[d])|0;s[b]^=s[c];s[b]=(s[b]>>>12)|(s[b]<<20);
    s[a]=(s[a]+s[b]+y)|0;s[d]^=s[a];s[d]=(s[d]>>>8)|(s[d]<<24);
    s[c]=(s[c]+s[d])|0;s[b]^=s[c];s[b]=(s[b]>>>7)|(s[b]<<25);
  };
  for(let r=0;r<7;r++){
    g(0,4,8,12,m[0],m[1]);g(1,5,9,13,m[2],m[3]);g(2,6,10,14,m[4],m[5]);g(3,7,11,15,m[6],m[7]);
    g(0,5,10,15,m[8],m[9]);g(1,6,11,12,m[10],m[11]);g(2,7,8,13,m[12],m[13]);g(3,4,9,14,m[14],m[15]);
    if(r<6)m=B3P.map(i=>m[i]);
  }
  const out=[];for(let i=0;i<8;i++)out.push((s[i]^s[i+8])>>>0);return out;
}
function b3chunk(key,bytes,flags){
  let cv=key.slice();const n=Math.max(1,Math.ceil(bytes.length/64));
  for(let b=0;b<n;b++){
    const block=bytes.slice(b*64,b*64+64);const m=new Array(16).fill(0);
    for(let i=0;i<block.length;i++)m[i>>2]|=block[i]<<(8*(i&3));
    cv=b3compress(cv,m,block.length,flags|(b===0?1:0)|(b===n-1?10:0));
  }
  const out=new Uint8Array(32);cv.forEach((w,i)=>{for(let j=0;j<4;j++)out[4*i+j]=(w>>>(8*j))&255;});return out;
}
function b3words(b){const w=[];for(let i=0;i<8;i++)w.push((b[4*i]|b[4*i+1]<<8|b[4*i+2]<<16|b[4*i+3]<<24)>>>0);return w;}
function b3derive(context,material){return b3chunk(b3words(b3chunk(B3IV,new TextEncoder().encode(context),32)),material,64);}
function tohex(b){return Array.from(b,x=>x.toString(16).padStart(2,"0")).join("");}
function fromhex(h){const b=new Uint8Array(h.length/2);for(let i=0;i<b.length;i++)b[i]=parseInt(h.substr(2*i,2),16);return b;}
function commitOf(name,value){
  const n=new TextEncoder().encode(name);const m=new Uint8Array(8+n.length+32);
  let len=n.length;for(let i=0;i<8;i++){m[i]=len&255;len=Math.floor(len/256);}
  m.set(n,8);m.set(value,8+n.length);return tohex(b3derive("paifu 2026-11 contribution v1",m));
}
"#;

/// The seat's script: the event stream, clicks and keys, the clock, the seat's share of the seed.
const PLAY_JS: &str = r##"
(function(){
const token=location.pathname.split("/").pop();
const api="/api/play/"+token;
const $=id=>document.getElementById(id);
let deadline=null,busy=false,lastHtml="",seedBusy=false;
function say(t){$("notice").textContent=t||"";}
async function post(path,body){
  const r=await fetch(api+path,{method:"POST",headers:{"Content-Type":"application/json"},body:JSON.stringify(body),referrerPolicy:"no-referrer",cache:"no-store"});
  let j={};try{j=await r.json();}catch(e){}
  return [r.status,j];
}
async function act(a){
  if(busy||!a)return;busy=true;
  try{
    const [s,j]=await post("",{action:a});
    if(s!==200)say(j.error||("refused ("+s+")"));
  }catch(err){say("the move was not sent ("+err.message+"): try again");}
  finally{busy=false;}
}
function riichiMode(){return $("actions").classList.contains("riichi");}
$("actions").addEventListener("click",e=>{
  const b=e.target.closest("button");if(!b||b.disabled)return;
  if(b.id==="riichi"){const on=!riichiMode();$("actions").classList.toggle("riichi",on);b.setAttribute("aria-pressed",on);return;}
  if(b.classList.contains("tile")){act(riichiMode()?b.dataset.riichi:b.dataset.action);return;}
  act(b.dataset.action);
});
document.addEventListener("keydown",e=>{
  if(e.ctrlKey||e.metaKey||e.altKey)return;
  const tiles=[...document.querySelectorAll("#hand button.tile:not([disabled])")];
  const i=tiles.indexOf(document.activeElement);
  if(e.key==="ArrowRight"||e.key==="ArrowLeft"){
    if(!tiles.length)return;e.preventDefault();
    const n=i<0?(e.key==="ArrowRight"?0:tiles.length-1):(i+(e.key==="ArrowRight"?1:tiles.length-1))%tiles.length;
    tiles[n].focus();return;
  }
  const k=e.key.length===1?e.key.toLowerCase():e.key;
  const calls=[...document.querySelectorAll("#calls button[data-key='"+CSS.escape(k)+"']")];
  if(!calls.length)return;
  e.preventDefault();
  if(calls.length===1){calls[0].click();return;}
  const j=calls.indexOf(document.activeElement);
  calls[(j+1)%calls.length].focus();
});
function tick(){
  const c=$("clock");if(deadline===null){c.textContent="";return;}
  const left=Math.max(0,deadline-Date.now());c.textContent=(left/1000).toFixed(0)+" s";
  c.classList.toggle("low",left<5000);
}
setInterval(tick,250);
let seedSent="",latest=null;
async function seedStep(s){
  const f=s.fair;if(s.state!=="waiting"||!f||!f.owed||seedBusy)return;
  const step=f.owed+":"+(f.closed||"");if(step===seedSent)return;
  seedBusy=true;
  let sent=false;
  try{
    const key="paifu-seed-"+s.table+"-"+f.party+"-"+f.host_commitment;
    let value=localStorage.getItem(key);
    if(!value){const b=new Uint8Array(32);crypto.getRandomValues(b);value=tohex(b);localStorage.setItem(key,value);}
    let r;
    if(f.owed==="commit")r=await post("/seed",{commitment:commitOf(f.party,fromhex(value))});
    else r=await post("/seed",{contribution:value});
    if(r[0]!==200)say(r[1].error||("the seed step was refused ("+r[0]+")"));
    else{seedSent=step;sent=true;}
  }catch(err){say("the seed step was not sent ("+err.message+"): trying again");}
  finally{seedBusy=false;}
  // The update that asks for the next step may have come while this one was sent; a step that
  // failed is tried again a little later, not at once.
  if(sent){if(latest)seedStep(latest);}
  else setTimeout(()=>{if(latest)seedStep(latest);},3000);
}
function show(s){
  if(s.html!==lastHtml){$("table").innerHTML=s.html;lastHtml=s.html;}
  const st=$("table").querySelector("#status-line");$("status").textContent=st?st.textContent:("Table "+s.table+" · "+s.state);
  const keep=riichiMode();
  $("actions").innerHTML=s.actions_html;
  $("actions").classList.toggle("riichi",keep&&!!document.getElementById("riichi"));
  if(document.getElementById("riichi"))document.getElementById("riichi").setAttribute("aria-pressed",keep);
  say(s.notice||"");
  deadline=s.deadline_ms===null?null:Date.now()+s.deadline_ms;tick();
  document.body.dataset.version=s.version;document.body.dataset.toAct=s.to_act;document.body.dataset.state=s.state;
  latest=s;seedStep(s);
}
function connect(){
  const es=new EventSource(api+"/events");
  es.addEventListener("seat",e=>{try{show(JSON.parse(e.data));}catch(err){say("could not read the update: "+err);}});
  es.onerror=()=>{es.close();setTimeout(connect,1000);};
}
connect();
})();
"##;

/// The seat's position drawn as the viewer draws it, the seat at the bottom, each seat by its
/// player's name (a seat's view names nobody: the table's names are the page's).
fn position_html(view: &View, bottom: paifu_core::Seat, names: &[String]) -> String {
    let mut view = view.clone();
    let name = |i: usize| names.get(i).cloned();
    match &mut view {
        View::Tzq(v) => v.seats.iter_mut().enumerate().for_each(|(i, s)| s.name = name(i)),
        View::Tayu(v) => v.seats.iter_mut().enumerate().for_each(|(i, s)| s.name = name(i)),
        View::Riichi(v) => v.players.iter_mut().enumerate().for_each(|(i, s)| s.name = name(i)),
        View::Mcr(v) => v.players.iter_mut().enumerate().for_each(|(i, s)| s.name = name(i)),
        View::Hungarian(v) => v.players.iter_mut().enumerate().for_each(|(i, s)| s.name = name(i)),
    }
    let (picture, rest) = crate::view::parts(&view, bottom);
    html! {
        @if let Some(p) = picture { div.picture { (PreEscaped(p)) } }
        div.rest { (PreEscaped(rest)) }
    }
    .into_string()
}

/// A tile, card or piece of the seat's hand as the game draws it: a Tien Zi Que card as a card.
fn face(game: &str, t: &str) -> String {
    if game == "tzq" {
        html::card(t)
    } else {
        html::tile(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use paifu_recorder::arena::person::SeatNow;

    #[test]
    fn the_commitment_the_page_computes_is_the_one_the_host_checks() {
        // The page's BLAKE3 gives this for commit("seat 0", [1; 32]) (checked with node against
        // BLAKE3's published vectors); the host's own function must agree.
        assert_eq!(
            paifu_core::fair::commit("seat 0", &[1; 32]).to_hex(),
            "285e1fff538cd91b177850b44f1973418abaaadb5275712a33aa4350adec6738"
        );
    }

    #[test]
    fn a_seat_to_act_gets_its_hand_to_click_and_each_call_as_a_button_with_its_tiles() {
        use paifu_core::riichi::Riichi;
        use paifu_core::{Game, Seed};
        let rules = Riichi::rules("standard", &Default::default()).unwrap();
        let mut g = Riichi::new(rules, 4, Some(&Seed::from_text("play page"))).unwrap();
        while !g.to_act().contains(0) || g.legal_actions(0).iter().all(|a| !a.to_string().starts_with("discard")) {
            let s = g.to_act().iter().next().unwrap();
            let a = g.safe_action(s).unwrap();
            g.play_mut(s, &a).unwrap();
        }
        let mut now = SeatNow::new(1, "riichi", 0, vec!["A".into(), "B".into(), "C".into(), "D".into()], 1);
        now.stage = Stage::Playing;
        now.view = Some(paifu_core::games::View::Riichi(g.seat_view(0)));
        now.legal = g.legal_actions(0).iter().map(ToString::to_string).collect();
        now.legal.push("pon 5m 5m".into());
        now.to_act = true;
        let html = actions_html(&now);
        let discards = now.legal.iter().filter(|a| a.starts_with("discard") || a.starts_with("tsumogiri")).count();
        assert!(discards > 0);
        for a in now.legal.iter().filter(|a| a.starts_with("discard") || a.starts_with("tsumogiri")) {
            assert!(html.contains(&format!("data-action=\"{a}\"")), "{a} is a tile to click: {html}");
        }
        assert!(html.contains("data-action=\"pon 5m 5m\" data-key=\"p\""), "{html}");
        let buttons = html.matches("<button type=\"button\" class=\"tile").count();
        assert_eq!(buttons, 14, "the thirteen tiles and the draw: {html}");
        // Nothing of another seat's hand.
        now.to_act = false;
        now.legal.clear();
        assert!(actions_html(&now).contains("Not your turn"));
    }

    #[test]
    fn a_calls_tiles_are_one_run_between_its_words() {
        let w = |g, a| {
            call_words(g, a).into_iter().map(|(t, w)| format!("{}{w}", if t { "T:" } else { "" })).collect::<Vec<_>>()
        };
        assert_eq!(w("tzq", "chow 5b 6g take 4b keep 6g"), ["T:5b 6g", "take", "T:4b", "keep", "T:6g"]);
        assert_eq!(w("riichi", "pon 5m 5m"), ["T:5m 5m"]);
        assert_eq!(w("tayu", "place 12 3 4 north"), ["place", "12", "3", "4", "north"][1..].to_vec());
        assert!(w("tzq", "draw").is_empty());
    }

    #[test]
    fn hostile_names_and_actions_are_escaped() {
        use paifu_core::Game;
        let bad = "<script>alert(1)</script>\"'&";
        let names = vec![bad.to_owned(), "B".into()];
        let mut now = SeatNow::new(1, "tzq", 0, names, 1);
        // The whole page of a waiting seat: its title and its status line carry the name.
        use actix_web::body::MessageBody;
        let body = page(&now).into_body().try_into_bytes().map_err(|_| "a body in one piece").unwrap();
        let whole = String::from_utf8(body.to_vec()).unwrap();
        let escaped = "&lt;script&gt;alert(1)&lt;/script&gt;";
        assert!(whole.contains(&format!("<title>{escaped}")), "the name is in the title, escaped: {whole}");
        let status = &whole[whole.find("id=\"status\"").expect("a status line")..];
        assert!(status[..status.find("</span>").unwrap()].contains(escaped), "and in the status line: {status}");
        assert!(!whole.contains(bad) && !whole.contains("<script>alert"), "{whole}");
        now.stage = Stage::Playing;
        now.to_act = true;
        let g =
            paifu_core::tzq::Tzq::new(Default::default(), 2, Some(&paifu_core::Seed::from_text("hostile"))).unwrap();
        now.view = Some(paifu_core::games::View::of(&g));
        now.legal = vec![format!("bid {bad}")];
        let (table, actions) = drawing(&now);
        for h in [table, actions] {
            assert!(!h.contains("<script>") && !h.contains("</script>\"'&"), "{h}");
        }
        let actions = actions_html(&now);
        assert!(actions.contains("data-action=\"bid &lt;script&gt;alert(1)&lt;/script&gt;&quot;'&amp;\""), "{actions}");
    }
}
