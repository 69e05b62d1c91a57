"""The token's scheme: ``Authorization: Bearer <token>`` (what the schema declares, so generated
clients send it) and ``Token <token>`` both authenticate, on the REST API and on the event stream;
any other header is a 401 whose message names the scheme to use."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory

from games.stream.views import _who
from tests.api_schema import ValidatingAPIClient as APIClient

pytestmark = pytest.mark.django_db

GOOD = ["Bearer {t}", "Token {t}", "bearer {t}", "TOKEN {t}", "  Bearer   {t}  "]
BAD = [
    "Basic dXNlcjpwYXNz",
    "JWT {t}",
    "{t}",
    "Bearer",
    "Token",
    "Bearer {t} extra",
    "Bearer: {t}",
    "Tokens {t}",
]


def _client(header: str) -> APIClient:
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=header)
    return c


@pytest.mark.parametrize("form", GOOD)
def test_each_accepted_form_authenticates_rest_and_stream(make_player, form):
    p = make_player()
    header = form.format(t=p.token)
    assert _client(header).get("/api/v1/me/").json()["username"] == p.user.username
    request = RequestFactory().get("/api/v1/stream/", HTTP_AUTHORIZATION=header)
    request.user = AnonymousUser()  # the header alone must do it
    who, error = _who(request)
    assert error is None
    assert who is not None
    assert who.user == p.user


@pytest.mark.parametrize("form", BAD)
def test_any_other_header_is_a_401_naming_the_scheme(make_player, form):
    p = make_player()
    header = form.format(t=p.token)
    r = _client(header).get("/api/v1/me/")
    assert r.status_code == 401, r.content
    body = r.json()["error"]
    assert body["code"] == "authentication_failed"
    assert "Bearer <token>" in body["message"]
    assert r["WWW-Authenticate"].startswith("Bearer")
    request = RequestFactory().get("/api/v1/stream/", HTTP_AUTHORIZATION=header)
    _who_asks, error = _who(request)
    assert error is not None
    assert error.status_code == 401
    assert b"Bearer <token>" in error.content


def test_a_wrong_token_after_a_right_scheme_is_refused():
    for scheme in ("Bearer", "Token"):
        r = _client(f"{scheme} " + "0" * 64).get("/api/v1/me/")
        assert r.status_code == 401
        assert r.json()["error"]["code"] == "authentication_failed"


def test_the_schema_declares_http_bearer():
    schema = APIClient().get("/api/schema/?format=json").json()
    scheme = schema["components"]["securitySchemes"]["tokenAuth"]
    assert scheme["type"] == "http"
    assert scheme["scheme"] == "bearer"
    me = schema["paths"]["/api/v1/me/"]["get"]
    assert {"tokenAuth": []} in me["security"]


#: The endpoints a visitor without a token or session may call (docs/API.md, "Who needs a
#: caller"), by URL name, each with the path the documentation names it by.
ANSWERS_A_VISITOR = {
    "api_schema": "/api/schema/",
    "api_v1_schema": "/api/v1/schema/",
    "api_docs": "/api/docs/",
    "api_redoc": "/api/redoc/",
    "api_token": "/api/v1/auth/token/",
    "api_maps": "/api/v1/maps/",
    "api_map": "/maps/{slug}/",
    "api_bot_levels": "/api/v1/bot-levels/",
    "api_player": "/api/v1/players/{username}/",
    "api_push_key": "/api/v1/push/key/",
    "api_game_record": "/record/",
    "api_game_result": "/result/",
    "api_game_forecast": "/forecast/",
    "api_game_chat": "/api/v1/games/{id}/chat/",
}


def _api_views():
    """Every URL pattern of the REST API with its view class, by name."""
    from django.urls import get_resolver

    out = {}

    def walk(patterns):
        for p in patterns:
            if hasattr(p, "url_patterns"):
                walk(p.url_patterns)
            elif p.name and p.name.startswith("api_"):
                cls = getattr(p.callback, "cls", None) or getattr(p.callback, "view_class", None)
                if cls is not None and hasattr(cls, "permission_classes"):
                    out[p.name] = cls

    walk(get_resolver().url_patterns)
    return out


def test_the_endpoints_that_answer_a_visitor_are_the_documented_ones():
    """A view that lets a visitor in (``AllowAny``) is one docs/API.md names as such; every
    other REST endpoint asks for a caller (401 ``not_authenticated``): a new public endpoint
    must be documented, and a documented one must be so."""
    from pathlib import Path

    from rest_framework.permissions import AllowAny

    views = _api_views()
    assert len(views) > 40
    open_to_all = {
        name for name, cls in views.items() if any(p is AllowAny for p in cls.permission_classes)
    }
    assert open_to_all == set(ANSWERS_A_VISITOR)
    docs = Path(__file__).resolve().parents[2] / "docs" / "API.md"
    text = docs.read_text()
    section = text[text.index("**Who needs a caller.**") :][:1400]
    for name, path in ANSWERS_A_VISITOR.items():
        assert path in section.replace("\n", " ").replace("` `", ""), (name, path)


def test_a_visitor_gets_a_401_from_a_game_and_the_tournaments(new_game):
    gid, _ps = new_game(players=2)
    c = APIClient()
    for path in (f"/api/v1/games/{gid}/", "/api/v1/games/", "/api/v1/tournaments/"):
        r = c.get(path)
        assert (r.status_code, r.json()["error"]["code"]) == (401, "not_authenticated"), path
    assert c.get("/api/v1/maps/").status_code == 200
