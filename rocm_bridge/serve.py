"""Start and stop a local `streamlit run app.py` (for browser tests and bench scripts; loopback only)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(timeout_s: float = 60, port: int | None = None) -> tuple[subprocess.Popen, str]:
    """A fresh server on a free loopback port; returns (process, base URL) once /_stcore/health answers."""
    port = port or free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.headless=true",
         f"--server.port={port}", "--server.address=127.0.0.1", "--browser.gatherUsageStats=false",
         "--server.fileWatcherType=none"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ),
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                if resp.status == 200:
                    return proc, url
        except OSError:
            time.sleep(0.05)
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
