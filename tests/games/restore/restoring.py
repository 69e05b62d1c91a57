"""What the restore tests share: sending every pending email, and a restore to a moment
(``snapshot``, then ``roll_back``: rows deleted and put back as they were, as a point-in-time
restore leaves the database: a chat message edited since reads as it did)."""

from __future__ import annotations

from games.models import ChatMessage, Game, Move, Notification, Seat
from games.notifications import sending


def send_all() -> None:
    ids = list(Notification.objects.filter(status="pending").values_list("id", flat=True))
    sending.notifications_send(ids=ids)


def snapshot(gid: int) -> dict:
    g = Game.objects.get(pk=gid)
    return {
        "game": (g.seq, g.state_json, list(g.to_act), g.status),
        "seats": {
            s.pk: (s.deadline, s.reminder_at, s.timeouts_in_row, s.bot_controlled)
            for s in Seat.objects.filter(game_id=gid)
        },
        "notes": {
            n.pk: (n.status, n.dedupe_key, n.sent_at, n.claimed_at, n.attempts)
            for n in Notification.objects.all()
        },
        "chat": {
            pk: (text, edited_at)
            for pk, text, edited_at in ChatMessage.objects.values_list("pk", "text", "edited_at")
        },
    }


def roll_back(gid: int, snap: dict) -> None:
    """The database as a restore to the snapshot's moment leaves it."""
    seq, state, to_act, status = snap["game"]
    Move.objects.filter(game_id=gid, seq__gt=seq).delete()
    Game.objects.filter(pk=gid).update(seq=seq, state_json=state, to_act=to_act, status=status)
    for pk, (deadline, reminder, timeouts, bot) in snap["seats"].items():
        Seat.objects.filter(pk=pk).update(
            deadline=deadline, reminder_at=reminder, timeouts_in_row=timeouts, bot_controlled=bot
        )
    Notification.objects.exclude(pk__in=list(snap["notes"])).delete()
    for pk, (st, key, sent_at, claimed, attempts) in snap["notes"].items():
        Notification.objects.filter(pk=pk).update(
            status=st, dedupe_key=key, sent_at=sent_at, claimed_at=claimed, attempts=attempts
        )
    ChatMessage.objects.exclude(pk__in=list(snap["chat"])).delete()
    for pk, (text, edited_at) in snap["chat"].items():
        ChatMessage.objects.filter(pk=pk).update(text=text, edited_at=edited_at)
