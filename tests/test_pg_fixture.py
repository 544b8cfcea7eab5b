"""The private PostgreSQL cluster (tests/pg.py) is real, loopback-only, password-protected, and a store on it works."""

from __future__ import annotations

import psycopg
import pytest
from pg import DB_USER

from rocm_bridge.quiz.store import Store, StoreUnavailable


def test_cluster_is_postgresql_on_loopback_with_a_password(postgres):
    with psycopg.connect(host="127.0.0.1", port=postgres.port, user=DB_USER, password=postgres.password,
                         dbname="postgres") as conn:  # fmt: skip
        version = conn.execute("SHOW server_version").fetchone()[0]
        listen = conn.execute("SHOW listen_addresses").fetchone()[0]
    assert int(version.split(".")[0]) >= 13  # DROP DATABASE ... WITH (FORCE) in pg_url needs 13+
    assert listen == "127.0.0.1"
    with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
        psycopg.connect(host="127.0.0.1", port=postgres.port, user=DB_USER, password="wrong", dbname="postgres")


def test_store_on_postgres_uses_psycopg(pg_url):
    s = Store(pg_url)
    assert (s.engine.dialect.name, s.engine.dialect.driver) == ("postgresql", "psycopg")
    me, code = s.join("小明")
    s.record_answer(me.id, question_id="ch1.x", chapter="ch1", set_name="bank", mode="practice", given=[1, "两"],
                    correct=False)  # fmt: skip
    assert s.resume(code) == me and s.nickname(me.id) == "小明" and s.count_answers() == 1


def test_unreachable_postgres_is_a_clear_error(postgres):
    url = postgres.url.replace(f":{postgres.password}@", ":not-the-password@")
    with pytest.raises(StoreUnavailable) as err:
        Store(url)
    assert err.value.message("en") != err.value.message("zh")
