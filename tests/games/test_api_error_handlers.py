"""Every error under /api/ is JSON with a code, whoever raised it (Django itself included):
a body over the upload limit is 413 ``request_too_large``; pages get a page."""

from __future__ import annotations

import json

import pytest
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000)
def test_a_body_over_the_limit_is_413_json_with_a_code(make_player):
    p = make_player()
    big = {"map": "germany", "max_players": 2, "pad": "x" * 5000}
    c = Client()
    r = c.post(
        "/api/v1/games/",
        json.dumps(big),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {p.token}",
    )
    assert r.status_code == 413
    assert r["Content-Type"].startswith("application/json")
    assert r.json()["error"]["code"] == "request_too_large"
    assert r.json()["error"]["details"]["max_bytes"] == 1000
    from games.models import Game

    assert not Game.objects.exists()


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000)
def test_a_page_form_over_the_limit_gets_a_page():
    r = Client().post("/accounts/login/", {"login": "x" * 5000, "password": "y"})
    assert r.status_code == 413
    assert "Too large" in r.content.decode()


def test_an_unknown_api_url_is_json_404():
    r = Client().get("/api/v1/nothing-here/")
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "not_found"


def test_a_request_django_refuses_under_api_is_json_400():
    """A bad Host header is refused by Django before any view: still the JSON body under /api/."""
    r = Client().get("/api/v1/maps/", HTTP_HOST="evil.example")
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "bad_request"
    page = Client().get("/accounts/login/", HTTP_HOST="evil.example")
    assert page.status_code == 400
    assert page["Content-Type"].startswith("text/html")


@pytest.mark.parametrize(
    ("handler", "status", "code"),
    [("handler403", 403, "permission_denied"), ("handler500", 500, "server_error")],
)
def test_the_403_and_500_handlers_answer_json_under_api_and_a_page_elsewhere(handler, status, code):
    from django.test import RequestFactory

    from games.api import errors

    view = getattr(errors, handler)
    args = () if handler == "handler500" else (None,)
    r = view(RequestFactory().get("/api/v1/games/"), *args)
    assert r.status_code == status
    assert json.loads(r.content)["error"]["code"] == code
    page = view(RequestFactory().get("/games/"), *args)
    assert page.status_code == status
    assert page["Content-Type"].startswith("text/html")
    assert b"<html" in page.content


def test_the_handlers_are_installed():
    from config import urls

    for n in (400, 403, 404, 500):
        assert getattr(urls, f"handler{n}") == f"games.api.errors.handler{n}"


def test_a_token_with_a_nul_byte_is_refused_before_the_database():
    """A knox token is hex: anything else is answered 401 without a query (a NUL, which
    PostgreSQL refuses in text, was a 500)."""
    for token in ["\x00" * 20, "0123456789abcde\x00ff", "g" * 64]:
        r = Client().get("/api/v1/me/", HTTP_AUTHORIZATION=f"Token {token}")
        assert r.status_code == 401
        assert r.json()["error"]["code"] == "authentication_failed"


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/v1/games/{gid}/chat/", {"text": "hi\u0000there"}),
        ("/api/v1/games/{gid}/moves/", {"action": {"type": "build", "cities": ["\u0000"]}}),
        ("/api/v1/games/", {"map": "germany\u0000", "max_players": 2}),
        ("/api/v1/webhooks/", {"url": "https://hooks.example/\u0000", "events": ["your_turn"]}),
        ("/api/v1/games/{gid}/plans/", {"kind": "auto_pass", "note\u0000": 1}),
    ],
)
def test_a_nul_character_in_a_json_body_is_a_400_never_a_500(new_game, path, body):
    """No field of the API takes a NUL character (U+0000), and PostgreSQL stores none: the
    body is refused as it is read, whatever the endpoint (and a retry with the same
    Idempotency-Key gets the same answer)."""
    gid, ps = new_game(players=2)
    for key in (None, "nul-key"):
        extra = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
        r = Client().post(
            path.format(gid=gid),
            json.dumps(body),
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Token {ps[0].token}",
            **extra,
        )
        assert r.status_code == 400, r.content
        assert r.json()["error"]["code"] == "parse_error"


