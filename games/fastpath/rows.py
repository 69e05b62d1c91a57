"""Hot-path reads and writes without the ORM's SQL compiler.

Every API move cycle (GET /state/, POST /moves/) runs the same handful of statements. Built through
the ORM, compiling them (``select_related`` of seat, user and profile: ~60 columns, joins,
ordering) cost more CPU than anything else in the request — more than PostgreSQL spent running
them, and more than the rules engine. Here each statement's SQL is built once per connection from
the models' ``_meta`` (so it follows the models: every concrete column, in field order) and rows
become model instances through ``Model.from_db`` after the same converters the ORM applies
(``connection.ops.get_db_converters`` and each field's ``from_db_value``). The instances are the
ORM's own: related objects are cached exactly as ``select_related`` caches them, and saving,
deleting or reading them further works as usual.

Used by: token authentication (``games.api.auth``), the state read
(``games.selectors.game_get_with_seats``) and the move service (``games.services.moves``). Works on
PostgreSQL and SQLite (``FOR UPDATE`` only where the database has it, as the ORM does).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Generic, NamedTuple, TypeAlias, TypeVar, cast

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import connections, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model
from knox.models import AuthToken, get_token_model

from accounts.models import Profile
from games.models import Game, Seat

M = TypeVar("M", bound=Model, covariant=True)
T = TypeVar("T")

#: A database converter: (value, expression, connection) -> value.
Converter = Callable[[object, object, BaseDatabaseWrapper], object]
#: A field of any model (its set and get types do not matter here).
AnyField: TypeAlias = "Field[object, object]"


class Columns(Generic[M]):
    """One model's concrete columns as selected under ``alias``, with their converters."""

    def __init__(self, model: type[M], alias: str, conn: BaseDatabaseWrapper) -> None:
        qn = conn.ops.quote_name
        self.model = model
        self.fields: list[AnyField] = list(model._meta.concrete_fields)
        self.names = [f.attname for f in self.fields]
        self.sql = ", ".join(f"{qn(alias)}.{qn(f.column)}" for f in self.fields)
        self.converters: list[tuple[int, list[Converter], object]] = []
        for i, f in enumerate(self.fields):
            col = f.get_col(alias)
            convs = conn.ops.get_db_converters(col) + col.get_db_converters(conn)
            if convs:
                self.converters.append((i, convs, col))
        self.width = len(self.fields)
        pk = model._meta.pk
        self.pk_index = self.fields.index(pk) if pk is not None else None

    def build(
        self, db: str, conn: BaseDatabaseWrapper, row: Sequence[object], start: int = 0
    ) -> M | None:
        """The instance made of ``row[start:start + width]``, or None if its pk is NULL (an
        outer join that found nothing)."""
        values = list(row[start : start + self.width])
        if self.pk_index is not None and values[self.pk_index] is None:
            return None
        for i, convs, col in self.converters:
            v = values[i]
            for conv in convs:
                v = conv(v, col, conn)
            values[i] = v
        return self.model.from_db(db, self.names, values)


_cache: dict[tuple[object, ...], object] = {}
_cache_lock = threading.Lock()


def _cached(key: tuple[object, ...], make: Callable[[], T]) -> T:
    hit = _cache.get(key)
    if hit is None:
        hit = made = make()
        with _cache_lock:
            _cache[key] = made
    return cast(T, hit)


def columns(model: type[M], alias: str, conn: BaseDatabaseWrapper) -> Columns[M]:
    key = ("cols", model, alias, conn.alias, conn.vendor)
    return _cached(key, lambda: Columns(model, alias, conn))


def _table(model: type[Model], conn: BaseDatabaseWrapper) -> str:
    return conn.ops.quote_name(model._meta.db_table)


def _col(model: type[Model], name: str, conn: BaseDatabaseWrapper) -> str:
    """The quoted column of field ``name`` (``user`` gives ``user_id``)."""
    field = model._meta.get_field(name)
    assert isinstance(field, Field)
    return conn.ops.quote_name(field.column)


