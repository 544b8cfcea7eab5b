"""Persistence of learners, answers, exams and chapters read, with SQLAlchemy Core (parameterised statements only).

This module is the public face: Store and get_store() live here, and it re-exports what callers import from it.
Store is made of three query mixins, each in its own module: rocm_bridge.quiz.learners (nickname rules, join /
resume, chapters read, a learner's own data), rocm_bridge.quiz.answers (answers and exams) and
rocm_bridge.quiz.class_queries (a class's histories, statistics and CSV export). The database URL, the engine and its
timeouts are in rocm_bridge.quiz.connection; the schema lives in rocm_bridge.quiz.schema and is created under a lock.

Default: SQLite in a data directory ($ROCM_BRIDGE_DATA_DIR, else ~/.local/share/rocm_bridge), WAL mode, so
many sessions can write at once. A shared classroom server sets ROCM_BRIDGE_DB_URL to PostgreSQL
(postgresql+psycopg://user@host/db).
"""

from __future__ import annotations

import threading

from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError

from rocm_bridge.quiz.answers import EXAM_GRACE_S, MODES, AnswerQueries
from rocm_bridge.quiz.class_queries import ClassQueries, QuestionStats
from rocm_bridge.quiz.connection import (
    BUSY_TIMEOUT_MS,
    DB_FILE,
    LOCK_TIMEOUT_MS,
    POOL_OVERFLOW,
    POOL_SIZE,
    POOL_TIMEOUT_S,
    STATEMENT_TIMEOUT_MS,
    StoreUnavailable,
    default_url,
    log_db_error,
    make_engine,
    pg_connect_args,
)
from rocm_bridge.quiz.learners import (
    NICK_MIN,
    Learner,
    LearnerQueries,
    NicknameError,
    NicknameTaken,
    nickname_key,
    nickname_look,
    validate_nickname,
)
from rocm_bridge.quiz.schema import NICK_MAX, ensure_schema
from rocm_bridge.text import csv_safe

__all__ = ["BUSY_TIMEOUT_MS", "DB_FILE", "EXAM_GRACE_S", "LOCK_TIMEOUT_MS", "MODES", "NICK_MAX", "NICK_MIN",
           "POOL_OVERFLOW", "POOL_SIZE", "POOL_TIMEOUT_S", "STATEMENT_TIMEOUT_MS", "Learner", "NicknameError",
           "NicknameTaken", "QuestionStats", "Store", "StoreUnavailable", "csv_safe", "default_url", "get_store",
           "log_db_error", "nickname_key", "nickname_look", "pg_connect_args", "validate_nickname"]


class Store(LearnerQueries, AnswerQueries, ClassQueries):
    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_url()
        try:
            self.engine: Engine = make_engine(self.url)
            ensure_schema(self.engine)
            self.close_stale_exams()  # exams nobody came back to (a restart, a closed laptop): not open forever
        except (SQLAlchemyError, OSError) as exc:
            raise StoreUnavailable(detail=type(exc).__name__) from exc

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name


_STORES: dict[str, Store] = {}
_LOCK = threading.Lock()


def get_store(url: str | None = None) -> Store:
    """One Store (engine and pool) per URL for the whole process."""
    url = url or default_url()
    with _LOCK:
        if url not in _STORES:
            _STORES[url] = Store(url)
        return _STORES[url]
