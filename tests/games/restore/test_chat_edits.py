"""A chat message's edit is journaled (``committed.chat_edited``, after its commit), so that a
restore to a point between the post and the edit, which brings the old text back, is told to its
author: once, with the text they had written. An edit the restored database holds tells nobody;
a message lost with its edit is told once, as a lost message with its latest text; no other
player is ever shown the edited text (the author's words, theirs to write again or not).

These edits commit for real (``transaction=True``): a line is written on commit."""

from __future__ import annotations

import json
import logging

import pytest
from apihelpers import by_moves, leaf_values, play_default
from django.core import mail
from restoring import roll_back, send_all, snapshot

from games.models import ChatMessage, Notification
from games.restore import committed, journal, told
from games.restore.services import after_restore

pytestmark = pytest.mark.django_db(transaction=True)

CHANGED = "meet at Essen, not Berlin"
EDIT_LOST = "was lost: the message reads as before. You had written:"
POST_LOST = "Your chat message “"


@pytest.fixture
def new_game(new_game):
    return by_moves(new_game)


def _post(p, gid: int, text: str) -> int:
    r = p.post(f"/api/v1/games/{gid}/chat/", {"text": text})
    assert r.status_code == 201, r.content
    return int(r.json()["id"])


def _edit(p, gid: int, mid: int, text: str) -> None:
    r = p.client.patch(f"/api/v1/games/{gid}/chat/{mid}/", {"text": text}, format="json")
    assert r.status_code == 200, r.content


def _edits(folder) -> list[dict]:
    return [x for x in journal.read([folder]) if "edit" in x]


def _rows(label: str) -> dict[int, dict]:
    """The ``restored`` rows of the recovery ``label``: recipient -> payload."""
    rows = Notification.objects.filter(kind="restored", dedupe_key__startswith=f"restored:{label}:")
    return {n.recipient_id: n.payload for n in rows}


def _told_mail() -> dict[str, str]:
    send_all()
    return {m.to[0]: m.body for m in mail.outbox if "restored" in m.subject}


def test_an_edit_writes_its_line_after_the_commit_and_a_refused_one_none(new_game, journal_dir):
    gid, ps = new_game(players=2)
    mid = _post(ps[0], gid, "meet at Berlin")
    _edit(ps[0], gid, mid, CHANGED)
    (line,) = _edits(journal_dir)
    m = ChatMessage.objects.get(pk=mid)
    assert line["game"] == gid
    assert sorted(line) == ["edit", "game", "v"]  # no kind, no email: a committed line
    assert line["edit"] == [
        mid,
        ps[0].user.pk,
        journal.iso(m.created_at),
        journal.iso(m.edited_at),
        CHANGED,
    ]
    # another player's "edit" of it is not found: nothing changed, no line
    r = ps[1].client.patch(f"/api/v1/games/{gid}/chat/{mid}/", {"text": "mine"}, format="json")
    assert r.status_code == 404
    assert len(_edits(journal_dir)) == 1


def test_a_failure_to_write_fails_no_edit(new_game, journal_dir, monkeypatch, caplog):
    gid, ps = new_game(players=2)
    mid = _post(ps[0], gid, "typo")

    def broken(recs):
        raise OSError("disk full")

    monkeypatch.setattr(journal, "append_many", broken)
    with caplog.at_level(logging.WARNING, logger=committed.__name__):
        _edit(ps[0], gid, mid, "fixed")
    assert ChatMessage.objects.get(pk=mid).text == "fixed"
    assert f"edit of chat message {mid} not written" in caplog.text


def test_an_edit_lost_is_told_to_its_author_once_with_its_text(new_game, journal_dir, client):
    gid, ps = new_game(players=3)
    author = ps[1]
    play_default(gid, ps, times=2)
    mid = _post(author, gid, "meet at Berlin")
    send_all()
    snap = snapshot(gid)
    _edit(author, gid, mid, CHANGED)  # after the restore point
    roll_back(gid, snap)
    assert ChatMessage.objects.get(pk=mid).text == "meet at Berlin"
    mail.outbox.clear()

    report = after_restore(paths=[journal_dir], label="edit-1")
    assert (report.chat_edits_lost, report.chat_lost, report.moves_lost) == (1, 0, 0)
    assert report.players_told == 1
    rows = _rows("edit-1")
    assert list(rows) == [author.user.pk]
    (game,) = rows[author.user.pk]["games"]
    assert (game["game"], game["seq"], game["chat"]) == (gid, None, [])
    assert [e[2] for e in game["edits"]] == [CHANGED]
    told = _told_mail()
    assert list(told) == [author.user.email]
    body = told[author.user.email]
    assert body.count(CHANGED) == 1
    assert EDIT_LOST in body
    assert f"Game #{gid} kept all its moves." in body  # it did not go back
    assert "went back to move" not in body
    assert "deadline starts again" not in body  # no game of theirs lost a move
    assert "We are sorry for the trouble." in body
    client.force_login(author.user)
    page = client.get(f"/games/{gid}/").content.decode()
    assert EDIT_LOST in page
    assert CHANGED in page

    again = after_restore(paths=[journal_dir], label="edit-1")
    assert again.players_told == 0
    later = after_restore(paths=[journal_dir], label="edit-2")  # its repairs in the database
    assert (later.chat_edits_lost, later.players_told) == (0, 0)