# ------------------------------------------------------------------------------ reads
def token_candidates(token_key: str) -> list[AuthToken]:
    """knox ``AuthToken`` rows with this ``token_key``, each with its user cached (knox's own
    query, ``filter(token_key=...).select_related("user")``)."""
    AuthToken = get_token_model()
    User = get_user_model()
    db = router.db_for_read(AuthToken)
    conn = connections[db]
    t = columns(AuthToken, "t", conn)
    u = columns(User, "u", conn)

    def make() -> str:
        user_id, token_user = _col(User, "id", conn), _col(AuthToken, "user", conn)
        return (
            f"SELECT {t.sql}, {u.sql} FROM {_table(AuthToken, conn)} t "
            f"JOIN {_table(User, conn)} u ON u.{user_id} = t.{token_user} "
            f"WHERE t.{_col(AuthToken, 'token_key', conn)} = %s"
        )

    sql = _cached(("token", conn.alias, conn.vendor), make)
    out = []
    with conn.cursor() as cursor:
        cursor.execute(sql, [token_key])
        rows = cursor.fetchall()
    for row in rows:
        token = t.build(db, conn, row)
        user = u.build(db, conn, row, t.width)
        AuthToken.user.field.set_cached_value(token, user)
        out.append(token)
    return out


class SeatParts(NamedTuple):
    """The column groups of the seats-with-users statement, in their order in a row."""

    seat: Columns[Seat]
    user: Columns[AbstractBaseUser]
    profile: Columns[Profile]
    game: Columns[Game] | None


def _seat_select(
    conn: BaseDatabaseWrapper, *, with_game: bool, games: int = 0
) -> tuple[str, SeatParts]:
    """The seats-with-users statement: of one game (``%s``), or with ``games`` > 0 of that many
    (``IN (%s, ...)``), ordered by game and seat."""

    User = get_user_model()
    s = columns(Seat, "s", conn)
    u = columns(User, "u", conn)
    p = columns(Profile, "p", conn)
    select = f"{s.sql}, {u.sql}, {p.sql}"
    seat_game, seat_user = _col(Seat, "game", conn), _col(Seat, "user", conn)
    user_id, profile_user = _col(User, "id", conn), _col(Profile, "user", conn)
    join_game = ""
    g = None
    if with_game:
        g = columns(Game, "g", conn)
        select += f", {g.sql}"
        join_game = f"JOIN {_table(Game, conn)} g ON g.{_col(Game, 'id', conn)} = s.{seat_game} "
    sql = (
        f"SELECT {select} FROM {_table(Seat, conn)} s "
        f"{join_game}"
        f"JOIN {_table(User, conn)} u ON u.{user_id} = s.{seat_user} "
        f"LEFT OUTER JOIN {_table(Profile, conn)} p ON p.{profile_user} = u.{user_id} "
        + (
            f"WHERE s.{seat_game} IN ({', '.join(['%s'] * games)}) ORDER BY s.{seat_game}, "
            if games
            else f"WHERE s.{seat_game} = %s ORDER BY "
        )
        + f"s.{_col(Seat, 'seat', conn)}"
    )
    return sql, SeatParts(s, u, p, g)


def seats_with_users(game_id: int, *, with_game: bool = False) -> tuple[Game | None, list[Seat]]:
    """(game or None, the game's seats in seat order), each seat with ``user`` and
    ``user.profile`` cached as ``select_related("user__profile")`` caches them (a user without a
    profile row raises ``RelatedObjectDoesNotExist`` on ``user.profile``, as after the ORM's
    query). With ``with_game`` the game row is read in the same statement (one snapshot) and set as
    every seat's ``game``; the game is None when it has no seats or does not exist."""

    db = router.db_for_read(Seat)
    conn = connections[db]
    sql, parts = _cached(
        ("seats", with_game, conn.alias, conn.vendor),
        lambda: _seat_select(conn, with_game=with_game),
    )
    with conn.cursor() as cursor:
        cursor.execute(sql, [game_id])
        rows = cursor.fetchall()
    seats = [_seat_from_row(db, conn, parts, row) for row in rows]
    game = None
    if parts.game is not None and seats:
        game = parts.game.build(db, conn, rows[0], sum(p.width for p in parts[:3]))
        seat_game = Seat.game.field
        for seat in seats:
            seat_game.set_cached_value(seat, game)
    return game, seats


