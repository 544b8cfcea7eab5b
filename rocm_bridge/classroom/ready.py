"""Readiness: "can this replica serve a class?" - its Streamlit server answers AND its database answers.

Streamlit's /_stcore/health says 200 as soon as the server runs, with PostgreSQL down or a wrong password in the
URL (issue 27.9), so nginx, Compose and Kubernetes kept sending students to a replica that could save nothing.
Streamlit 1.67 serves its own routes and has no hook to add one to a `streamlit run` server, so the readiness
check is a small HTTP server on a SECOND port, in a thread of the app process, started once before Streamlit:

    python -m rocm_bridge.classroom.ready run app.py --server.port=8501 ...   (= `streamlit run app.py ...`)

GET /ready on ROCM_BRIDGE_READY_PORT (default 8502; bound to ROCM_BRIDGE_READY_ADDRESS, default the Streamlit
server's address) answers 200 "ready" or 503 with the reason ("database: OperationalError", "app: ..."). The
database check opens a fresh connection (so a changed password is seen) and runs SELECT 1 and the schema version,
at most once every CACHE_S however often it is asked. The port serves nothing else and is meant for the
orchestrator (deploy/: the image's HEALTHCHECK, the Kubernetes readinessProbe, nginx's /_rb/ready). Liveness stays
/_stcore/health: a database outage must not restart every replica, and the browser's own reconnect check uses it.
"""

from __future__ import annotations

import os
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

READY_PATH = "/ready"
READY_PORT = 8502
CACHE_S = 2.0
TIMEOUT_S = 3

_lock = threading.Lock()
_last: tuple[float, bool, str] = (0.0, False, "not checked")
_engine = None


def check_database(url: str | None = None) -> tuple[bool, str]:
    """(ok, reason): a fresh connection, SELECT 1 and the schema's version row."""
    global _engine
    from sqlalchemy import create_engine, text
    from sqlalchemy.pool import NullPool

    from rocm_bridge.quiz import store

    try:
        u = url or store.default_url()
        if _engine is None or str(_engine.url.render_as_string(hide_password=False)) != u:
            args = store.pg_connect_args() | {"connect_timeout": TIMEOUT_S} if u.startswith("postgresql") else {}
            _engine = create_engine(u, poolclass=NullPool, connect_args=args)
        with _engine.connect() as conn:
            conn.execute(text("SELECT 1"))
            version = conn.execute(text("SELECT version FROM rb_schema WHERE id = 1")).scalar()
        from rocm_bridge.quiz.schema import SCHEMA_VERSION

        if version is None or int(version) < SCHEMA_VERSION:
            return False, f"database: schema version {version}, this app needs {SCHEMA_VERSION}"
        return True, "ready"
    except Exception as exc:  # noqa: BLE001 - any failure is "not ready", with its kind
        store.log_db_error(exc, "readiness")
        return False, f"database: {type(exc).__name__}"


def check_app(app_url: str) -> tuple[bool, str]:
    try:
        with urllib.request.urlopen(app_url + "/_stcore/health", timeout=TIMEOUT_S) as resp:
            return resp.status == 200, "ready" if resp.status == 200 else f"app: HTTP {resp.status}"
    except OSError as exc:
        return False, f"app: {type(exc).__name__}"


def readiness(app_url: str, db_url: str | None = None) -> tuple[bool, str]:
    """Both checks, cached CACHE_S (probes of several orchestrators cost one check)."""
    global _last
    with _lock:
        at, ok, why = _last
        if time.monotonic() - at < CACHE_S:
            return ok, why
        ok, why = check_app(app_url)
        if ok:
            ok, why = check_database(db_url)
        _last = (time.monotonic(), ok, why)
        return ok, why


def serve(address: str, port: int, app_url: str, db_url: str | None = None) -> ThreadingHTTPServer:
    """Start the readiness server in a daemon thread; returns it (server.server_address has the port)."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            if self.path.split("?")[0] != READY_PATH:
                self.send_error(404)
                return
            ok, why = readiness(app_url, db_url)
            body = why.encode()
            self.send_response(200 if ok else 503)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:  # probes every few seconds: not in the log
            pass

    server = ThreadingHTTPServer((address, port), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name="rocm-bridge-ready", daemon=True).start()
    return server


def replica_command(port: int = 8501, address: str = "0.0.0.0") -> list[str]:
    """How a replica starts: the Dockerfile's CMD, the systemd unit's ExecStart (tests compare them)."""
    from rocm_bridge.serve import streamlit_args

    return ["python", "-m", "rocm_bridge.classroom.ready", *streamlit_args(port, address)]


def _flag(args: list[str], name: str, default: str) -> str:
    for i, a in enumerate(args):
        if a.startswith(f"--{name}="):
            return a.split("=", 1)[1]
        if a == f"--{name}" and i + 1 < len(args):
            return args[i + 1]
    return default


def main(args: list[str] | None = None) -> None:
    """`streamlit <args>` in this process, with the readiness server started first (once)."""
    args = list(sys.argv[1:] if args is None else args)
    address = _flag(args, "server.address", "0.0.0.0")
    app_port = int(_flag(args, "server.port", "8501"))
    ready_address = os.environ.get("ROCM_BRIDGE_READY_ADDRESS", address)
    ready_port = int(os.environ.get("ROCM_BRIDGE_READY_PORT", READY_PORT))
    loop = "127.0.0.1" if address in ("0.0.0.0", "", "::") else address
    server = serve(ready_address, ready_port, f"http://{loop}:{app_port}")
    print(f"  Readiness (database included): http://{ready_address}:{server.server_address[1]}{READY_PATH}",
          flush=True)  # fmt: skip
    from streamlit.web.cli import main as streamlit_main

    sys.argv = ["streamlit", *args]
    streamlit_main()


if __name__ == "__main__":
    main()
