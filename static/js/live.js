// The open game page follows the game: it listens to the game's event stream (the API's
// /api/v1/stream/?game=ID) and, when the game has moved on, shows the new state by loading the
// page again. Without this file (or without EventSource) the page works as before: a reload
// shows the new state. What a player is typing is never thrown away: while a form holds input
// not yet sent, the page says that the game has moved on and waits for a tap instead.
(function () {
  "use strict";
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
  document.addEventListener("submit", function () { leaving = true; }, true);

  function show() {
    leaving = true;
    if (source) source.close();
    window.location.reload();
  }
  if (note) {
    var btn = note.querySelector("button");
    if (btn) btn.addEventListener("click", show);
  }

  function changed(game) {
    var mine = seat !== null && game.status === "running" && (game.to_act || []).indexOf(seat) >= 0;
    document.title = (mine ? mark : "") + title;
    if (leaving) return;
    if (dirty && note) { note.hidden = false; return; }
    show();
  }

  function connect() {
    source = new EventSource(top.dataset.live);
    source.addEventListener("game", function (e) {
      var body;
      try { body = JSON.parse(e.data); } catch (err) { return; }
      var game = body && body.game;
      if (!game || (game.seq === seq && game.status === status)) return;
      seq = game.seq;
      status = game.status;
      changed(game);
    });
  }
  connect();
  // Leaving the page (a link, an address typed, a form sent): no reload may cut that short,
  // and the connection is closed so that the server frees its slot at once.
  function away() { leaving = true; if (source) source.close(); }
  window.addEventListener("beforeunload", away);
  window.addEventListener("pagehide", away);
})();
