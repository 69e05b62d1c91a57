"""Whether our emails reach a player, and what follows when they do not.

An address is *undeliverable* once the provider or the receiving mail system told us so
(``games.mailevents`` decides when: a hard bounce, a refusal or a complaint at once, soft bounces
after a count). The fact lives on the player's ``Profile`` (``email_undeliverable_*``) and holds
only for the address it was found for: a player whose ``User.email`` is another address now is
not concerned.

While it holds:
  * the outbox sends nothing to the address and says why on each row
    (``games.notifications.sending``);
  * every page shows the player a banner until they confirm a working address with allauth's
    confirmation email (``address_confirmed``, from allauth's ``email_confirmed`` and
    ``email_changed`` signals). So that allauth can confirm it again, the address's verified
    mark is taken off; ``accounts.stages`` still lets the player log in with it;
  * a player not seen on the site since (``absent``) gets a longer grace before each deadline's
    default move (``games.turns``), and the other players see on the game page that this player
    is not receiving emails.

A complaint also turns the player's emails off (``emails_off``): they asked for no more mail.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from allauth.account.models import EmailAddress
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .models import Profile

#: Reasons, as stored in ``Profile.email_undeliverable_reason``.
HARD_BOUNCE = "hard_bounce"
SOFT_BOUNCES = "soft_bounces"
REJECTED = "rejected"
COMPLAINT = "complaint"
REASONS = (HARD_BOUNCE, SOFT_BOUNCES, REJECTED, COMPLAINT)

#: A signed-in page view writes ``last_seen_at`` at most this often.
LAST_SEEN_EVERY = timedelta(minutes=10)


def _profile(user: Any) -> Profile | None:
    return getattr(user, "profile", None) if user is not None else None


def undeliverable(user: Any) -> bool:
    """Whether emails to ``user``'s current address are known not to arrive (no query: the
    profile is read with the user wherever emails and seats are)."""
    return undeliverable_state(user) is not None


def undeliverable_state(user: Any, profile: Profile | None = None) -> tuple[str, datetime] | None:
    """(reason, since) while emails to ``user``'s current address are known not to arrive, else
    None: what ``GET /api/v1/me/`` says (``profile``: the one the caller holds, when it has
    one)."""
    profile = profile if profile is not None else _profile(user)
    if profile is None or profile.email_undeliverable_at is None:
        return None
    email = (getattr(user, "email", "") or "").strip().lower()
    if not email or email != profile.email_undeliverable_address.lower():
        return None
    return profile.email_undeliverable_reason, profile.email_undeliverable_at


def absent(user: Any) -> bool:
    """Undeliverable, and not seen on the site since: the player may not know of their turns."""
    if not undeliverable(user):
        return False
    profile = _profile(user)
    since = profile.email_undeliverable_at if profile is not None else None
    if profile is None or since is None:
        return False
    seen = profile.last_seen_at
    return seen is None or seen < since


def absent_grace() -> timedelta:
    """How much later an absent player's deadlines are: ``MAIL_UNDELIVERABLE_GRACE_HOURS``."""
    return timedelta(hours=int(settings.MAIL_UNDELIVERABLE_GRACE_HOURS))


def why(user: Any) -> str:
    """The stored reason, or "" when the address is fine."""
    profile = _profile(user)
    return profile.email_undeliverable_reason if profile and undeliverable(user) else ""


def address_mark_undeliverable(*, user: Any, address: str, reason: str, at: datetime) -> bool:
    """Mark ``address`` (the user's current one) undeliverable; True when it was not already.

    One conditional UPDATE, so two reports at once mark it once. The address's allauth record
    loses its verified mark (allauth confirms only unverified addresses); that it had one is
    remembered, so the log-in stage lets the player in as before."""
    if reason not in REASONS:
        raise ValueError(f"unknown reason {reason!r}")
    address = address.strip().lower()
    with transaction.atomic():
        changed = (
            Profile.objects.filter(user_id=user.pk)
            .exclude(email_undeliverable_at__isnull=False, email_undeliverable_address=address)
            .update(
                email_undeliverable_at=at,
                email_undeliverable_address=address,
                email_undeliverable_reason=reason,
            )
        )
        if not changed:
            return False
        was_verified = (
            EmailAddress.objects.filter(
                user_id=user.pk, email__iexact=address, verified=True
            ).update(verified=False)
            > 0
        )
        if was_verified:
            Profile.objects.filter(user_id=user.pk).update(email_unverified_by_bounce=True)
    profile = _profile(user)
    if profile is not None:
        profile.email_undeliverable_at = at
        profile.email_undeliverable_address = address
        profile.email_undeliverable_reason = reason
        profile.email_unverified_by_bounce = profile.email_unverified_by_bounce or was_verified
    return True


