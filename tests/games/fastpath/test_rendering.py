"""Email templates translated once per language (``games.fastpath.rendering``): the same
output as Django's ``render_to_string``, and nothing of one recipient (language, time zone, name,
money, links) in another's email when a batch renders them one after the other."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.template.loader import render_to_string
from django.utils import timezone, translation

import powergrid
from games.fastpath import rendering
from games.models import Game, Notification, Seat
from games.notifications import emails, sending
from games.notifications.outbox import OutboxWriter
from games.templatetags.names import isolate

pytestmark = pytest.mark.django_db

TEMPLATES = ["turn", "game_started", "game_over", "timeout", "bot_took_over", "digest"]
LINK = re.compile(r"/mail/(go|settings|act)/[^/\s\"]+/")  # signed with a time: compared without


def _game(players: int, *, language: str = "en", zone: str = "UTC", name: str = "p") -> int:
    from games.services.lobby import game_create, game_join

    User = get_user_model()
    stamp = f"{timezone.now().timestamp()}".replace(".", "")
    users = []
    for i in range(players):
        u = User.objects.create_user(
            username=f"{name}{i}x{stamp}", email=f"{name}{i}x{stamp}@example.com", password="x"
        )
        u.profile.language, u.profile.timezone = language, zone
        u.profile.display_name = f"{name.capitalize()}{i}"
        u.profile.save()
        users.append(u)
    # Move by move: one turn email, to the awaited seat (a round sheet would ask every seat).
    game = game_create(
        creator=users[0], map="germany", max_players=players, options={"sheets": False}
    )
    for u in users[1:]:
        game_join(game_id=game.pk, user=u)
    game.refresh_from_db()  # the last join started it (auto_start)
    return game.pk


def _set_money(gid: int, money: list[int]) -> None:
    game = Game.objects.get(pk=gid)
    state = powergrid.from_json(game.state_json)
    for p, m in zip(state.players, money, strict=True):
        p.money = m
    game.state_json = powergrid.to_json(state)
    game.save(update_fields=["state_json"])


def _turn_rows() -> list[Notification]:
    Notification.objects.all().delete()
    rows: list[Notification] = []
    for seat in Seat.objects.filter(deadline__isnull=False).select_related("user__profile", "game"):
        w = OutboxWriter(game=seat.game)
        w.turn(seat, seq=seat.game.seq)
        rows += w.rows
    Notification.objects.bulk_create(rows)
    return list(
        Notification.objects.select_related("recipient__profile", "game").order_by("id").all()
    )


def _parts(m: Any) -> tuple[str, str, str]:
    return m.subject, LINK.sub("", m.body), LINK.sub("", m.alternatives[0][0])


def test_templates_render_as_django_renders_them_in_every_language(monkeypatch):
    """Every email kind, built for real rows in English and Japanese: identical output with the
    per-language copies and with Django's ``render_to_string``."""
    gids = [
        _game(2, language="en", zone="Europe/Berlin", name="en"),
        _game(3, language="ja", zone="Asia/Tokyo", name="ja"),
    ]
    for gid in gids:
        game = Game.objects.get(pk=gid)
        w = OutboxWriter(game=game)
        for seat in Seat.objects.filter(game=game).select_related("user__profile"):
            w.add(user=seat.user, kind="game_started", key=f"s{seat.pk}")
            w.add(user=seat.user, kind="timeout", key=f"t{seat.pk}",
                  payload={"action": {"type": "pass_auction"}, "seat": seat.seat})  # fmt: skip
            w.add(user=seat.user, kind="bot_took_over", key=f"b{seat.pk}",
                  payload={"seat": seat.seat, "you": True})  # fmt: skip
            if seat.deadline is not None:
                w.turn(seat, seq=game.seq)
        Notification.objects.bulk_create(w.rows)
    kinds = set(Notification.objects.values_list("kind", flat=True))
    assert kinds >= {"turn", "game_started", "timeout", "bot_took_over"}, kinds

    def build_all() -> list[tuple[str, str, str] | None]:
        out = []
        for n in Notification.objects.select_related("recipient__profile", "game").order_by("id"):
            m = emails.email_build(n)
            out.append(None if m is None else _parts(m))
        return out

    ours = build_all()
    monkeypatch.setattr(
        rendering, "render", lambda name, ctx, lang=None: render_to_string(name, ctx)
    )
    theirs = build_all()
    assert ours == theirs
    assert sum(1 for x in ours if x is not None) >= 10
    assert any(x and "あなた" in x[1] for x in ours)
    assert any(x and '<html lang="ja">' in x[2] for x in ours)
    assert any(x and '<html lang="en">' in x[2] for x in ours)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_plural_and_missing_values_as_django(lang):
    ctx: dict[str, Any] = {
        "game_id": 5,
        "map_name": "Germany",
        "deadline": "soon",
        "moves": ["a moved", "b <moved>"],
        "earlier_moves": 1,
        "summary": {
            "round": 2,
            "step": 1,
            "phase": "x & y",
            "deck_size": 1,
            "others": [],
            "me": None,
        },
        "asked": ["<b>bid</b>"],
        "game_url": "https://pg.example/x?a=1&b=2",
        "settings_url": "https://pg.example/s",
        "recipient_name": "<Ann>",
        "site_url": "https://pg.example",
        "LANGUAGE_CODE": lang,
    }
    with translation.override(lang):
        for earlier in (0, 1, 2, 7, 1):  # 1 again: the cached plural
            ctx["earlier_moves"] = earlier
            for name in ("emails/turn.txt", "emails/turn.html", "emails/turn_subject.txt"):
                assert rendering.render(name, ctx) == render_to_string(name, ctx)
        del ctx["summary"]  # missing values render as Django renders them
        for name in ("emails/turn.txt", "emails/turn.html"):
            assert rendering.render(name, ctx) == render_to_string(name, ctx)


