"""Shared fixtures. Tests never touch the user's real data directory."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings
from pg import db_url, pg_url, postgres  # noqa: F401 - fixtures: a private PostgreSQL cluster (tests/pg.py)

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")

# Property tests check values, not speed: no per-example deadline (a loaded machine made them "flaky").
settings.register_profile("rocm_bridge", deadline=None)
settings.load_profile("rocm_bridge")

# The quiz database and any other per-user files go to a throwaway directory for the whole run.
os.environ.setdefault("ROCM_BRIDGE_DATA_DIR", str(Path(os.environ.get("TMPDIR", "/tmp")) / f"rocm_bridge_test_{os.getpid()}"))


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    """A fresh, empty data directory for tests that write (quiz database, caches)."""
    monkeypatch.setenv("ROCM_BRIDGE_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("ROCM_BRIDGE_DB_URL", raising=False)
    return tmp_path


@pytest.fixture
def app_test():
    """Factory: an AppTest of the whole app, opened on a page in a language."""
    from streamlit.testing.v1 import AppTest

    def make(page_file: str | None = None, lang: str = "en", **query: str):
        at = AppTest.from_file(APP, default_timeout=30)
        at.query_params["lang"] = lang
        for k, v in query.items():
            at.query_params[k] = v
        at.run()
        if page_file:
            at.switch_page(page_file)
            at.run()
        return at

    return make
