// The open game page follows the game: it listens to the game's event stream (the API's
// /api/v1/stream/?game=ID) and, when the game has moved on, shows the new state by loading the
// page again. Without this file (or without EventSource) the page works as before: a reload
// shows the new state. What a player is typing is never thrown away: while a form holds input
// not yet sent, the page says that the game has moved on and waits for a tap instead.
(function () {
  "use strict";
  // The confirmation of a move or a sheet just sent ("Your move was recorded.", focused: the
  // address ends in its id) is shown once by the server. A page loaded again by this file as the
  // game moves on (the bots' answer, the round played out) would lose it, and the address would
  // name nothing: the text is kept in the tab for that reload, which shows it again, focused.
  var doneKey = "pg-done:" + window.location.pathname;
  var store = null;
  try { store = window.sessionStorage; } catch (e) { store = null; }
  var hash = window.location.hash.slice(1);
  if (store && (hash === "move-done" || hash === "sheet-done")) {
    var kept = null;
    try { kept = JSON.parse(store.getItem(doneKey) || "null"); store.removeItem(doneKey); }
    catch (e) { kept = null; }
    var head = document.querySelector(".game-head");
    if (kept && kept.id === hash && kept.text && !document.getElementById(hash) && head) {
      var p = document.createElement("p");
      p.id = hash;
      p.className = "move-done";
      p.setAttribute("role", "status");
      p.setAttribute("tabindex", "-1");
      p.setAttribute("data-done", "");
      p.textContent = kept.text;
      head.parentNode.insertBefore(p, head.nextSibling);
      p.focus();
    }
  }
  function keepDone() {
    var done = document.querySelector("[data-done]");
    if (!store || !done || window.location.hash !== "#" + done.id) return;
    try { store.setItem(doneKey, JSON.stringify({ id: done.id, text: done.textContent.trim() })); }
    catch (e) { /* nothing kept: the page shows the game without it */ }
  }
  var top = document.querySelector("[data-live]");
  if (!top || !window.EventSource) return;
  var seq = parseInt(top.dataset.seq, 10);
  var status = top.dataset.status;
  var seat = top.dataset.seat === "" ? null : parseInt(top.dataset.seat, 10);
  var mark = top.dataset.yourTurn || "";
  var note = document.querySelector("[data-live-note]");
  var title = document.title;
  if (mark && title.indexOf(mark) === 0) title = title.slice(mark.length);
  var dirty = false;
  var leaving = false;
  var source = null;

  // A field typed or ticked by the player (the cost calculator is only a scratch pad).
  document.addEventListener("input", function (e) {
    var form = e.target && e.target.form;
    if (form && !form.classList.contains("calc")) dirty = true;
  }, true);
  // A form sent leaves the page (one that stays, such as the cost calculator, prevents it).
  document.addEventListener("submit", function (e) { if (!e.defaultPrevented) leaving = true; });

  function show() {
    leaving = true;
    if (source) source.close();
    keepDone();
    window.location.reload();
  }
  if (note) {
    var btn = note.querySelector("button");
    if (btn) btn.addEventListener("click", show);
  }

  function changed(game) {
    var mine = seat !== null && game.status === "running" && (game.to_act || []).indexOf(seat) >= 0;
    document.title = (mine ? mark : "") + title;
    if (leaving) return false;
    if (dirty && note) note.hidden = false;
    else show();
    return true;
  }

  // A stream refused or ended for good (EventSource gives up on any answer but 200): listen
  // again later, a few times, waiting longer each time. The usual cause is 429: the server
  // counts this account's streams, and those of tabs just closed or reloaded are counted until
  // it next writes to them (a keepalive, every 20 s), so a player who reloads a few times in a
  // row would otherwise be left with a page that no longer follows the game.
  var tries = 0;
  var again = null;
  function retry() {
    if (leaving || tries >= 4) return;
    clearTimeout(again);
    again = setTimeout(function () {
      if (leaving) return;
      tries += 1;
      connect();
    }, 20000 * Math.pow(2, tries));
  }

  function connect() {
    source = new EventSource(top.dataset.live);
    source.addEventListener("open", function () { tries = 0; });
    source.addEventListener("error", function (e) {
      if (e.target.readyState === EventSource.CLOSED) retry();
    });
    source.addEventListener("game", function (e) {
      var body;
      try { body = JSON.parse(e.data); } catch (err) { return; }
      var game = body && body.game;
      if (!game || (game.seq === seq && game.status === status)) return;
      // Seen only once acted on: a page that stays after all (a download) sees it again.
      if (changed(game)) { seq = game.seq; status = game.status; }
    });
  }
  connect();
  // Leaving the page (a link, an address typed, a form sent): no reload may cut that short,
  // and the connection is closed so that the server frees its slot at once.
  var back = null;
  function away() {
    leaving = true;
    if (source) source.close();
    // Still here a while later (the link was a download, such as the calendar's .ics): listen
    // again; the stream's first event says whether the game moved meanwhile.
    clearTimeout(back);
    back = setTimeout(function () { leaving = false; connect(); }, 5000);
  }
  window.addEventListener("beforeunload", away);
  window.addEventListener("pagehide", away);
})();