def seats_for_games(game_ids: Sequence[int]) -> dict[int, list[Seat]]:
    """Each game's seats in seat order (every id in ``game_ids`` a key), with ``user`` and
    ``user.profile`` cached as in ``seats_with_users``: one statement for a batch of games (the
    deadline sweeper's chunk), as ``Seat.objects.filter(game_id__in=...)
    .select_related("user__profile")`` reads them."""

    out: dict[int, list[Seat]] = {gid: [] for gid in game_ids}
    if not out:
        return out
    db = router.db_for_read(Seat)
    conn = connections[db]
    ids = list(out)
    step = max(1, min(len(ids), conn.features.max_query_params or len(ids)))
    for start in range(0, len(ids), step):
        chunk = ids[start : start + step]
        sql, parts = _seat_select(conn, with_game=False, games=len(chunk))
        with conn.cursor() as cursor:
            cursor.execute(sql, chunk)
            rows = cursor.fetchall()
        for row in rows:
            seat = _seat_from_row(db, conn, parts, row)
            out[seat.game_id].append(seat)
    return out


def _seat_from_row(
    db: str, conn: BaseDatabaseWrapper, parts: SeatParts, row: Sequence[object]
) -> Seat:
    """A seat with its user and the user's profile (or its absence) cached."""

    seat = parts.seat.build(db, conn, row, 0)
    user = parts.user.build(db, conn, row, parts.seat.width)
    profile = parts.profile.build(db, conn, row, parts.seat.width + parts.user.width)
    # The seat's row, and its user's (an inner join): never NULL.
    assert seat is not None
    assert user is not None
    if profile is not None:
        Profile.user.field.set_cached_value(profile, user)
    Profile.user.field.remote_field.set_cached_value(user, profile)
    Seat.user.field.set_cached_value(seat, user)
    return seat


def game_for_update(game_id: int) -> Game | None:
    """The game row locked (``SELECT ... FOR NO KEY UPDATE``; plain where the database has no row
    locks), or None. Call inside a transaction.

    NO KEY: every game lock serializes the game's writers with each other, but does not block the
    ``FOR KEY SHARE`` a foreign-key check takes on the game row when another transaction commits
    a row that references the game (a reminder, a chat message). With ``FOR UPDATE`` a move that
    held the game and waited for a seat row deadlocked with the reminders' transaction, which
    held that seat and, at its commit, waited for the game (found by scripts/season)."""

    db = router.db_for_write(Game)
    conn = connections[db]
    g = columns(Game, "g", conn)

    def make() -> str:
        lock = ""
        if conn.features.has_select_for_no_key_update:
            lock = " FOR NO KEY UPDATE"
        elif conn.features.has_select_for_update:
            lock = " FOR UPDATE"
        where = f"g.{_col(Game, 'id', conn)} = %s"
        return f"SELECT {g.sql} FROM {_table(Game, conn)} g WHERE {where}{lock}"

    sql = _cached(("game_lock", conn.alias, conn.vendor), make)
    with conn.cursor() as cursor:
        cursor.execute(sql, [game_id])
        row = cursor.fetchone()
    return None if row is None else g.build(db, conn, row)


