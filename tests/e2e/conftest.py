"""Browser tests: Debian chromium driven by Playwright against a real `streamlit run app.py`.

Without /usr/bin/chromium these tests skip, unless ROCM_BRIDGE_REQUIRE_BROWSER=1 (set by .ci/run), which turns
the skip into a failure so CI can never pass without running them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rocm_bridge.serve import start_server, stop_server

CHROMIUM = os.environ.get("ROCM_BRIDGE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
REQUIRE = os.environ.get("ROCM_BRIDGE_REQUIRE_BROWSER") == "1"


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)
    if not Path(CHROMIUM).exists() and not REQUIRE:
        skip = pytest.mark.skip(reason=f"no browser at {CHROMIUM} (apt-get install chromium; .ci/run does)")
        for item in items:
            if "e2e" in item.keywords:
                item.add_marker(skip)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not Path(CHROMIUM).exists():
        pytest.fail(f"ROCM_BRIDGE_REQUIRE_BROWSER=1 but no browser at {CHROMIUM}")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def app_server():
    """Base URL of one app server shared by the browser tests of a run."""
    proc, url = start_server()
    yield url
    stop_server(proc)


@pytest.fixture
def fresh_server():
    """A server nobody has visited yet (for the first-interaction trap)."""
    proc, url = start_server()
    yield url
    stop_server(proc)
