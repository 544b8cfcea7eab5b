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
APP_PORT = 8501  # Streamlit's default; deploy/ (Dockerfile, Compose, Kubernetes) uses it too
HEALTH_PATH = "/_stcore/health"


def streamlit_args(port: int = APP_PORT, address: str = "127.0.0.1") -> list[str]:
    """`streamlit` arguments of one app server: the Dockerfile's CMD is exactly these (a test compares them)."""
    return ["run", "app.py", "--server.headless=true", f"--server.port={port}", f"--server.address={address}",
            "--browser.gatherUsageStats=false", "--server.fileWatcherType=none"]  # fmt: skip


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(
    timeout_s: float = 60, port: int | None = None, env: dict[str, str] | None = None, log: Path | None = None
) -> tuple[subprocess.Popen, str]:
    """A fresh server on a free loopback port; returns (process, base URL) once /_stcore/health answers.

    `env` adds variables (e.g. ROCM_BRIDGE_DB_URL); `log` keeps the server's output in a file."""
    port = port or free_port()
    out = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115 - the child keeps it
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", *streamlit_args(port)],
        cwd=ROOT, stdout=out, stderr=subprocess.STDOUT if log else subprocess.DEVNULL, env={**os.environ, **(env or {})},
    )  # fmt: skip
    if log:
        out.close()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}{HEALTH_PATH}", timeout=2) as resp:
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
