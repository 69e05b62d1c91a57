"""In-game chat: players post and read (spectators only where the game allows); HTML and script
in a message are shown as text on the page, in the email and in the API; an edit window; report
and mute; a rate limit; new messages reach the others in their next turn email."""

from __future__ import annotations

import pytest

from games.templatetags.names import isolate

pytestmark = pytest.mark.django_db

EVIL = '<script>alert("x")</script><b>bold</b> & more'


def test_players_post_and_read_and_strangers_cannot(new_game, make_player):
    gid, ps = new_game(players=3)
    r = ps[0].post(f"/api/v1/games/{gid}/chat/", {"text": "good luck all"})
    assert r.status_code == 201
    assert r.json()["text"] == "good luck all"
    assert [m["text"] for m in ps[1].get(f"/api/v1/games/{gid}/chat/").json()] == ["good luck all"]
    stranger = make_player()
    assert stranger.post(f"/api/v1/games/{gid}/chat/", {"text": "hi"}).status_code == 403
    assert stranger.get(f"/api/v1/games/{gid}/chat/").status_code == 403


@pytest.mark.parametrize("query", ["before=x", "limit=null", "limit=1.5"])
def test_paging_parameters_that_are_not_whole_numbers_are_refused(new_game, query):
    gid, ps = new_game(players=2)
    r = ps[0].get(f"/api/v1/games/{gid}/chat/?{query}")
    assert r.status_code == 400
    assert r.json()["error"]["details"]["field"] == query.split("=")[0]


def test_paging_returns_older_messages_and_at_most_limit(new_game):
    gid, ps = new_game(players=2)
    ids = [
        ps[0].post(f"/api/v1/games/{gid}/chat/", {"text": f"m{i}"}).json()["id"] for i in range(4)
    ]
    page = ps[1].get(f"/api/v1/games/{gid}/chat/?before={ids[3]}&limit=2").json()
    assert [m["text"] for m in page] == ["m1", "m2"]


def test_a_public_chat_is_read_by_spectators_but_not_written(new_game, make_player):
    gid, ps = new_game(players=3, options={"chat_public": True})
    ps[0].post(f"/api/v1/games/{gid}/chat/", {"text": "hello"})
    stranger = make_player()
    assert len(stranger.get(f"/api/v1/games/{gid}/chat/").json()) == 1
    assert stranger.post(f"/api/v1/games/{gid}/chat/", {"text": "hi"}).status_code == 403


@pytest.mark.parametrize(
    ("text", "code"), [("", "invalid_message"), ("x" * 1001, "invalid_message")]
)
def test_empty_and_long_messages_are_refused(new_game, text, code):
    from games.models import ChatMessage

    gid, ps = new_game(players=2)
    r = ps[0].post(f"/api/v1/games/{gid}/chat/", {"text": text})
    assert r.status_code == 400
    assert r.json()["error"]["code"] == code
    assert not ChatMessage.objects.exists()


def test_markup_is_shown_as_text_in_the_page_the_email_and_the_api(new_game, client):
    from apihelpers import seat_players

    from games.models import Notification
    from games.notifications.emails import email_build

    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    game_to_act = ps[0].get(f"/api/v1/games/{gid}/").json()["to_act"][0]
    author = next(p for s, p in seats.items() if s != game_to_act)
    author.post(f"/api/v1/games/{gid}/chat/", {"text": EVIL})
    assert author.get(f"/api/v1/games/{gid}/chat/").json()[0]["text"] == EVIL  # JSON: as typed
    client.force_login(seats[game_to_act].user)
    page = client.get(f"/games/{gid}/").content.decode()
    assert "<script>alert" not in page
    assert (
        "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;b&gt;bold&lt;/b&gt; &amp; more"
        in page
    )
    n = Notification(recipient=seats[game_to_act].user, game_id=gid, kind="turn", payload={})
    mail = email_build(n)
    assert EVIL in mail.body  # plain text part: as typed
    html = mail.alternatives[0][0]
    assert "<script>alert" not in html
    assert "&lt;script&gt;" in html


BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


