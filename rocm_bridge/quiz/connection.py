"""The database connection: which database, how the engine and its pool are built, and how long anything may wait.

default_url() picks SQLite in a data directory ($ROCM_BRIDGE_DATA_DIR, else ~/.local/share/rocm_bridge; WAL mode,
so many sessions can write at once) unless ROCM_BRIDGE_DB_URL names another database (a classroom server's
PostgreSQL, postgresql+psycopg://user@host/db). make_engine() builds the SQLAlchemy engine with the lock, statement,
busy and pool timeouts below, so a click never hangs behind a table lock; StoreUnavailable is what callers see when
the database cannot be reached, and log_db_error() writes such failures to the server log without flooding it.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine

from rocm_bridge.errors import RocmBridgeError

DB_FILE = "quiz.sqlite3"
# A click must not hang behind a table lock or a slow query (issue 27.11: 21 s with no message): PostgreSQL gives
# up waiting for a lock after LOCK_TIMEOUT_MS and on any statement after STATEMENT_TIMEOUT_MS, SQLite after
# BUSY_TIMEOUT_MS; a pool with every connection busy makes a caller wait at most POOL_TIMEOUT_S. The write then
# stays in the outbox and the page shows the outage notice. The schema migration sets its own, longer limits.
LOCK_TIMEOUT_MS = 2000
STATEMENT_TIMEOUT_MS = 5000
BUSY_TIMEOUT_MS = 3000
POOL_TIMEOUT_S = 5
POOL_SIZE, POOL_OVERFLOW = 10, 20  # per replica: replicas x 30 must stay under max_connections (docs/deploy.md)


class StoreUnavailable(RocmBridgeError, RuntimeError):
    key = "quiz.errors.database"


def default_url() -> str:
    url = os.environ.get("ROCM_BRIDGE_DB_URL", "").strip()
    if url:
        return url
    directory = Path(os.environ.get("ROCM_BRIDGE_DATA_DIR") or Path.home() / ".local" / "share" / "rocm_bridge")
    return f"sqlite:///{directory.expanduser() / DB_FILE}"


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


log = logging.getLogger("rocm_bridge.db")
_logged: dict[str, float] = {}
_log_lock = threading.Lock()
LOG_EVERY_S = 10


def log_db_error(exc: BaseException, where: str) -> None:
    """Database errors go to the server log (stderr): one line per kind of error and place every LOG_EVERY_S,
    so 100 students retrying during an outage do not flood it. The message is the driver's (libpq never echoes
    the password)."""
    kind = f"{where}:{type(exc).__name__}"
    now = time.monotonic()
    with _log_lock:
        if now - _logged.get(kind, -LOG_EVERY_S) < LOG_EVERY_S:
            return
        _logged[kind] = now
    detail = " ".join(str(getattr(exc, "orig", None) or exc).split())[:300]
    log.warning("database error in %s: %s: %s", where, type(exc).__name__, detail)


def pg_connect_args() -> dict[str, Any]:
    """psycopg connection arguments: connect within 5 s; lock and statement timeouts set for the session by the
    server at connect (libpq `options`), so every statement of every pooled connection has them."""
    return {"connect_timeout": 5, "application_name": "rocm_bridge",
            "options": f"-c lock_timeout={LOCK_TIMEOUT_MS} -c statement_timeout={STATEMENT_TIMEOUT_MS}"}  # fmt: skip


def make_engine(url: str) -> Engine:
    """The engine for this URL: SQLite with WAL pragmas and a busy timeout (its directory created), anything else
    with a pre-pinged pool of bounded size and wait; PostgreSQL with connect, lock and statement timeouts."""
    if url.startswith("sqlite:///"):
        path = Path(url.removeprefix("sqlite:///"))
        path.parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    # a database host that drops packets must not hang every page for minutes: 5 s, then the outbox
    extra = {"connect_args": pg_connect_args()} if url.startswith("postgresql") else {}
    return create_engine(url, pool_pre_ping=True, pool_size=POOL_SIZE, max_overflow=POOL_OVERFLOW,
                         pool_timeout=POOL_TIMEOUT_S, **extra)  # fmt: skip
