"""Past positions without replaying from the start: checkpoints of a game's state every
``EVERY`` moves, so a past state (``/state/{seq}/``, the history page, practice from a position,
a reply by email to an older turn) replays at most ``EVERY - 1`` moves from the checkpoint
before it, and reads only those moves of the log, not the whole of it.

**Where they are kept.** In the Django cache: Redis in production, shared by every web process,
worker and host, and kept across their restarts and deploys; a process's own memory in
development (``locmemcache://``). The cache and not a table, because a checkpoint is derived
data the log always gives again: it is written when a past state is read, which a table would
turn into writes to the primary on GET requests (and into rows for every game ever viewed, kept
until someone deleted them), where the cache forgets the least used ones and those not read for
``TIMEOUT``, and a Redis outage (``config.cache``: an empty cache meanwhile) only means replays
from the start. Small: a 6-player state is 1 to 2 kB of JSON, under 1 kB compressed (a game
of 360 moves keeps 18 checkpoints, about 11 kB); a write the cache refuses (Redis full) is a
checkpoint not kept, never an error.

**Never trusted over the log.** The log (``Move``) is append-only: the same row at a seq means
the same log up to it. So each checkpoint is stored with a digest of the game's secret seed, of
the log's row at its seq (its seat, action and time of creation) and of its own text, and is
used only when the row read now gives that digest: a game restored from a backup that went on
differently (its later rows are new), another database's game under the same number (another
seed), a damaged text: each is not used, and the checkpoint is written again from the log by
the replay that follows. And a checkpoint is used only when no take-back lies between it and
the position asked for (a take-back may cancel moves before the checkpoint): the log up to the
last take-back is then replayed from the start, and checkpoints after it are used and written as
usual. Missing checkpoints are rebuilt by the replay that needed them (each one it passes).

``tests/games/test_checkpoints.py`` compares checkpointed states with full replays, and
``tests/integration/test_checkpoints_shared.py`` reads in one process what another wrote;
``bench/past_state_bench.py`` measures.
"""

from __future__ import annotations

import hashlib
import json
import logging
import zlib
from collections.abc import Callable, Mapping, Sequence

from django.core.cache import caches
from django.core.cache.backends.base import BaseCache

from games import engine
from powergrid.state import State

logger = logging.getLogger(__name__)

#: Moves between two checkpoints.
EVERY = 20
#: Seconds a checkpoint is kept in the cache (it is rebuilt from the log when gone).
TIMEOUT = 14 * 24 * 3600
#: The cache keys' prefix (its number changes with the stored form).
_PREFIX = "checkpoint:1"

#: A log entry as the log's reader gives it: (seq, seat, action, what identifies its row: the
#: time it was created).
Entry = tuple[int, int, Mapping[str, object], object]
#: ``read(since)``: the log's entries from seq ``since`` to the position asked for, in order.
Reader = Callable[[int], Sequence[Entry]]

_Key = tuple[int, int | None]  # (game id, its secret seed)


def _cache() -> BaseCache:
    return caches["default"]


def _name(game_id: int, seq: int) -> str:
    return f"{_PREFIX}:{game_id}:{seq}"


def _top_name(game_id: int) -> str:
    """The highest checkpoint written for the game: where a replay starts when the nearest one
    is missing (the game has gone on since a past state was last read)."""
    return f"{_PREFIX}:{game_id}:top"


def _anchor(seed: int | None, entry: Entry) -> bytes:
    """The digest of the game's seed and of its log's row at a checkpoint's seq."""
    seq, seat, action, stamp = entry
    row = json.dumps([seed, seq, seat, action, str(stamp)], sort_keys=True, default=str)
    return hashlib.sha256(row.encode()).digest()


def _sealed(anchor: bytes, text: bytes) -> str:
    return hashlib.sha256(anchor + b"\x00" + text).hexdigest()


def _sound(kept: object, anchor: bytes) -> State | None:
    """The state a stored checkpoint holds, if it was written for the log's row ``anchor``."""
    if not (isinstance(kept, tuple) and len(kept) == 2):
        return None
    digest, packed = kept
    try:
        text = zlib.decompress(packed)
        if _sealed(anchor, text) != digest:
            return None  # another log, or a damaged text
        return engine.from_json(text.decode())
    except Exception:  # damaged beyond its digest's notice: never trusted
        return None


