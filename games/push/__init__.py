"""Web Push: turn notices to the devices players subscribed (``accounts.PushSubscription``),
written with the move as ``PushMessage`` rows (an outbox beside the emails'), claimed, paced,
encrypted (RFC 8291) and posted with VAPID (RFC 8292) by pywebpush. See ``sending``."""
