// The live pages' script (served as /static/live.js): the list of games in progress reloads
// itself now and then; a game's page showing its latest position asks for the game's moves now
// and then and reloads (the latest position) when their number changed or the game ended. What
// to follow is in the page: the element #live-follow's data-every (ms), and on a game's page
// data-game (its id) and data-records (the records shown).
(function () {
  var el = document.getElementById('live-follow');
  if (!el) { return; }
  var every = Number(el.dataset.every) || 3000;
  var id = el.dataset.game;
  if (!id) { setTimeout(function () { location.reload(); }, every); return; }
  var n = Number(el.dataset.records);
  function poll() {
    fetch('/api/live/' + encodeURIComponent(id) + '?after=' + n, { cache: 'no-store' })
      .then(function (r) { if (r.status === 404) { location.reload(); return null; } return r.ok ? r.json() : null; })
      .then(function (j) { if (j && j.game && j.game.records !== n) { location.reload(); } else { setTimeout(poll, every); } })
      .catch(function () { setTimeout(poll, every); });
  }
  setTimeout(poll, every);
})();
