"""The client's address, for every count per client (the API's throttles, failed logins, open
event streams), from one place: ``accounts.addresses.client_address`` with ``TRUSTED_PROXIES``.

0 (the embedded default: clients connect directly) ignores ``X-Forwarded-For``, which anyone can
write: rotating it must not escape a limit. N (production behind the documented nginx: 1) takes
the address our own outermost proxy appended, the N-th from the right; what the client wrote to
the left of it is ignored."""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory

from accounts.addresses import client_address

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("trusted", "forwarded", "remote", "want"),
    [
        (0, "", "192.0.2.1", "192.0.2.1"),
        (0, "203.0.113.7", "192.0.2.1", "192.0.2.1"),  # the header ignored
        (0, "203.0.113.7, 198.51.100.2", "192.0.2.1", "192.0.2.1"),
        (1, "203.0.113.7", "127.0.0.1", "203.0.113.7"),  # behind nginx
        (1, "10.9.9.9, 203.0.113.7", "127.0.0.1", "203.0.113.7"),  # the client wrote 10.9.9.9
        (1, "", "127.0.0.1", "127.0.0.1"),  # no header: the connection's address
        (2, "6.6.6.6, 203.0.113.7, 10.0.0.2", "10.0.0.1", "203.0.113.7"),
        (2, "203.0.113.7", "10.0.0.1", "10.0.0.1"),  # fewer hops than proxies: the connection
        (1, "not-an-address", "127.0.0.1", "127.0.0.1"),
        (1, " 2001:db8::1 ", "::1", "2001:db8::1"),
        (0, "", "", ""),
    ],
)
def test_the_client_address(settings, trusted, forwarded, remote, want):
    settings.TRUSTED_PROXIES = trusted
    extra = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded else {}
    request = RequestFactory().get("/", REMOTE_ADDR=remote, **extra)
    assert client_address(request) == want


def _maps(forwarded: str, remote: str = "192.0.2.1") -> int:
    return (
        Client(REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded).get("/api/v1/maps/").status_code
    )


def _rate(settings, rate: str) -> None:
    rf = dict(settings.REST_FRAMEWORK)
    rf["DEFAULT_THROTTLE_RATES"] = {**rf["DEFAULT_THROTTLE_RATES"], "anon": rate}
    settings.REST_FRAMEWORK = rf


def test_without_trusted_proxies_a_rotating_header_does_not_escape_the_throttle(settings):
    """The attack run's case: a new X-Forwarded-For for every request removed the limit."""
    settings.TRUSTED_PROXIES = 0
    _rate(settings, "3/min")
    codes = [_maps(f"203.0.113.{i}") for i in range(6)]
    assert codes == [200] * 3 + [429] * 3


def test_behind_one_proxy_each_client_is_counted_by_the_address_it_appended(settings):
    settings.TRUSTED_PROXIES = 1
    _rate(settings, "3/min")
    # One client, whatever it writes before the proxy's entry: limited.
    codes = [_maps(f"10.0.0.{i}, 203.0.113.9", remote="127.0.0.1") for i in range(5)]
    assert codes == [200] * 3 + [429] * 2
    # Another client behind the same proxy has a budget of its own.
    assert _maps("203.0.113.10", remote="127.0.0.1") == 200


def test_the_settings_say_the_same_to_every_counter(settings):
    """DRF's and allauth's own readings follow the one setting (config/settings.py)."""
    from django.conf import settings as live

    assert live.REST_FRAMEWORK["NUM_PROXIES"] == live.TRUSTED_PROXIES
    assert live.ALLAUTH_TRUSTED_PROXY_COUNT == live.TRUSTED_PROXIES
    assert live.TRUSTED_PROXIES == 0  # the embedded default


def test_production_sets_one_trusted_proxy():
    """deploy/env.example (what production sets) trusts the one nginx in front of it."""
    from pathlib import Path

    env = (Path(__file__).resolve().parent.parent / "deploy" / "env.example").read_text()
    assert "\nTRUSTED_PROXIES=1\n" in env
