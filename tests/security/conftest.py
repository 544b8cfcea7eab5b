"""The security suite. Its browser tests (test_*_browser.py) reuse the e2e fixtures: Debian chromium, a real
`streamlit run app.py` on a loopback port; they are marked e2e and skip or fail exactly like tests/e2e."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import CHROMIUM, REQUIRE, app_server, browser_type_launch_args  # noqa: F401


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        path = Path(str(item.fspath))
        if path.parent == here and path.name.endswith("_browser.py"):
            item.add_marker(pytest.mark.e2e)
            if not Path(CHROMIUM).exists() and not REQUIRE:
                item.add_marker(pytest.mark.skip(reason=f"no browser at {CHROMIUM} (apt-get install chromium)"))
