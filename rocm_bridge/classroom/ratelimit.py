"""Failed-attempt counters, so guessing is slow and a right code or key is never refused.

The secrets are long enough that guessing them is hopeless (a teacher key has 192 bits, a resume code 79); a join
code (30 bits) opens only the door to join as a new student. So the limits exist to slow abuse down, and one
person's wrong guesses must never lock out another person who holds the right code: behind one school address
(NAT, or nginx on the same host) everyone shares an address. Three layers:

- per browser tab (session): after SESSION_FAILURES wrong tries that tab is refused, right or wrong (it is the
  guesser's own tab; a new tab costs the guesser a page load). Kept in the replica's memory: a tab talks to one
  replica (sticky sessions);
- per client address and per class, in the database so every replica sees the same count: past the limit each
  try from that address (or for that class) waits OVER_LIMIT_DELAY_S first, right or wrong, and a wrong one is
  told to wait; a right one still passes;
- creating classes counts successes per address and is a hard limit (nothing is guessed there).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict

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


SESSION_FAILURES = 10  # wrong tries one browser tab may make
OVER_LIMIT_DELAY_S = 1.0  # the wait before each try from an address (or for a class) past its limit
_SESSIONS_KEPT = 10_000  # tabs remembered per replica (oldest forgotten first)


class TooManyAttempts(RocmBridgeError, RuntimeError):
    key = "classroom.errors.too_many"


_tabs: OrderedDict[str, int] = OrderedDict()
_tabs_lock = threading.Lock()


def guard(store, session: str, *buckets: tuple[str, str], now: float | None = None) -> bool:
    """Before a code or key is checked: refuse a tab that has used up its wrong tries; wait OVER_LIMIT_DELAY_S
    when any (kind, who) bucket is past its limit. Returns whether that bucket limit was reached (so a wrong try
    can be told to wait instead of "wrong")."""
    with _tabs_lock:
        if session and _tabs.get(session, 0) >= SESSION_FAILURES:
            raise TooManyAttempts(minutes=max(1, LIMITS[buckets[0][0]][1] // 60) if buckets else 10)
    over = any(_count(store, kind, who, now) >= LIMITS[kind][0] for kind, who in buckets)
    if over:
        time.sleep(OVER_LIMIT_DELAY_S)
    return over


def wrong(store, session: str, *buckets: tuple[str, str], over: bool = False, now: float | None = None) -> None:
    """Count one wrong try against the tab and each bucket; past a limit, say so (TooManyAttempts)."""
    if session:
        with _tabs_lock:
            _tabs[session] = _tabs.pop(session, 0) + 1
            while len(_tabs) > _SESSIONS_KEPT:
                _tabs.popitem(last=False)
    for kind, who in buckets:
        failed(store, kind, who, now)
    with _tabs_lock:
        tab_done = bool(session) and _tabs.get(session, 0) >= SESSION_FAILURES
    if over or tab_done:
        raise TooManyAttempts(minutes=max(1, LIMITS[buckets[0][0]][1] // 60) if buckets else 10)


def forwarded_client(peer: str, headers: dict[str, str], setting: str) -> str:
    """The client behind a request: `peer`, or the proxy's X-Real-IP (else the last X-Forwarded-For entry) when
    `peer` is a trusted proxy. `headers` has lower-case names. At most 64 characters.

    >>> forwarded_client("127.0.0.1", {"x-real-ip": "198.51.100.7"}, "1")
    '198.51.100.7'
    >>> forwarded_client("8.8.8.8", {"x-real-ip": "198.51.100.7"}, "1")
    '8.8.8.8'
    """
    if trusted_proxy(peer, setting):
        real = headers.get("x-real-ip") or headers.get("x-forwarded-for", "").split(",")[-1]
        if real.strip():
            return real.strip()[:64]
    return peer[:64]


def trusted_proxy(peer: str, setting: str) -> bool:
    """Whether the socket peer `peer` is a proxy whose X-Real-IP may be believed. `setting` is
    ROCM_BRIDGE_TRUST_PROXY: "" (never), "1" (a loopback or private-network peer: nginx on this host, in Compose
    or a cluster, never a visitor from the internet) or a comma-separated list of addresses / CIDR networks.

    >>> trusted_proxy("127.0.0.1", "1"), trusted_proxy("10.2.0.7", "1"), trusted_proxy("8.8.8.8", "1")
    (True, True, False)
    >>> trusted_proxy("10.2.0.7", "10.2.0.0/24,192.0.2.1"), trusted_proxy("10.3.0.7", "10.2.0.0/24")
    (True, False)
    """
    import ipaddress

    setting = setting.strip()
    if not setting:
        return False
    try:
        address = ipaddress.ip_address(peer)
    except ValueError:
        return False
    if setting == "1":
        return address.is_loopback or address.is_private
    for part in setting.split(","):
        try:
            if address in ipaddress.ip_network(part.strip(), strict=False):
                return True
        except ValueError:
            continue
    return False


def _count(store, kind: str, who: str, now: float | None) -> int:
    _, window = _window(kind, now)
    with store.engine.connect() as conn:
        n = conn.execute(
            select(attempts.c.n).where(attempts.c.bucket == f"{kind}:{who}"[:120], attempts.c.window == window)
        ).scalar()
    return n or 0


def _window(kind: str, now: float | None) -> tuple[int, int]:
    limit, window_s = LIMITS[kind]
    return limit, int((time.time() if now is None else now) // window_s)


def check(store, kind: str, who: str, now: float | None = None) -> None:
    """TooManyAttempts (with the wait in minutes) when `who` has used up this kind's allowance: a hard limit, for
    what is not a guess (creating classes)."""
    if _count(store, kind, who, now) >= LIMITS[kind][0]:
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
