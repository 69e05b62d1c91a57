"""The fast paths: code that stands in for a Django or library path on the hot paths, in one box.

Each module does what a well-known path does, for less CPU, where a benchmark showed that path to
cost more than the work itself. Each has tests proving it equals the path it stands for
(``tests/games/fastpath/``), and ``tests/games/fastpath/test_private_apis.py`` fails loudly on a
Django or Python version whose private parts they lean on have changed.

``rows``
    The hot reads and writes (token lookup, a game with its seats, the game row's lock, a move's
    INSERT and the game's UPDATE, the outbox rows) with SQL built once per connection from the
    models, instead of the ORM's compiler per call. Stands for ``select_related`` queries,
    ``save``, ``bulk_create``. Figure: CPU per API move in gunicorn 37 -> 19 ms (commit a1607ed);
    outbox rows 13.7/10.7 -> 10.0/8.2 ms per state+move cycle (commit 872d93b).
``bulk``
    ``bulk_update_values``: one ``UPDATE ... FROM (VALUES ...)`` on PostgreSQL. Stands for
    ``QuerySet.bulk_update`` (about 1.5 ms of CPU for two seats and two fields, more than the
    statement costs PostgreSQL); elsewhere it is ``bulk_update``.
``rendering``
    The email templates compiled once per language, constant ``{% translate %}`` nodes
    pre-translated. Stands for ``render_to_string`` under ``translation.override``.
``wire``
    An email's SMTP bytes written directly on the batch's connection (with PIPELINING where the
    server offers it). Stands for ``EmailMessage.message().as_bytes()`` + ``smtplib.sendmail``.
    With ``rendering``: worker CPU per email 6-7.8 -> 2.7-3.9 ms (commit 43f9898); one worker
    242-315 emails/s with PIPELINING, 196-235 without (deploy/OPERATIONS.md).
"""