def reason_set(*, user: Any, reason: str) -> None:
    """A complaint about an address already undeliverable for another reason: the stored reason
    becomes the complaint (the banner then says why emails stopped)."""
    Profile.objects.filter(user_id=user.pk, email_undeliverable_at__isnull=False).update(
        email_undeliverable_reason=reason
    )
    profile = _profile(user)
    if profile is not None and profile.email_undeliverable_at is not None:
        profile.email_undeliverable_reason = reason


def emails_off(*, user: Any) -> bool:
    """Turn the player's game emails off (a complaint, an unsubscription at the provider); True
    when they were on."""
    changed = (
        Profile.objects.filter(user_id=user.pk)
        .exclude(notification_mode=Profile.NotificationMode.NONE)
        .update(notification_mode=Profile.NotificationMode.NONE)
    )
    profile = _profile(user)
    if profile is not None:
        profile.notification_mode = Profile.NotificationMode.NONE
    return bool(changed)


def soft_bounces_since(user: Any) -> datetime | None:
    """Soft bounces count from the last confirmation of a working address on."""
    profile = _profile(user)
    return profile.email_confirmed_at if profile is not None else None


def address_confirmed(*, user: Any, address: str) -> bool:
    """allauth confirmed ``address`` for ``user`` (the player clicked the link in its email): if
    it is the address we send to, it works, so the mark goes. True when a mark was cleared."""
    email = (getattr(user, "email", "") or "").strip().lower()
    address = address.strip().lower()
    now = timezone.now()
    if not email or address != email:
        return False
    cleared = (
        Profile.objects.filter(user_id=user.pk)
        .filter(email_undeliverable_at__isnull=False)
        .update(
            email_undeliverable_at=None,
            email_undeliverable_address="",
            email_undeliverable_reason="",
            email_unverified_by_bounce=False,
            email_confirmed_at=now,
        )
    )
    if not cleared:
        Profile.objects.filter(user_id=user.pk).update(email_confirmed_at=now)
    profile = _profile(user)
    if profile is not None:
        profile.email_confirmed_at = now
        if cleared:
            profile.email_undeliverable_at = None
            profile.email_undeliverable_address = ""
            profile.email_undeliverable_reason = ""
            profile.email_unverified_by_bounce = False
    return bool(cleared)


def seen(user: Any, *, now: datetime | None = None) -> None:
    """A signed-in page view: ``last_seen_at`` is written when older than ``LAST_SEEN_EVERY``
    (one UPDATE per player per ten minutes at most; the profile is already read)."""
    profile = _profile(user)
    if profile is None or profile.pk is None:
        return
    now = now or timezone.now()
    last = profile.last_seen_at
    failed = profile.email_undeliverable_at
    if last is not None and now - last < LAST_SEEN_EVERY and (failed is None or last >= failed):
        return  # written lately (and not before the address failed: that visit must count)
    Profile.objects.filter(pk=profile.pk).update(last_seen_at=now)
    profile.last_seen_at = now


#: One confirmation email per player per this many seconds from the banner's button.
CONFIRMATION_EVERY_SECONDS = 180


def confirmation_send(*, request: Any, user: Any) -> str | None:
    """Send allauth's confirmation email to the player's undeliverable address (the banner's
    button); the address, or None when there is nothing to confirm or one was sent moments ago.

    The address needs an allauth record that is not verified (allauth confirms only those): an
    account made without sign-up gets one now; a record verified since the bounce loses the
    mark, remembered as the bounce's (``accounts.stages`` lets the player in)."""
    from django.core.cache import cache

    if not undeliverable(user):
        return None
    if not cache.add(f"reconfirm:{user.pk}", 1, timeout=CONFIRMATION_EVERY_SECONDS):
        return None
    address = user.email.strip()
    with transaction.atomic():
        record = EmailAddress.objects.filter(user_id=user.pk, email__iexact=address).first()
        if record is None:
            has_primary = EmailAddress.objects.filter(user_id=user.pk, primary=True).exists()
            record = EmailAddress.objects.create(
                user=user, email=address.lower(), primary=not has_primary, verified=False
            )
        elif record.verified:
            record.verified = False
            record.save(update_fields=["verified"])
            Profile.objects.filter(user_id=user.pk).update(email_unverified_by_bounce=True)
    record.send_confirmation(request)
    return address