@pytest.mark.parametrize("number", ["1", "12345678901234567890"])
def test_a_body_nested_too_deep_is_a_400_whichever_parser_reads_it(make_player, number):
    """orjson stops at 1024 levels; a body with a long integer is read by Python's json, which
    recursed until the stack ran out (a 500)."""
    p = make_player()
    body = "[" * 5000 + number + "]" * 5000
    r = Client().post(
        "/api/v1/games/",
        body,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {p.token}",
    )
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "parse_error"


def test_errors_of_the_non_rest_views_under_api_are_json_too(make_player):
    """The documentation pages, the schema and the event stream are under /api/ but are not the
    REST views whose errors the exception handler writes: a wrong method there was an HTML or
    YAML body, and a session's POST without its CSRF token Django's HTML 403 page."""
    p = make_player()
    anon = Client()
    cases = [
        (anon.post("/api/docs/"), 405, "method_not_allowed"),
        (anon.post("/api/redoc/"), 405, "method_not_allowed"),
        (anon.put("/api/schema/"), 405, "method_not_allowed"),
    ]
    session = Client(enforce_csrf_checks=True)
    session.force_login(p.user)
    cases += [
        (session.post("/api/v1/stream/?game=1"), 403, "permission_denied"),
        (session.post("/api/docs/"), 403, "permission_denied"),
    ]
    for r, status, code in cases:
        assert r.status_code == status, r.content
        assert r["Content-Type"].startswith("application/json"), r["Content-Type"]
        assert r.json()["error"]["code"] == code
        assert r.json()["error"]["message"]
        assert int(r.get("Content-Length", len(r.content))) == len(r.content)


@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize("method", ["GET", "POST", "PUT", "PATCH", "DELETE"])
def test_an_api_url_without_its_slash_is_a_308_that_keeps_the_method(make_player, method, debug):
    """Django answered 301 (re-sent as a GET: a POST's body lost) and, with DEBUG, raised
    RuntimeError for a write (a 500). Under /api/ it is 308 to the slashed URL, JSON."""
    p = make_player()
    with override_settings(DEBUG=debug):
        r = p.client.generic(
            method, "/api/v1/games?mine=1", json.dumps({"x": 1}), content_type="application/json"
        )
    assert r.status_code == 308, r.content
    assert r["Location"] == "/api/v1/games/?mine=1"
    assert r["Content-Type"].startswith("application/json")
    error = r.json()["error"]
    assert error["code"] == "trailing_slash_missing"
    assert error["details"] == {"location": "/api/v1/games/?mine=1"}
    assert error["message"]


@pytest.mark.parametrize("debug", [False, True])
def test_a_post_without_the_slash_is_made_where_the_redirect_leads(make_player, debug):
    from games.models import Game

    p = make_player()
    with override_settings(DEBUG=debug):
        r = p.client.post(
            "/api/v1/games", {"map": "germany", "max_players": 2}, format="json", follow=True
        )
    assert r.status_code == 201, r.content
    assert r.redirect_chain == [("/api/v1/games/", 308)]
    assert Game.objects.filter(pk=r.json()["id"]).exists()


@pytest.mark.parametrize("debug", [False, True])
def test_an_api_url_that_exists_in_neither_form_is_json_404(make_player, debug):
    p = make_player()
    with override_settings(DEBUG=debug):
        for method in ("GET", "POST", "DELETE"):
            r = p.client.generic(method, "/api/v1/nothing-here", "{}", "application/json")
            assert r.status_code == 404, (method, r.status_code)
            assert r.json()["error"]["code"] == "not_found"


def test_a_page_without_its_slash_keeps_djangos_301():
    r = Client().get("/accounts/login")
    assert r.status_code == 301
    assert r["Location"] == "/accounts/login/"


@pytest.mark.parametrize("debug", [False, True])
def test_a_pages_form_sent_without_its_slash_is_sent_on_not_a_500(debug):
    """With DEBUG Django raised RuntimeError for a POST to a page without its slash (a 500);
    without, its 301 made the browser drop the form. A 308 sends the form on."""
    with override_settings(DEBUG=debug):
        r = Client().post("/accounts/login?next=/games/", {"login": "x", "password": "y"})
    assert r.status_code == 308
    assert r["Location"] == "/accounts/login/?next=/games/"
