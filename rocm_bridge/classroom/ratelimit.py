"""Failed-attempt counters in the database, so every replica behind the load balancer sees the same count.

Only failures count (a wrong join code, a wrong teacher key, an unknown resume code): a class of 40 behind
one school address joins and reloads freely, a guesser is stopped after a few dozen tries. Buckets name what
is guessed and by whom: "join:<address>", "teacher:class:<code>", "resume:<address>" ...
"""

from __future__ import annotations

import time

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError

from rocm_bridge.errors import RocmBridgeError
from rocm_bridge.quiz.schema import attempts

# kind -> (failures allowed, per seconds)
LIMITS: dict[str, tuple[int, int]] = {
    "join": (50, 600),  # wrong join codes per client address (a class mistyping behind one NAT stays under)
    "resume": (30, 600),  # unknown resume codes per client address
    "teacher": (10, 600),  # wrong teacher keys per client address
    "teacher_class": (30, 600),  # wrong teacher keys per class, from anywhere (the key has 192 bits anyway)
    "create": (20, 3600),  # classes created per client address (counted on success)
}


class TooManyAttempts(RocmBridgeError, RuntimeError):
    key = "classroom.errors.too_many"


def _window(kind: str, now: float | None) -> tuple[int, int]:
    limit, window_s = LIMITS[kind]
    return limit, int((time.time() if now is None else now) // window_s)


def check(store, kind: str, who: str, now: float | None = None) -> None:
    """TooManyAttempts (with the wait in minutes) when `who` has used up this kind's failures."""
    limit, window = _window(kind, now)
    with store.engine.connect() as conn:
        n = conn.execute(
            select(attempts.c.n).where(attempts.c.bucket == f"{kind}:{who}"[:120], attempts.c.window == window)
        ).scalar()
    if (n or 0) >= limit:
        raise TooManyAttempts(minutes=max(1, LIMITS[kind][1] // 60))


def failed(store, kind: str, who: str, now: float | None = None) -> None:
    """Count one failure (an atomic increment: two replicas counting at once both count)."""
    _, window = _window(kind, now)
    bucket = f"{kind}:{who}"[:120]
    where = (attempts.c.bucket == bucket, attempts.c.window == window)
    with store.engine.begin() as conn:  # the first statement writes: SQLite takes its lock before reading
        if conn.execute(update(attempts).where(*where).values(n=attempts.c.n + 1)).rowcount == 0:
            try:
                with conn.begin_nested():
                    conn.execute(attempts.insert().values(bucket=bucket, window=window, n=1))
            except IntegrityError:  # another replica inserted it first
                conn.execute(update(attempts).where(*where).values(n=attempts.c.n + 1))
        conn.execute(delete(attempts).where(attempts.c.bucket == bucket, attempts.c.window < window - 1))
