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
