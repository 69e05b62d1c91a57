"""Signed links in emails (``django.core.signing``).

* Game link: ``/mail/go/<token>/`` opens the game. The token is a ``TimestampSigner`` signature
  over the user and game ids, a fingerprint of the user's password hash (changing the password
  voids every link sent before) and one of their last login. A GET never logs anyone in (mail
  scanners follow links): the recipient already logged in goes straight to the game; anyone else
  sees a page whose one button (a POST) logs the recipient in, once: the login changes their last
  login, which voids the link for logging in again (and so does any other login since the email).
  Opening lasts ``NOTIFY_LINK_MAX_AGE_DAYS`` (14); logging in only
  ``NOTIFY_LINK_LOGIN_MAX_AGE_HOURS`` (48). Another user's session is never replaced without
  that button.
* Settings link: ``/mail/settings/<token>/`` (also the ``List-Unsubscribe`` URL) changes the
  recipient's notification mode without logging in: GET shows a confirmation page, POST changes it
  (RFC 8058 one-click: a POST with ``List-Unsubscribe=One-Click`` turns emails off). Its token is
  a ``TimestampSigner`` signature over the user id and the same password fingerprint as the game
  link's, so it works ``NOTIFY_SETTINGS_LINK_MAX_AGE_DAYS`` (60: longer than the game link, as an
  unsubscribe link in an old email should) and never after a password change; an expired link's
  page says so and offers the profile page (log in) instead. Every email carries a fresh one.
"""

from __future__ import annotations

import functools
from urllib.parse import quote

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import User
from django.core import signing
from django.db import transaction
from django.urls import NoReverseMatch, get_urlconf, reverse
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.http import RFC3986_SUBDELIMS

LOGIN_SALT = "games.notifications.login-link"
SETTINGS_SALT = "games.notifications.settings-link"


def link_max_age() -> int:
    return int(settings.NOTIFY_LINK_MAX_AGE_DAYS) * 86400


def login_max_age() -> int:
    return int(settings.NOTIFY_LINK_LOGIN_MAX_AGE_HOURS) * 3600


def _fingerprint(user: AbstractBaseUser) -> str:
    return salted_hmac(LOGIN_SALT, user.password or "-", algorithm="sha256").hexdigest()[:12]


def _login_mark(user: AbstractBaseUser) -> str:
    """Changes whenever the user logs in: what makes a link log in at most once."""
    last = user.last_login.isoformat() if user.last_login else "-"
    return salted_hmac(LOGIN_SALT + ".last-login", last, algorithm="sha256").hexdigest()[:8]


def login_token(*, user: AbstractBaseUser, game_id: int) -> str:
    # Not compress=True: the payload is ~50 bytes, which zlib never shortens but its set-up cost
    # ~60 us an email.
    signer = signing.TimestampSigner(salt=LOGIN_SALT)
    return signer.sign_object(
        {"u": user.pk, "g": game_id, "h": _fingerprint(user), "l": _login_mark(user)}
    )


def login_token_check(
    token: str, *, to_log_in: bool = False, lock: bool = False
) -> tuple[User, int]:
    """(user, game_id) for a valid token. Raises signing.BadSignature / SignatureExpired.

    ``to_log_in``: the token is to log its user in, which it may do once and only within the
    shorter login age (an older link still opens the game for its logged-in recipient).
    ``lock``: the user's row is locked (inside the caller's transaction)."""
    signer = signing.TimestampSigner(salt=LOGIN_SALT)
    data = signer.unsign_object(token, max_age=login_max_age() if to_log_in else link_max_age())
    users = get_user_model().objects.filter(pk=data.get("u"), is_active=True)
    user = (users.select_for_update() if lock else users).first()
    if user is None or data.get("h") != _fingerprint(user):
        raise signing.BadSignature("unknown user or password changed")
    if to_log_in and data.get("l") != _login_mark(user):
        raise signing.BadSignature("used already, or the user logged in since")
    return user, int(data["g"])


def login_token_use(token: str) -> tuple[User, int]:
    """Spend a token's one login: (user, game_id) if it may still log in, and from now on it may
    not (the user's last login moves, which changes the mark the token carries). Checking and
    spending hold the user's row, so of two uses at once the second sees the first's mark.
    Raises signing.BadSignature / SignatureExpired. The caller then logs the user in."""
    with transaction.atomic():
        user, game_id = login_token_check(token, to_log_in=True, lock=True)
        user.last_login = timezone.now()
        user.save(update_fields=["last_login"])
    return user, game_id


def login_token_valid_for_login(token: str) -> bool:
    """Whether the token may still log its user in (not used, not too old)."""
    try:
        login_token_check(token, to_log_in=True)
    except signing.BadSignature:  # SignatureExpired included
        return False
    return True


def settings_max_age() -> int:
    return int(settings.NOTIFY_SETTINGS_LINK_MAX_AGE_DAYS) * 86400


def settings_token(*, user: AbstractBaseUser) -> str:
    signer = signing.TimestampSigner(salt=SETTINGS_SALT)
    return signer.sign_object({"u": user.pk, "h": _fingerprint(user)})


def settings_token_check(token: str) -> AbstractBaseUser:
    """The user of a valid settings token. Raises signing.SignatureExpired (too old) or
    signing.BadSignature (forged, an unknown user, or the password changed since)."""
    signer = signing.TimestampSigner(salt=SETTINGS_SALT)
    data = signer.unsign_object(token, max_age=settings_max_age())
    user = get_user_model().objects.filter(pk=data.get("u")).first()
    if user is None or data.get("h") != _fingerprint(user):
        raise signing.BadSignature("unknown user or password changed")
    return user


def absolute(path: str) -> str:
    return settings.SITE_URL + path


_PLACEHOLDER = "TOKEN0PLACEHOLDER"


@functools.lru_cache(maxsize=8)
def _url_around(name: str, urlconf: str | None) -> tuple[str, str]:
    """The URL of ``name`` split around its token (``reverse`` once, not once per email)."""
    url = reverse(name, args=[_PLACEHOLDER], urlconf=urlconf)
    before, _, after = url.partition(_PLACEHOLDER)
    return before, after


def _url(name: str, token: str) -> str:
    before, after = _url_around(name, get_urlconf())
    return absolute(f"{before}{quote(token, safe=RFC3986_SUBDELIMS + '/~:@')}{after}")


def game_link(*, user: AbstractBaseUser, game_id: int) -> str:
    return _url("mail_login_link", login_token(user=user, game_id=game_id))


def settings_link(*, user: AbstractBaseUser) -> str:
    return _url("mail_settings", settings_token(user=user))


def game_path(game_id: int) -> str:
    """The game's page (the web pages' URL when they exist, else the API's game object)."""
    for name in ("game", "game_detail", "games:game", "games:detail", "web:game"):
        try:
            return reverse(name, args=[game_id])
        except NoReverseMatch:
            continue
    return f"/api/v1/games/{game_id}/"