def test_an_edit_kept_tells_nobody_and_of_two_edits_the_lost_one_is_told(new_game, journal_dir):
    gid, ps = new_game(players=2)
    play_default(gid, ps, times=2)
    mid = _post(ps[0], gid, "first")
    _edit(ps[0], gid, mid, "second")
    send_all()
    snap = snapshot(gid)  # the first edit is before the restore point
    roll_back(gid, snap)
    report = after_restore(paths=[journal_dir], label="kept-1")
    assert (report.chat_edits_lost, report.chat_lost, report.players_told) == (0, 0, 0)

    _edit(ps[0], gid, mid, "third")  # after the point: lost
    roll_back(gid, snap)
    assert ChatMessage.objects.get(pk=mid).text == "second"
    report = after_restore(paths=[journal_dir], label="kept-2")
    assert (report.chat_edits_lost, report.players_told) == (1, 1)
    (game,) = _rows("kept-2")[ps[0].user.pk]["games"]
    assert [e[2] for e in game["edits"]] == ["third"]


def test_a_message_lost_with_its_edit_is_told_once_with_its_latest_text(new_game, journal_dir):
    gid, ps = new_game(players=2)
    play_default(gid, ps, times=2)
    send_all()
    snap = snapshot(gid)
    mid = _post(ps[1], gid, "meet at Berlin")
    _edit(ps[1], gid, mid, CHANGED)
    roll_back(gid, snap)
    assert not ChatMessage.objects.filter(pk=mid).exists()
    mail.outbox.clear()
    report = after_restore(paths=[journal_dir], label="both-1")
    assert (report.chat_lost, report.chat_edits_lost, report.players_told) == (1, 0, 1)
    (game,) = _rows("both-1")[ps[1].user.pk]["games"]
    assert [c[1] for c in game["chat"]] == [CHANGED]
    assert game["edits"] == []
    body = _told_mail()[ps[1].user.email]
    assert body.count(POST_LOST) == 1
    assert EDIT_LOST not in body


def test_a_message_whose_post_line_is_missing_is_told_by_its_edit(new_game, journal_dir):
    """The post's own line not written (a failure, logged): the edit's line says the message
    was there, with its author and time; it is told once, as a lost message."""
    gid, ps = new_game(players=2)
    play_default(gid, ps, times=2)
    send_all()
    snap = snapshot(gid)
    mid = _post(ps[1], gid, "meet at Berlin")
    _edit(ps[1], gid, mid, CHANGED)
    path = journal.journal_path()
    assert path is not None
    lines = path.read_text().splitlines()
    kept = [x for x in lines if mid not in [c[0] for c in json.loads(x).get("chat") or []]]
    assert len(kept) == len(lines) - 1
    path.write_text("".join(x + "\n" for x in kept))
    roll_back(gid, snap)
    assert not ChatMessage.objects.filter(pk=mid).exists()
    report = after_restore(paths=[journal_dir], label="edit-only-1")
    assert (report.chat_lost, report.chat_edits_lost, report.players_told) == (1, 0, 1)
    (game,) = _rows("edit-only-1")[ps[1].user.pk]["games"]
    assert game["chat"] == [[_edits(journal_dir)[0]["edit"][2], CHANGED]]  # the post's time


def test_other_players_never_see_the_edited_text(new_game, journal_dir, client):
    """The game went back too, so every player is told (one with emails off on the game page
    only): the edit is in its author's notice alone."""
    gid, ps = new_game(players=3)
    author, quiet = ps[0], ps[2]
    quiet.user.profile.notification_mode = "none"
    quiet.user.profile.save()
    play_default(gid, ps, times=2)
    mid = _post(author, gid, "meet at Berlin")
    send_all()
    snap = snapshot(gid)
    _edit(author, gid, mid, CHANGED)
    play_default(gid, ps, times=3)
    send_all()
    roll_back(gid, snap)
    mail.outbox.clear()
    report = after_restore(paths=[journal_dir], label="others-1")
    assert (report.games_behind, report.chat_edits_lost, report.players_told) == (1, 1, 3)
    rows = _rows("others-1")
    assert CHANGED in list(leaf_values(rows[author.user.pk]))
    for p in ps[1:]:
        assert CHANGED not in list(leaf_values(rows[p.user.pk]))
        assert all(not g.get("edits") for g in rows[p.user.pk]["games"])
    told = _told_mail()
    assert sorted(told) == sorted([author.user.email, ps[1].user.email])
    assert CHANGED in told[author.user.email]
    assert CHANGED not in told[ps[1].user.email]
    assert EDIT_LOST not in told[ps[1].user.email]
    client.force_login(quiet.user)
    page = client.get(f"/games/{gid}/").content.decode()
    assert f"Game #{gid} went back to move {snap['game'][0]}." in page  # told, on the page
    assert CHANGED not in page
    assert EDIT_LOST not in page


@pytest.mark.parametrize(
    ("length", "quoted"),
    [
        (told.TEXT_SHOWN, told.TEXT_SHOWN),
        (told.TEXT_SHOWN + 1, told.TEXT_SHOWN),
        (1000, told.TEXT_SHOWN),
    ],
)
def test_a_long_text_is_quoted_cut_with_an_ellipsis_and_a_short_one_whole(length, quoted):
    text = "x" * length
    shown = told._shown(text)
    assert len(shown) == quoted
    assert shown.endswith("…") == (length > told.TEXT_SHOWN)
    assert shown.rstrip("…") == text[: len(shown.rstrip("…"))]
