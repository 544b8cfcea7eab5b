"""Browser tests: Debian chromium driven by Playwright against a real `streamlit run app.py`.

Without /usr/bin/chromium these tests skip, unless ROCM_BRIDGE_REQUIRE_BROWSER=1 (set by .ci/run), which turns
the skip into a failure so CI can never pass without running them.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(timeout_s: float = 60) -> tuple[subprocess.Popen, str]:
    """A fresh `streamlit run app.py` on a free loopback port; returns (process, base URL) once healthy."""
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.headless=true",
         f"--server.port={port}", "--server.address=127.0.0.1", "--browser.gatherUsageStats=false"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, "STREAMLIT_SERVER_FILE_WATCHER_TYPE": "none"},
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                if resp.status == 200:
                    return proc, url
        except OSError:
            time.sleep(0.2)
        if proc.poll() is not None:
            raise RuntimeError("streamlit exited during start-up")
    proc.kill()
    raise RuntimeError("streamlit did not become healthy in time")


def stop_server(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


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