@pytest.mark.parametrize("control", list(BIDI_CONTROLS))
def test_text_direction_controls_are_refused(new_game, client, control):
    """An override (RLO, U+202E) or embedding or isolate control turns the text after it around,
    invisibly: "\u202egnp.exe" reads "exe.png". Nobody types one; the chat refuses them as it
    refuses other control characters (posting, editing, on the page)."""
    from games.models import ChatMessage

    gid, ps = new_game(players=2)
    text = f"see my {control}gnp.exe"
    r = ps[0].post(f"/api/v1/games/{gid}/chat/", {"text": text})
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "invalid_message"
    assert r.json()["error"]["details"]["field"] == "text"
    mid = ps[0].post(f"/api/v1/games/{gid}/chat/", {"text": "see my file"}).json()["id"]
    r = ps[0].client.patch(f"/api/v1/games/{gid}/chat/{mid}/", {"text": text}, format="json")
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "invalid_message"
    client.force_login(ps[1].user)
    r = client.post(f"/games/{gid}/chat/", {"text": text}, follow=True)
    assert "control characters" in r.content.decode()
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["see my file"]


def test_right_to_left_marks_are_kept(new_game):
    """The marks (LRM, RLM, ALM) change no text around them: a right-to-left writer uses them."""
    gid, ps = new_game(players=2)
    text = "\u05e9\u05dc\u05d5\u05dd 5\u200f!"
    assert ps[0].post(f"/api/v1/games/{gid}/chat/", {"text": text}).status_code == 201


def test_each_message_is_isolated_on_the_page_and_in_the_email(new_game, client):
    """A right-to-left message (or an older one holding an override) must not reorder the author,
    the time or the next message: each is in <bdi> on the page and in the HTML email, between
    Unicode's isolates in the text email."""
    from apihelpers import seat_players

    from games.models import ChatMessage, Notification
    from games.notifications.emails import email_build

    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    to_act = ps[0].get(f"/api/v1/games/{gid}/").json()["to_act"][0]
    author = next(p for s, p in seats.items() if s != to_act)
    rtl = "\u05e9\u05dc\u05d5\u05dd 5"
    assert author.post(f"/api/v1/games/{gid}/chat/", {"text": rtl}).status_code == 201
    old = "\u202eold override"  # stored before the refusal: contained all the same
    ChatMessage.objects.create(game_id=gid, author=author.user, text=old)
    client.force_login(seats[to_act].user)
    page = client.get(f"/games/{gid}/").content.decode()
    assert f'<bdi class="chat-text">{rtl}</bdi>' in page
    assert f'<bdi class="chat-text">{old}</bdi>' in page
    n = Notification(recipient=seats[to_act].user, game_id=gid, kind="turn", payload={})
    mail = email_build(n)
    assert f"\u2068{rtl}\u2069" in mail.body
    assert f"\u2068{old}\u2069" in mail.body
    html = mail.alternatives[0][0]
    assert f"<bdi>{rtl}</bdi>" in html
    assert f"<bdi>{old}</bdi>" in html


def test_an_edit_window_and_only_ones_own(new_game, settings, time_machine):
    import datetime as dt

    gid, ps = new_game(players=2)
    time_machine.move_to(dt.datetime(2026, 11, 25, 12, 0, tzinfo=dt.UTC), tick=False)
    mid = ps[0].post(f"/api/v1/games/{gid}/chat/", {"text": "typo"}).json()["id"]
    assert (
        ps[1]
        .client.patch(f"/api/v1/games/{gid}/chat/{mid}/", {"text": "x"}, format="json")
        .status_code
        == 404
    )
    r = ps[0].client.patch(f"/api/v1/games/{gid}/chat/{mid}/", {"text": "fixed"}, format="json")
    assert r.status_code == 200
    assert r.json()["edited"] is True
    time_machine.move_to(dt.datetime(2026, 11, 25, 12, 11, tzinfo=dt.UTC), tick=False)
    r = ps[0].client.patch(f"/api/v1/games/{gid}/chat/{mid}/", {"text": "late"}, format="json")
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "edit_window_over"


def test_an_edited_message_keeps_its_authors_seat(new_game):
    gid, ps = new_game(players=3)
    ps[0].post(f"/api/v1/games/{gid}/chat/", {"text": "first"})
    posted = ps[1].post(f"/api/v1/games/{gid}/chat/", {"text": "typo"}).json()
    r = ps[1].client.patch(
        f"/api/v1/games/{gid}/chat/{posted['id']}/", {"text": "fixed"}, format="json"
    )
    listed = ps[2].get(f"/api/v1/games/{gid}/chat/").json()[-1]
    assert r.json()["seat"] == posted["seat"] == listed["seat"] is not None
    assert r.json() == listed


