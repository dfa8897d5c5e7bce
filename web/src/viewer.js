// Paifu's move-by-move viewer: stepping in place. Every step is a plain link and every form a
// plain GET, so the page works without this script; with it, a step is fetched and swapped into
// the page (no page load, no scroll jump), keys step (held keys step on as fast as steps come),
// and the play button steps at a chosen speed. Served as /static/viewer.js (docs/web.md).
(function () {
  'use strict';
  var cache = {};          // url -> html of steps fetched ahead
  var order = [];          // cache order, oldest first
  var busy = false;        // a step is being fetched
  var queued = null;       // the nav id to follow once it is in
  var timer = null;        // the play button's timer

  function root() { return document.getElementById('viewer'); }
  function withPart(u) { return u + (u.indexOf('?') < 0 ? '?' : '&') + 'part=viewer'; }

  function remember(u, html) {
    if (!(u in cache)) { order.push(u); }
    cache[u] = html;
    while (order.length > 24) { delete cache[order.shift()]; }
  }

  function fetchStep(u) {
    if (u in cache) { return Promise.resolve(cache[u]); }
    return fetch(withPart(u), { credentials: 'same-origin', headers: { 'Accept': 'text/html' } })
      .then(function (r) { if (!r.ok) { throw new Error('status ' + r.status); } return r.text(); })
      .then(function (html) { remember(u, html); return html; });
  }

  // Swaps the new step's #viewer in; keeps the focus on the control that had it.
  function show(u, html) {
    var doc = new DOMParser().parseFromString(html, 'text/html');
    var fresh = doc.getElementById('viewer');
    var old = root();
    if (!fresh || !old) { location.href = u; return; }
    var focused = document.activeElement && document.activeElement.id;
    var overlayClosed = old.querySelector('#overlay') && !old.querySelector('#overlay[open]');
    old.replaceWith(document.importNode(fresh, true));
    if (overlayClosed) { var o = document.querySelector('#overlay'); if (o) { o.removeAttribute('open'); } }
    if (focused) { var f = document.getElementById(focused); if (f) { f.focus({ preventScroll: true }); } }
    history.replaceState(null, '', u);
    var title = root().getAttribute('data-title');
    if (title) { document.title = title; }
    syncPlay();
    prefetch();
  }

  function go(u) {
    busy = true;
    fetchStep(u).then(function (html) {
      show(u, html);
      busy = false;
      if (queued) { var id = queued; queued = null; follow(id); }
      else if (timer) { tick(); }
    }).catch(function () { busy = false; location.href = u; });
  }

  // Follows the nav link `id` (next, prev, next-hand, ...) if there is one.
  function follow(id) {
    if (busy) { queued = id; return true; }
    var a = document.getElementById(id);
    if (!a || !a.href || a.tagName !== 'A') { return false; }
    go(a.href);
    return true;
  }

  function prefetch() {
    ['next', 'prev'].forEach(function (id) {
      var a = document.getElementById(id);
      if (a && a.href && !(a.href in cache)) { fetchStep(a.href).catch(function () {}); }
    });
  }

  // Play: a step every 1/speed seconds until the last step.
  function speed() { var s = document.getElementById('speed'); return s ? Number(s.value) || 2 : 2; }
  function tick() {
    clearTimeout(timer);
    timer = setTimeout(function () { if (!follow('next')) { stop(); } }, 1000 / speed());
  }
  function stop() { clearTimeout(timer); timer = null; syncPlay(); }
  function syncPlay() {
    var b = document.getElementById('play');
    if (!b) { return; }
    b.hidden = false;
    var box = b.closest('.play');
    if (box) { box.hidden = false; }
    var s = document.getElementById('speed');
    if (s) { s.hidden = false; }
    b.textContent = timer ? '❚❚ Pause' : '▶ Play';
    b.setAttribute('aria-pressed', timer ? 'true' : 'false');
  }

  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    var t = e.target && e.target.tagName;
    if (t === 'INPUT' || t === 'SELECT' || t === 'TEXTAREA') { return; }
    if (!root()) { return; }
    var k = e.key, id;
    if ((e.shiftKey && k === 'ArrowRight') || k === 'PageDown' || k === ']') { id = 'next-hand'; }
    else if ((e.shiftKey && k === 'ArrowLeft') || k === 'PageUp' || k === '[') { id = 'prev-hand'; }
    else if (k === ' ' || k === 'p') { e.preventDefault(); if (timer) { stop(); } else { tick(); syncPlay(); } return; }
    else { id = { ArrowRight: 'next', ArrowLeft: 'prev', Home: 'first', End: 'last', ArrowDown: 'next-own', ArrowUp: 'prev-own' }[k]; }
    if (!id) { return; }
    e.preventDefault();
    if (timer && id !== 'next') { stop(); }
    follow(id);
  });

  document.addEventListener('click', function (e) {
    var r = root();
    if (!r || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey) { return; }
    var b = e.target.closest && e.target.closest('#play');
    if (b) { e.preventDefault(); if (timer) { stop(); } else { tick(); syncPlay(); } return; }
    var a = e.target.closest && e.target.closest('a[data-step]');
    if (a && r.contains(a)) { e.preventDefault(); if (timer) { stop(); } go(a.href); }
  });

  // The viewer's forms (a round, a step on the slider, a seat to follow) load in place too.
  document.addEventListener('submit', function (e) {
    var f = e.target;
    var r = root();
    if (!r || !r.contains(f) || (f.method || 'get').toLowerCase() !== 'get') { return; }
    e.preventDefault();
    var q = new URLSearchParams(new FormData(f)).toString();
    go(f.action.split('?')[0] + '?' + q);
  });
  document.addEventListener('change', function (e) {
    var el = e.target;
    if (!root() || !root().contains(el)) { return; }
    if (el.id === 'slider' || el.id === 'round' || el.id === 'seat' || el.id === 'hide') {
      if (el.form) { el.form.requestSubmit ? el.form.requestSubmit() : el.form.submit(); }
    }
    if (el.id === 'speed' && timer) { tick(); }
  });
  document.addEventListener('input', function (e) {
    if (e.target && e.target.id === 'slider') {
      var o = document.getElementById('slider-at');
      if (o) { o.textContent = e.target.value; }
    }
  });
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', function () { syncPlay(); prefetch(); });
  } else { syncPlay(); prefetch(); }
})();