def test_a_batch_does_not_leak_one_recipients_language_zone_name_or_money_into_another():
    en = _game(2, language="en", zone="America/New_York", name="ann")
    ja = _game(2, language="ja", zone="Asia/Tokyo", name="jun")
    en2 = _game(2, language="en", zone="UTC", name="bob")
    _set_money(en, [37, 38])
    _set_money(ja, [81, 82])
    _set_money(en2, [59, 60])
    rows = _turn_rows()
    assert len(rows) == 3
    # Alone: each email built by itself, nothing shared.
    alone = {n.pk: _parts(emails.email_build(n)) for n in rows}
    # A batch: one prefetch, one render after the other (ja between two en, then en again).
    rows = _turn_rows()
    pf = emails.prefetch(rows)
    batched = {n.pk: _parts(emails.email_build(n, pf)) for n in rows}
    assert batched == {n.pk: alone[old] for n, old in zip(rows, alone, strict=True)}
    for n in rows:
        subject, text, html = batched[n.pk]
        game = n.game
        assert game is not None
        seat = Seat.objects.get(game=game, user=n.recipient)
        money = powergrid.from_json(game.state_json).players[seat.seat].money
        others = {37, 38, 81, 82, 59, 60} - {money}
        name = n.recipient.profile.display_name
        lang = n.recipient.profile.language
        with translation.override(lang):
            own = translation.gettext("Your money: %(money)s Elektro.") % {"money": money}
            hello = translation.gettext("Hello %(name)s,")
        # The name in <bdi> in the HTML; in the text between Unicode's isolates only when it
        # holds right-to-left text (games.templatetags.names).
        for part, shown in ((text, isolate(name)), (html, f"<bdi>{name}</bdi>")):
            assert own in part
            assert not any(f"{m} Elektro" in part or f"{m} エレクトロ" in part for m in others)
            assert hello % {"name": shown} in part
        zone = n.recipient.profile.timezone
        assert zone in text
        for other_zone in {"America/New_York", "Asia/Tokyo", "UTC"} - {zone}:
            assert other_zone not in text
        assert ('<html lang="ja">' in html) == (lang == "ja")
        assert ("あなたの番です" in subject) == (lang == "ja")
        assert ("Your turn" in subject) == (lang == "en")
        others_names = {"Ann0", "Ann1", "Jun0", "Jun1", "Bob0", "Bob1"} - {
            s.user.profile.display_name for s in game.seats.select_related("user__profile")
        }
        assert not any(o in text or o in html for o in others_names)


def test_warm_up_compiles_each_template_in_each_language():
    rendering.reset()
    sending.warm_up()
    loader = rendering.engine().template_loaders[0]
    keys = set(loader.get_template_cache)
    for lang in ("en", "ja"):
        for t in TEMPLATES:
            assert f"emails/{t}.html@{lang}" in keys
            assert f"emails/{t}_subject.txt@{lang}" in keys
