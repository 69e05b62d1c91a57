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

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from allauth.account.models import EmailAddress
from django.conf import settings
from django.db import connections, router, transaction
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


class Changes:
    """What reports about our emails change for many players at once (a provider's batch of
    thousands, ``games.mailevents``), in a number of queries that does not grow with them.

    The players' profiles are locked and read when it is made (in user order, so two batches
    wait for each other instead of deadlocking), inside the caller's transaction: each change is
    then made in memory, in order, each one seeing the ones before, and ``save`` writes them all.
    The caller's user objects see the changes (their profile is the one changed).
    """

    def __init__(self, users: Iterable[Any]) -> None:
        users = [u for u in users if u is not None and u.pk is not None]
        ids = sorted({u.pk for u in users})
        fresh: dict[int, Profile] = {}
        for i in range(0, len(ids), 1000):
            locked = Profile.objects.select_for_update(no_key=True).filter(
                user_id__in=ids[i : i + 1000]
            )
            fresh.update((p.user_id, p) for p in locked.order_by("user_id"))
        self._profiles: dict[int, Profile] = {}
        for user in users:
            row = fresh.get(user.pk)
            if row is None:
                continue
            mine = self._profiles.get(user.pk)
            if mine is None:
                mine = _cached_profile(user) or row
                if mine is not row:  # the caller's own object, brought up to date
                    for field in Profile._meta.concrete_fields:
                        setattr(mine, field.attname, getattr(row, field.attname))
                self._profiles[user.pk] = mine
            if _cached_profile(user) is not mine:
                user.profile = mine
        self._changed: dict[int, set[str]] = {}  # user id -> the profile fields changed
        self._marked: dict[int, str] = {}  # user id -> the address marked

    def profile(self, user: Any) -> Profile | None:
        """The player's locked profile (None without one)."""
        return self._profiles.get(user.pk) if user is not None else None

    def mark(self, *, user: Any, address: str, reason: str, at: datetime) -> bool:
        """Mark ``address`` (the user's current one) undeliverable; True when it was not
        already. Written by ``save``, where the address's allauth record loses its verified mark
        (allauth confirms only unverified addresses); that it had one is remembered, so the
        log-in stage lets the player in as before."""
        if reason not in REASONS:
            raise ValueError(f"unknown reason {reason!r}")
        address = address.strip().lower()
        profile = self.profile(user)
        if profile is None or (
            profile.email_undeliverable_at is not None
            and profile.email_undeliverable_address == address
        ):
            return False
        profile.email_undeliverable_at = at
        profile.email_undeliverable_address = address
        profile.email_undeliverable_reason = reason
        self._change(user.pk, "email_undeliverable_at", "email_undeliverable_address")
        self._change(user.pk, "email_undeliverable_reason")
        self._marked[user.pk] = address
        return True

    def reason_set(self, *, user: Any, reason: str) -> None:
        """A complaint about an address already undeliverable for another reason: the stored
        reason becomes the complaint (the banner then says why emails stopped)."""
        profile = self.profile(user)
        if profile is not None and profile.email_undeliverable_at is not None:
            profile.email_undeliverable_reason = reason
            self._change(user.pk, "email_undeliverable_reason")

    def emails_off(self, *, user: Any) -> bool:
        """Turn the player's game emails off (a complaint, an unsubscription at the provider);
        True when they were on."""
        profile = self.profile(user)
        if profile is None or profile.notification_mode == Profile.NotificationMode.NONE:
            return False
        profile.notification_mode = Profile.NotificationMode.NONE
        self._change(user.pk, "notification_mode")
        return True

    def save(self) -> list[int]:
        """Write the changes (a few queries, whatever their number); the ids of the players
        whose address was marked undeliverable."""
        if self._marked:
            verified = EmailAddress.objects.filter(
                user_id__in=list(self._marked), verified=True
            ).values_list("pk", "user_id", "email")
            # As ``email__iexact`` compares.
            hit = [
                (pk, uid)
                for pk, uid, email in verified
                if email.upper() == self._marked[uid].upper()
            ]
            if hit:
                EmailAddress.objects.filter(pk__in=[pk for pk, _ in hit]).update(verified=False)
                for _pk, uid in hit:
                    self._profiles[uid].email_unverified_by_bounce = True
                    self._change(uid, "email_unverified_by_bounce")
        # Each field's new values are few (a mode, a reason, a time), but for the address:
        # one UPDATE per field and value, and the addresses in one (Django's ``bulk_update``
        # writes a CASE per row and field: seconds for a batch of thousands).
        same: dict[tuple[str, object], list[int]] = {}
        addresses: list[tuple[int, str]] = []
        for uid, fields in sorted(self._changed.items()):
            profile = self._profiles[uid]
            for field in sorted(fields):
                if field == "email_undeliverable_address":
                    addresses.append((uid, profile.email_undeliverable_address))
                else:
                    same.setdefault((field, getattr(profile, field)), []).append(uid)
        for (field, value), uids in same.items():
            for i in range(0, len(uids), 1000):
                Profile.objects.filter(user_id__in=uids[i : i + 1000]).update(**{field: value})
        _addresses_write(addresses)
        marked = sorted(self._marked)
        self._changed.clear()
        self._marked.clear()
        return marked

    def _change(self, uid: int, *fields: str) -> None:
        self._changed.setdefault(uid, set()).update(fields)


def _addresses_write(rows: list[tuple[int, str]]) -> None:
    """Each (user id, address): the address written as the profile's undeliverable one, 500 to
    an UPDATE (``UPDATE ... FROM (VALUES ...)``: PostgreSQL, and SQLite since 3.33)."""
    db = router.db_for_write(Profile)
    quote = connections[db].ops.quote_name
    table = quote(Profile._meta.db_table)
    column = quote(Profile._meta.get_field("email_undeliverable_address").column)
    user = quote(Profile._meta.get_field("user").column)
    for i in range(0, len(rows), 500):
        chunk = rows[i : i + 500]
        values = ", ".join(["(%s, %s)"] * len(chunk))
        with connections[db].cursor() as cursor:
            cursor.execute(
                f"UPDATE {table} SET {column} = v.column2 FROM (VALUES {values}) AS v"
                f" WHERE {table}.{user} = v.column1",
                [x for row in chunk for x in row],
            )


def _cached_profile(user: Any) -> Profile | None:
    """The profile the user object holds already (no query), if any."""
    descriptor = getattr(type(user), "profile", None)
    if descriptor is None or not descriptor.is_cached(user):
        return None
    return getattr(user, "profile", None)


def address_mark_undeliverable(*, user: Any, address: str, reason: str, at: datetime) -> bool:
    """Mark ``address`` (the user's current one) undeliverable; True when it was not already
    (``Changes.mark`` for one player)."""
    with transaction.atomic():
        changes = Changes([user])
        done = changes.mark(user=user, address=address, reason=reason, at=at)
        changes.save()
    return done


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