def test_rate_limit(new_game, settings):
    settings.CHAT_RATE = 3
    gid, ps = new_game(players=2)
    codes = [
        ps[0].post(f"/api/v1/games/{gid}/chat/", {"text": f"m{i}"}).status_code for i in range(4)
    ]
    assert codes == [201, 201, 201, 429]


def test_report_and_mute(new_game):
    from games.models import ChatReport

    gid, ps = new_game(players=3)
    mid = ps[0].post(f"/api/v1/games/{gid}/chat/", {"text": "rude"}).json()["id"]
    assert ps[1].post(f"/api/v1/games/{gid}/chat/{mid}/report/").status_code == 204
    assert ps[1].post(f"/api/v1/games/{gid}/chat/{mid}/report/").status_code == 204
    assert ChatReport.objects.count() == 1
    from games.chat.services import chat_mute

    chat_mute(user=ps[1].user, muted_id=ps[0].user.pk)
    assert ps[1].get(f"/api/v1/games/{gid}/chat/").json() == []
    assert len(ps[2].get(f"/api/v1/games/{gid}/chat/").json()) == 1


def test_a_hidden_message_is_gone_for_everyone(new_game):
    from games.models import ChatMessage

    gid, ps = new_game(players=2)
    ps[0].post(f"/api/v1/games/{gid}/chat/", {"text": "spam"})
    ChatMessage.objects.update(hidden=True)  # the moderators' admin action
    assert ps[1].get(f"/api/v1/games/{gid}/chat/").json() == []


def test_the_page_posts_without_javascript(new_game, client):
    from games.models import ChatMessage

    gid, ps = new_game(players=2)
    client.force_login(ps[0].user)
    r = client.post(f"/games/{gid}/chat/", {"text": "from the page"})
    assert r.status_code == 302
    assert ChatMessage.objects.get().text == "from the page"
    assert "from the page" in client.get(f"/games/{gid}/").content.decode()


def test_moderators_see_reported_messages_first_and_hide_them(new_game, client):
    import re

    from django.contrib.auth import get_user_model

    from games.models import ChatMessage

    gid, ps = new_game(players=3)
    ids = [
        ps[0].post(f"/api/v1/games/{gid}/chat/", {"text": t}).json()["id"]
        for t in ("doubtful", "fine", "rude")
    ]
    ps[1].post(f"/api/v1/games/{gid}/chat/{ids[2]}/report/")
    ps[2].post(f"/api/v1/games/{gid}/chat/{ids[2]}/report/")
    ps[1].post(f"/api/v1/games/{gid}/chat/{ids[0]}/report/")
    staff = get_user_model().objects.create_superuser("mod", "mod@example.com", "mod-pw-12345")
    client.force_login(staff)
    page = client.get("/admin/games/chatmessage/").content.decode()
    listed = [int(x) for x in re.findall(r'name="_selected_action" value="(\d+)"', page)]
    assert listed == [ids[2], ids[0], ids[1]]  # two reports, one, none
    assert client.get(f"/admin/games/chatmessage/{ids[2]}/change/").status_code == 200
    r = client.post(
        "/admin/games/chatmessage/", {"action": "hide", "_selected_action": [str(ids[2])]}
    )
    assert r.status_code == 302
    assert ChatMessage.objects.get(pk=ids[2]).hidden
    texts = [m["text"] for m in ps[1].get(f"/api/v1/games/{gid}/chat/").json()]
    assert texts == ["doubtful", "fine"]


def test_a_digest_reader_gets_the_chat_in_the_digest_escaped(new_game, make_player):
    """A player in digest mode gets no turn emails: the others' new messages reach them in the
    daily digest (not their own, not a muted author's), as typed in the text part and escaped in
    the HTML part."""
    import datetime as dt

    from django.utils import timezone

    from games.chat.services import chat_mute
    from games.models import Notification
    from games.notifications.emails import email_build

    gid, ps = new_game(players=3)
    reader = ps[0].user
    reader.profile.notification_mode = "digest"
    reader.profile.save()
    rows = Notification.objects.count()
    ps[1].post(f"/api/v1/games/{gid}/chat/", {"text": EVIL})
    ps[2].post(f"/api/v1/games/{gid}/chat/", {"text": "from the muted one"})
    ps[0].post(f"/api/v1/games/{gid}/chat/", {"text": "my own words"})
    assert Notification.objects.count() == rows  # never an email per message
    chat_mute(user=reader, muted_id=ps[2].user.pk)
    since = (timezone.now() - dt.timedelta(hours=1)).isoformat()
    n = Notification(recipient=reader, kind="digest", payload={"since": since})
    mail = email_build(n)
    assert mail is not None
    # The name and the text each isolated (Unicode's isolates in the text part).
    assert f"{isolate(ps[1].user.username)}: {isolate(EVIL)}" in mail.body
    assert "from the muted one" not in mail.body
    assert "my own words" not in mail.body
    html = mail.alternatives[0][0]
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert" in html
    # Nothing newer than the previous digest: no chat lines.
    later = (timezone.now() + dt.timedelta(minutes=1)).isoformat()
    n = Notification(recipient=reader, kind="digest", payload={"since": later})
    mail = email_build(n)
    assert mail is None or EVIL not in mail.body


