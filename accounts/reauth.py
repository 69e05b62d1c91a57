"""Recent authentication: what a session must have shown before it may hand part of the account
to the outside for good.

A session can be had without the password: the button of an email's game link logs its holder in
once (``games.notifications.links``), and a shared computer keeps a session open. Such a session
may play, but whatever outlives it must ask for the password again (allauth's reauthentication
page, valid ``ACCOUNT_REAUTHENTICATION_TIMEOUT`` seconds): an email address, the password, an API
token (allauth, ``accounts.views.tokens``), and a webhook, a calendar feed's address and the
one-way bot account upgrade (``games.web``, and the API for a session: ``games.api.auth``).

The pages use allauth's ``reauthentication_required`` decorator (a redirect to the password page,
then the suspended POST is made); the API cannot redirect, so it asks ``recently_authenticated``.
"""

from __future__ import annotations

from allauth.account.internal.flows.reauthentication import did_recently_reauthenticate
from django.http import HttpRequest
from django.urls import reverse


def recently_authenticated(request: HttpRequest) -> bool:
    """Whether the session's user gave their password on the reauthentication page in the last
    ``ACCOUNT_REAUTHENTICATION_TIMEOUT`` seconds: what allauth's ``reauthentication_required``
    decorator checks (a login alone does not count, a link's login least of all). An account
    without a password (none here sign up so) passes, as allauth lets it."""
    return request.user.is_authenticated and did_recently_reauthenticate(request)


def reauthenticate_path() -> str:
    return reverse("account_reauthenticate")
