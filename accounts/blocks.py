"""The block list: a player keeps another out of their games, invitations and chat.

One rule, both ways: a block stands between two people whoever made it (``blocked_between``),
so the blocked person cannot join a game the blocker sits in, invite them, or write in a chat the
blocker reads, and the blocker does not meet them by joining the blocked person's game either.
Tournaments seat nobody at a table with someone across a block (``blocked_pairs``: the
selector their seating asks). Errors say only that a block stands between the two: a blocked
person is not told who blocked whom.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import IntegrityError, transaction
from django.db.models import Q

from .models import Block

#: Players one person may block (a list this long is a tool for something else).
MAX_BLOCKS = 500

UserLike = AbstractBaseUser | AnonymousUser | int


class BlockError(Exception):
    """A refused change of the block list: ``code``, ``status`` and ``details`` as the API
    answers them."""

    def __init__(self, message: str, *, code: str, status: int, details: dict[str, object]) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status
        self.details = details


def _id(user: UserLike) -> int:
    return user if isinstance(user, int) else int(user.pk or 0)


# -- selectors ----------------------------------------------------------------------------------


def blocked_between(user_a: UserLike, user_b: UserLike) -> bool:
    """Whether a block stands between the two (either made it). One query."""
    a, b = _id(user_a), _id(user_b)
    if not a or not b or a == b:
        return False
    return Block.objects.filter(
        Q(blocker_id=a, blocked_id=b) | Q(blocker_id=b, blocked_id=a)
    ).exists()


def blocked_ids(user: UserLike) -> set[int]:
    """The ids of everyone across a block from ``user`` (blocked by them or blocking them)."""
    uid = _id(user)
    if not uid:
        return set()
    out: set[int] = set()
    for blocker, blocked in Block.objects.filter(Q(blocker_id=uid) | Q(blocked_id=uid)).values_list(
        "blocker_id", "blocked_id"
    ):
        out.add(blocked if blocker == uid else blocker)
    return out


def blocked_pairs(user_ids: Iterable[int]) -> dict[int, set[int]]:
    """User id -> the ids among ``user_ids`` a block stands between them and (both ways): what a
    tournament's seating keeps apart (``tournaments.seating``, rule 5). One query."""
    ids = set(user_ids)
    out: dict[int, set[int]] = {}
    if len(ids) < 2:
        return out
    for a, b in Block.objects.filter(blocker_id__in=ids, blocked_id__in=ids).values_list(
        "blocker_id", "blocked_id"
    ):
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    return out


def blocked_among(user: UserLike, others: Iterable[int]) -> bool:
    """Whether a block stands between ``user`` and any of ``others`` (user ids). One query."""
    uid = _id(user)
    ids = {o for o in others if o and o != uid}
    if not uid or not ids:
        return False
    return Block.objects.filter(
        Q(blocker_id=uid, blocked_id__in=ids) | Q(blocked_id=uid, blocker_id__in=ids)
    ).exists()


def blocked_by_any(user: UserLike, others: Iterable[int]) -> bool:
    """Whether any of ``others`` (user ids) blocked ``user``: what keeps a blocked person out
    of a chat the blocker reads (the blocker may still write: they chose the block). One query."""
    uid = _id(user)
    ids = {o for o in others if o and o != uid}
    if not uid or not ids:
        return False
    return Block.objects.filter(blocked_id=uid, blocker_id__in=ids).exists()


def blocks_of(user: UserLike) -> list[Block]:
    """The players ``user`` blocked (not those who blocked them), oldest first."""
    return list(
        Block.objects.filter(blocker_id=_id(user))
        .select_related("blocked__profile")
        .order_by("created_at")
    )


# -- services -----------------------------------------------------------------------------------


def block(*, user: UserLike, username: object) -> tuple[Block, bool]:
    """``user`` blocks the player named ``username``: (the block, whether it is new). Blocking
    someone twice is not an error (the first block stands)."""
    if not isinstance(username, str) or not username.strip() or len(username) > 150:
        raise BlockError(
            "'username' must be a player's username.",
            code="invalid_block",
            status=400,
            details={"field": "username"},
        )
    target = get_user_model().objects.filter(username__iexact=username.strip()).first()
    if target is None:
        raise BlockError(
            "No player has that username.",
            code="user_not_found",
            status=404,
            details={"field": "username"},
        )
    uid = _id(user)
    if target.pk == uid:
        raise BlockError(
            "You cannot block yourself.",
            code="invalid_block",
            status=400,
            details={"field": "username"},
        )
    with transaction.atomic():
        existing = Block.objects.filter(blocker_id=uid, blocked_id=target.pk).first()
        if existing is not None:
            return existing, False
        if Block.objects.filter(blocker_id=uid).count() >= MAX_BLOCKS:
            raise BlockError(
                f"You can block at most {MAX_BLOCKS} players.",
                code="invalid_block",
                status=400,
                details={"field": "username", "max": MAX_BLOCKS},
            )
        try:
            with transaction.atomic():
                return Block.objects.create(blocker_id=uid, blocked_id=target.pk), True
        except IntegrityError:  # the same block, made at this instant by another request
            return Block.objects.get(blocker_id=uid, blocked_id=target.pk), False


def unblock(*, user: UserLike, username: str) -> None:
    """Lift ``user``'s block of ``username`` (a block the other made stands)."""
    deleted, _ = Block.objects.filter(
        blocker_id=_id(user), blocked__username__iexact=username
    ).delete()
    if not deleted:
        raise BlockError(
            "You have not blocked that player.",
            code="user_not_found",
            status=404,
            details={"field": "username"},
        )