def _two_games_one_author(new_game, make_player):
    """A player of two games, with a message in the first: (first id, second id, message id,
    the player)."""
    from games import services

    gid, ps = new_game(players=2)
    author = ps[0]
    other = make_player()
    gid2 = other.post("/api/v1/games/", {"map": "germany", "max_players": 3}).json()["id"]
    services.game_join(game_id=gid2, user=author.user)
    mid = author.post(f"/api/v1/games/{gid}/chat/", {"text": "first words"}).json()["id"]
    return gid, gid2, mid, author


def test_a_message_is_changed_only_through_its_own_games_address(new_game, make_player):
    """Editing or reporting a message through another game's path (one the author also plays
    in) is refused and changes nothing: the path's game is checked, not only the message's id."""
    from games.models import ChatMessage, ChatReport

    gid, gid2, mid, author = _two_games_one_author(new_game, make_player)
    r = author.client.patch(
        f"/api/v1/games/{gid2}/chat/{mid}/", {"text": "rewritten"}, format="json"
    )
    assert (r.status_code, r.json()["error"]["code"]) == (404, "message_not_found")
    assert ChatMessage.objects.get(pk=mid).text == "first words"
    assert ChatMessage.objects.get(pk=mid).edited_at is None
    r = author.post(f"/api/v1/games/{gid2}/chat/{mid}/report/")
    assert r.status_code == 404
    assert not ChatReport.objects.exists()
    # Through its own game's address it works.
    r = author.client.patch(
        f"/api/v1/games/{gid}/chat/{mid}/", {"text": "rewritten"}, format="json"
    )
    assert r.status_code == 200
    assert ChatMessage.objects.get(pk=mid).text == "rewritten"


def test_the_page_changes_a_message_only_through_its_own_game(new_game, make_player, client):
    from games.models import ChatMessage, ChatReport

    gid, gid2, mid, author = _two_games_one_author(new_game, make_player)
    client.force_login(author.user)
    client.post(f"/games/{gid2}/chat/", {"op": "edit", "id": str(mid), "text": "rewritten"})
    client.post(f"/games/{gid2}/chat/", {"op": "report", "id": str(mid)})
    assert ChatMessage.objects.get(pk=mid).text == "first words"
    assert not ChatReport.objects.exists()
    client.post(f"/games/{gid}/chat/", {"op": "edit", "id": str(mid), "text": "rewritten"})
    assert ChatMessage.objects.get(pk=mid).text == "rewritten"


@pytest.mark.parametrize(
    ("body", "expected"), [({"text": 5}, "string"), ({"text": None}, "string"), ([], "object")]
)
def test_a_chat_text_of_the_wrong_type_is_named_as_such(new_game, body, expected):
    """``{"text": 5}`` was answered invalid_message "Write something." (a wrong type told as an
    empty message): it is 400 invalid_field naming the field and the type it takes."""
    from games.models import ChatMessage

    gid, ps = new_game(players=2)
    r = ps[0].post(f"/api/v1/games/{gid}/chat/", body)
    assert r.status_code == 400
    error = r.json()["error"]
    assert error["code"] == "invalid_field"
    assert error["details"]["expected"] == expected
    assert error["details"]["field"] == ("text" if expected == "string" else "")
    mid = ps[0].post(f"/api/v1/games/{gid}/chat/", {"text": "typo"}).json()["id"]
    r = ps[0].client.patch(f"/api/v1/games/{gid}/chat/{mid}/", {"text": 5}, format="json")
    assert (r.status_code, r.json()["error"]["details"]["field"]) == (400, "text")
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["typo"]
