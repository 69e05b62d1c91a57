// Every change announced to a screen reader (WCAG 4.1.3). The open page follows the game by
// loading itself again (live.js); a new page's content is not read out by itself, so this file
// puts what happened since this tab last showed the game into a polite live region: the log's
// own sentences (written on the server, in the reader's language, the same text as the log),
// then "Your turn" once per turn. A refused move's error is focused (it is also role=alert).
// Nothing is marked as said before it is: a tab loaded again before the region was filled (two
// reloads in a row) reads it out then (tests/e2e/test_announce_reload_browser.py).
(function () {
  "use strict";
  var region = document.getElementById("announce");
  var error = document.getElementById("error");
  if (error) {
    error.setAttribute("tabindex", "-1");
    error.focus();
  }
  // The board in words opens when a link leads to it (the skip link, the board's own link) or
  // the address names it; focus goes to it, so a screen reader reads on from there.
  var words = document.getElementById("board-words");
  function openWords() {
    if (!words) return;
    words.open = true;
    var summary = words.querySelector("summary");
    if (summary) summary.focus();
  }
  document.querySelectorAll("a[data-open-words]").forEach(function (a) {
    a.addEventListener("click", function () { setTimeout(openWords, 0); });
  });
  if (window.location.hash === "#board-words") openWords();
  if (!region) return;
  var store;
  try { store = window.sessionStorage; if (!store) return; } catch (e) { return; }
  var game = region.dataset.game;
  var seq = parseInt(region.dataset.seq, 10);
  if (!(seq >= 0)) return;  // a past move's page (history) announces nothing
  var seenKey = "pg-seen:" + game;
  var turnKey = "pg-turn:" + game;
  // What is still to be read out survives the page: a tab reloaded (by the reader, or by
  // live.js as the game moves on) before the region was filled left it here, and this page
  // reads it out first. It goes only once the region holds it.
  var pendingKey = "pg-pending:" + game;
  var pending = null;
  var seen = null;
  try {
    seen = store.getItem(seenKey);
    pending = JSON.parse(store.getItem(pendingKey) || "null");
  } catch (e) { pending = null; }
  var said = [];
  var since = seen === null ? null : parseInt(seen, 10);
  if (pending && Array.isArray(pending.said) && pending.seq >= 0) {
    // Moves taken back since (the game's seq went down): their sentences are no longer true.
    if (pending.seq <= seq) said = pending.said.slice();
    since = pending.seq;
  }
  if (since !== null && since < seq) {
    var items = Array.prototype.slice.call(document.querySelectorAll(".log li[data-seq]"));
    items.reverse();  // the log is newest first
    items.forEach(function (li) {
      var n = parseInt(li.dataset.seq, 10);
      var text = li.querySelector(".log-text");
      if (n > since && n <= seq && text) said.push(text.textContent.trim());
    });
  }
  try {
    store.setItem(seenKey, String(seq));
    if (said.length) store.setItem(pendingKey, JSON.stringify({ seq: seq, said: said }));
    else store.removeItem(pendingKey);
  } catch (e) { /* storage full or refused: read out what this page has */ }
  var turn = region.dataset.yourTurn === "1" && store.getItem(turnKey) !== String(seq);
  if (!said.length && !turn) return;
  // After the page has settled: a region filled while the page loads is not announced.
  setTimeout(function () {
    if (turn) said.push(region.dataset.yourTurnText);
    region.textContent = said.join(" ");
    try {
      store.removeItem(pendingKey);
      if (turn) store.setItem(turnKey, String(seq));
    } catch (e) { /* nothing kept: nothing read out twice */ }
  }, 400);
})();