def _moves(entries: Sequence[Entry]) -> list[engine.LogEntry]:
    return [(seq, seat, action) for seq, seat, action, _stamp in entries]


def state_at(key: _Key, seq: int, read: Reader, initial: Callable[[], State]) -> State:
    """The state after move ``seq`` of the game ``key`` (``read``: its log's reader;
    ``initial``: its first state), from the checkpoint before it: the log read from there only.
    When that checkpoint is missing or not sound, or a take-back lies after it, the long way
    (``_rebuilt``)."""
    game_id, seed = key
    at = seq - seq % EVERY
    if at > 0:
        tail = read(at)
        if tail and tail[0][0] == at and not any(engine.is_takeback(e[2]) for e in tail[1:]):
            state = _sound(_cache().get(_name(game_id, at)), _anchor(seed, tail[0]))
            if state is not None:
                return engine.replay(state, _moves(tail[1:]))
    return _rebuilt(key, seq, read(0), initial)


def _rebuilt(key: _Key, seq: int, log: Sequence[Entry], initial: Callable[[], State]) -> State:
    """The long way, the whole log read: from the nearest sound checkpoint past the last
    take-back, else from the start; the checkpoints the replay passes are written."""
    game_id, seed = key
    log = [e for e in log if e[0] <= seq]
    after = max((e[0] for e in log if engine.is_takeback(e[2])), default=0)
    # Past the last take-back: a checkpoint before it may hold moves the take-back cancelled.
    anchors = {e[0]: _anchor(seed, e) for e in log if e[0] % EVERY == 0 and e[0] >= after}
    cache = _cache()
    found = _start(cache, game_id, anchors)
    new: dict[int, State] = {}
    if found is not None:
        done, state, top = found
    else:
        # From the start, the take-backs applied, to the last one (none: the first state).
        done, top = after, 0
        state = engine.replay(initial(), _moves([e for e in log if e[0] <= after]))
        if done in anchors:
            new[done] = state
    for entry in log:
        if entry[0] > done:
            state = engine.replay(state, _moves([entry]))  # past the last take-back: one move
            if entry[0] in anchors:
                new[entry[0]] = state
    if new:
        written: dict[str, object] = {}
        for k, kept in new.items():
            text = engine.to_json(kept).encode()
            written[_name(game_id, k)] = (_sealed(anchors[k], text), zlib.compress(text, 1))
        if max(new) > top:
            written[_top_name(game_id)] = max(new)
        try:
            cache.set_many(written, timeout=TIMEOUT)
        except Exception:  # derived data: the log gives it again
            logger.warning("checkpoints of game %s not kept", game_id, exc_info=True)
    return state


def _start(
    cache: BaseCache, game_id: int, anchors: Mapping[int, bytes]
) -> tuple[int, State, int] | None:
    """The nearest sound checkpoint of those ``anchors`` allows, or the highest one written for
    the game if it is allowed and lower: (seq, state, the highest written as read, or 0)."""
    if not anchors:
        return None
    nearest = max(anchors)
    got = cache.get_many([_name(game_id, nearest), _top_name(game_id)])
    top = got.get(_top_name(game_id))
    top = top if type(top) is int else 0
    state = _sound(got.get(_name(game_id, nearest)), anchors[nearest])
    if state is not None:
        return nearest, state, top
    if top < nearest and top in anchors:
        state = _sound(cache.get(_name(game_id, top)), anchors[top])
        if state is not None:
            return top, state, top
    return None


def stored(game_id: int, upto: int) -> list[int]:
    """The seqs of the game's checkpoints in the cache up to ``upto`` (tests, benchmarks)."""
    seqs = range(EVERY, upto + 1, EVERY)
    got = _cache().get_many([_name(game_id, s) for s in seqs])
    return [s for s in seqs if _name(game_id, s) in got]


def forget(game_id: int, upto: int) -> None:
    """Drop the game's checkpoints up to move ``upto`` (tests, benchmarks)."""
    names = [_name(game_id, s) for s in range(EVERY, upto + 1, EVERY)]
    _cache().delete_many([*names, _top_name(game_id)])
