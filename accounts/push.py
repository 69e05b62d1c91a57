"""A player's devices for Web Push (``PushSubscription``): added by the page's script or the API,
listed, switched on or off for turn notices (the per-device choice), removed by the player or
when the push service says the subscription is gone. And the site's VAPID key pair (RFC 8292).

The VAPID keys are configuration, never made by a deploy: ``WEBPUSH_VAPID_PRIVATE_KEY`` (the
private key, base64url of its 32 bytes or of its DER, as ``manage.py vapid_keys`` prints it),
else the PEM file ``var/vapid_private.pem`` that ``manage.py vapid_keys --write`` makes once (the
embedded set-up). A new key would orphan every subscription (browsers bind a subscription to the
key it was made with), so nothing here ever makes one. No key: Web Push is off (the settings
page says so; subscribing answers 409 ``push_unavailable``, after the subscription's own checks).
"""

from __future__ import annotations

import base64
import binascii
import re
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import IntegrityError, transaction
from py_vapid import Vapid, b64urlencode

from .models import Profile, PushSubscription

#: Devices one player may subscribe (an old browser's subscription is replaced, not added, when
#: it subscribes again with the same endpoint).
MAX_PER_USER = 20


class PushError(Exception):
    """A refused subscription change: ``code`` and ``status`` as the API answers them."""

    status = 400
    code = "invalid_subscription"

    def __init__(self, message: str, *, field: str = "", code: str = "", status: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.details: dict[str, object] = {"field": field} if field else {}
        if code:
            self.code = code
        if status:
            self.status = status


def _not_found() -> PushError:
    return PushError("You have no such device.", code="subscription_not_found", status=404)


# -- the VAPID keys -----------------------------------------------------------------------------


@cache
def _vapid(private: str, path: str) -> Vapid | None:
    if private:
        return Vapid.from_string(private_key=private)
    if path and Path(path).is_file():
        return Vapid.from_file(private_key_file=path)
    return None


def vapid() -> Vapid | None:
    """The site's VAPID key pair, or None when none is configured (Web Push is then off)."""
    return _vapid(
        str(getattr(settings, "WEBPUSH_VAPID_PRIVATE_KEY", "") or ""),
        str(getattr(settings, "WEBPUSH_VAPID_KEY_FILE", "") or ""),
    )


def public_key() -> str:
    """The application server key a page gives ``pushManager.subscribe`` (base64url of the
    uncompressed P-256 point), or "" when Web Push is off."""
    v = vapid()
    if v is None:
        return ""
    from cryptography.hazmat.primitives import serialization

    raw = v.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64urlencode(raw)


def forget() -> None:
    """Read the key from the settings again (after ``manage.py vapid_keys``, in tests)."""
    _vapid.cache_clear()


def enabled() -> bool:
    return vapid() is not None


# -- checking what a browser sends --------------------------------------------------------------

_B64URL = re.compile(r"[A-Za-z0-9_-]+={0,2}")


def _b64url_bytes(value: object, field: str, length: int) -> str:
    if not isinstance(value, str) or not _B64URL.fullmatch(value) or len(value) > 200:
        raise PushError(f"'{field}' must be base64url.", field=field)
    try:
        raw = base64.urlsafe_b64decode(value.rstrip("=") + "=" * (-len(value.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        raise PushError(f"'{field}' must be base64url.", field=field) from None
    if len(raw) != length or (field == "keys.p256dh" and raw[0] != 4):
        raise PushError(f"'{field}' is not a key of the right kind.", field=field)
    return value.rstrip("=")


def endpoint_allowed(url: str) -> bool:
    """Whether ``url`` is a push service's: https and a host under ``WEBPUSH_SERVICE_HOSTS``
    (the browsers' push services). The server posts to it: any other address would let a page
    make the server post where it likes. ``WEBPUSH_ALLOW_ANY_ENDPOINT`` (tests and development
    only) lets a local push service in."""
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        _ = parts.port
    except ValueError:
        return False
    if getattr(settings, "WEBPUSH_ALLOW_ANY_ENDPOINT", False):
        return parts.scheme in ("http", "https") and bool(host)
    if parts.scheme != "https" or parts.username or parts.password:
        return False
    return any(host == h or host.endswith("." + h) for h in settings.WEBPUSH_SERVICE_HOSTS if h)


def _endpoint(value: object) -> str:
    if not isinstance(value, str) or not value or len(value) > 1000:
        raise PushError("'endpoint' must be the subscription's URL.", field="endpoint")
    if not endpoint_allowed(value):
        raise PushError(
            "'endpoint' is not the address of a browser's push service.", field="endpoint"
        )
    return value


def _label(value: object) -> str:
    if value is None:
        return ""
    if not isinstance(value, str) or len(value) > 80 or any(ord(c) < 32 for c in value):
        raise PushError("'name' is at most 80 characters of text.", field="name")
    return value.strip()


# -- the services -------------------------------------------------------------------------------


def _uid(user: AbstractBaseUser | AnonymousUser) -> int:
    return int(user.pk or 0)


def _flag(user_id: int) -> None:
    """``Profile.push_turns``: whether any of the player's devices takes turn notices."""
    on = PushSubscription.objects.filter(user_id=user_id, turns=True).exists()
    Profile.objects.filter(user_id=user_id).exclude(push_turns=on).update(push_turns=on)


def subscribe(
    *,
    user: AbstractBaseUser | AnonymousUser,
    endpoint: object,
    keys: object,
    label: object = None,
    turns: object = None,
) -> tuple[PushSubscription, bool]:
    """Add the device (or renew it: the same endpoint again, its keys updated, its label and
    choice kept unless given); (row, created). New devices take turn notices by default.
    A subscription another player's browser made on this device moves to this player (one
    endpoint is one browser profile: the last to sign in there gets its notices)."""
    # What was sent first (a bad subscription is the client's to fix whatever the server's
    # set-up), then whether this server can send at all.
    url = _endpoint(endpoint)
    if not isinstance(keys, dict) or set(keys) - {"p256dh", "auth"}:
        raise PushError("'keys' must hold p256dh and auth.", field="keys")
    p256dh = _b64url_bytes(keys.get("p256dh"), "keys.p256dh", 65)
    auth = _b64url_bytes(keys.get("auth"), "keys.auth", 16)
    name = _label(label)
    if turns is not None and not isinstance(turns, bool):
        raise PushError("'turns' must be true or false.", field="turns")
    if not enabled():  # not a 503: no retry makes it work (GET /api/v1/push/key/ says it is off)
        raise PushError(
            "Web Push is not configured on this server.", code="push_unavailable", status=409
        )
    uid = _uid(user)
    with transaction.atomic():
        mine = PushSubscription.objects.filter(user_id=uid).exclude(endpoint=url).count()
        if mine >= MAX_PER_USER:
            raise PushError(f"At most {MAX_PER_USER} devices per player.", field="endpoint")
        before = PushSubscription.objects.select_for_update().filter(endpoint=url).first()
        fields: dict[str, object] = {"user_id": uid, "p256dh": p256dh, "auth": auth}
        if label is not None or before is None or before.user_id != uid:
            fields["label"] = name
        if turns is not None or before is None or before.user_id != uid:
            fields["turns"] = True if turns is None else turns
        try:
            with transaction.atomic():
                row, created = PushSubscription.objects.update_or_create(
                    endpoint=url, defaults=fields
                )
        except IntegrityError:  # made at this instant by another request for the same browser
            row, created = PushSubscription.objects.get(endpoint=url), False
        _flag(uid)
        if before is not None and before.user_id != uid:
            _flag(before.user_id)
    return row, created


def devices(user: AbstractBaseUser | AnonymousUser) -> list[PushSubscription]:
    return list(PushSubscription.objects.filter(user_id=_uid(user)).order_by("created_at"))


def device_set(
    *, user: AbstractBaseUser | AnonymousUser, device_id: int, turns: object
) -> PushSubscription:
    """The per-device choice: turn notices on this device or not."""
    if not isinstance(turns, bool):
        raise PushError("'turns' must be true or false.", field="turns")
    with transaction.atomic():
        n = PushSubscription.objects.filter(pk=device_id, user_id=_uid(user)).update(turns=turns)
        if not n:
            raise _not_found()
        _flag(_uid(user))
    return PushSubscription.objects.get(pk=device_id)


def unsubscribe(
    *, user: AbstractBaseUser | AnonymousUser, device_id: int | None = None, endpoint: str = ""
) -> None:
    """Remove a device of the player's (by id, or by endpoint: the page's script knows only
    that). A device that is not theirs is not found."""
    mine = PushSubscription.objects.filter(user_id=_uid(user))
    with transaction.atomic():
        if device_id is not None:
            deleted, _ = mine.filter(pk=device_id).delete()
        else:
            deleted, _ = mine.filter(endpoint=endpoint).delete() if endpoint else (0, {})
        if not deleted:
            raise _not_found()
        _flag(_uid(user))


def gone(subscription_id: int) -> None:
    """The push service answered 404 or 410: the subscription no longer exists (the browser
    unsubscribed, the app was uninstalled, it expired). Deleted, with its waiting messages."""
    with transaction.atomic():
        row = PushSubscription.objects.filter(pk=subscription_id).first()
        if row is None:
            return
        row.delete()
        _flag(row.user_id)
