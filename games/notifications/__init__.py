"""Email notifications: the outbox (outbox.py); sending it, in three rooms: claiming and the lease
(claiming.py), what becomes of each row after its attempt (marking.py), the SMTP connection and
the sending thread (smtp.py), put together by sending.py; building emails: one builder per kind
(builders.py) from shared parts (parts.py), rendered by emails.py; signed links (links.py), the
daily digest (digest.py), the pages behind the links (views.py) and the development mailbox
(mailbox.py)."""