# ------------------------------------------------------------------------------ writes
def insert(obj: Model) -> None:
    """INSERT ``obj`` (a new row; auto fields such as ``auto_now_add`` filled as ``save`` fills
    them) and set its pk. Sends no ``pre_save``/``post_save`` signals: only for models that have
    none connected (moves)."""
    model = type(obj)
    db = router.db_for_write(model)
    conn = connections[db]
    if not conn.features.can_return_columns_from_insert:
        obj.save(force_insert=True, using=db)
        return
    meta = model._meta
    pk = meta.pk
    assert pk is not None
    fields = [f for f in meta.concrete_fields if f is not pk]

    def make() -> str:
        qn = conn.ops.quote_name
        cols = ", ".join(qn(f.column) for f in fields)
        marks = ", ".join(["%s"] * len(fields))
        return (
            f"INSERT INTO {_table(model, conn)} ({cols}) VALUES ({marks}) RETURNING {qn(pk.column)}"
        )

    sql = _cached(("insert", model, conn.alias, conn.vendor), make)
    params = [f.get_db_prep_save(f.pre_save(obj, True), conn) for f in fields]
    with conn.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    assert row is not None
    setattr(obj, pk.attname, row[0])
    obj._state.adding = False
    obj._state.db = db


def update(obj: Model, fields: Sequence[str]) -> None:
    """``UPDATE ... SET <fields> WHERE pk = obj.pk`` (``save(update_fields=...)`` without signals
    or the ORM's compiler)."""
    model = type(obj)
    db = router.db_for_write(model)
    conn = connections[db]
    meta = model._meta
    pk = meta.pk
    assert pk is not None
    key = tuple(fields)

    def make() -> tuple[str, list[AnyField]]:
        qn = conn.ops.quote_name
        fs = []
        for name in key:
            f = meta.get_field(name)
            assert isinstance(f, Field)
            fs.append(f)
        sets = ", ".join(f"{qn(f.column)} = %s" for f in fs)
        return f"UPDATE {_table(model, conn)} SET {sets} WHERE {qn(pk.column)} = %s", fs

    sql, fs = _cached(("update", model, key, conn.alias, conn.vendor), make)
    params = [f.get_db_prep_save(f.pre_save(obj, False), conn) for f in fs]
    params.append(pk.get_db_prep_value(obj.pk, conn))
    with conn.cursor() as cursor:
        cursor.execute(sql, params)


def insert_many(objs: Sequence[Model], *, ignore_conflicts: bool = False) -> None:
    """INSERT new rows of one model, as ``bulk_create`` does (a multi-row ``VALUES``, in batches
    the database's parameter limit allows; ``ON CONFLICT DO NOTHING`` with ``ignore_conflicts``),
    without its per-object compiler work: the sweeper writes a chunk's moves and outbox rows at
    once. Pks are set where the database returns them and no conflict can drop a row (as
    ``bulk_create``). No signals."""
    if not objs:
        return
    model = type(objs[0])
    db = router.db_for_write(model)
    conn = connections[db]
    meta = model._meta
    pk = meta.pk
    assert pk is not None
    fields = [f for f in meta.concrete_fields if f is not pk]
    qn = conn.ops.quote_name
    returning = not ignore_conflicts and conn.features.can_return_rows_from_bulk_insert
    head = f"INSERT INTO {_table(model, conn)} ({', '.join(qn(f.column) for f in fields)}) VALUES "
    tail = (" ON CONFLICT DO NOTHING" if ignore_conflicts else "") + (
        f" RETURNING {qn(pk.column)}" if returning else ""
    )
    row_marks = "(" + ", ".join(["%s"] * len(fields)) + ")"
    step = max(1, conn.ops.bulk_batch_size(fields, list(objs)))
    for start in range(0, len(objs), step):
        batch = objs[start : start + step]
        params = [f.get_db_prep_save(f.pre_save(obj, True), conn) for obj in batch for f in fields]
        sql = head + ", ".join([row_marks] * len(batch)) + tail
        with conn.cursor() as cursor:
            cursor.execute(sql, params)
            ids = cursor.fetchall() if returning else None
        for i, obj in enumerate(batch):
            if ids is not None:
                setattr(obj, pk.attname, ids[i][0])
            obj._state.adding = False
            obj._state.db = db
