"""The deployment of deploy/compose.yaml without Docker: N app replicas sharing one database, nginx in front.

Replicas are `streamlit run app.py` with the flags of rocm_bridge/serve.py (the Dockerfile's CMD) on free loopback
ports, ROCM_BRIDGE_DB_URL pointing at the shared database; nginx runs the deploy/ template (tests/nginx.py).
Used by tests/integration/test_replicas.py and bench/classroom.py.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from nginx import Nginx

from rocm_bridge.classroom.ready import READY_PATH, replica_command
from rocm_bridge.serve import ROOT, free_port, stop_server


def start_replica(env: dict[str, str], log: Path, timeout_s: float = 90) -> tuple[subprocess.Popen, str, str]:
    """One replica as the Dockerfile starts it (`python -m rocm_bridge.classroom.ready` + the tested streamlit
    arguments) on free loopback ports: (process, app URL, readiness URL) once /_stcore/health answers."""
    import os
    import sys
    import time
    import urllib.request

    port, ready = free_port(), free_port()
    env = {**os.environ, **env, "ROCM_BRIDGE_READY_PORT": str(ready), "ROCM_BRIDGE_READY_ADDRESS": "127.0.0.1"}
    with open(log, "ab") as out:
        cmd = replica_command(port, "127.0.0.1")
        proc = subprocess.Popen([sys.executable, *cmd[1:]], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as resp:
                if resp.status == 200:
                    return proc, url, f"http://127.0.0.1:{ready}{READY_PATH}"
        except OSError:
            time.sleep(0.05)
        if proc.poll() is not None:
            raise RuntimeError(f"the replica exited during start-up: {log.read_text(errors='replace')[-2000:]}")
    stop_server(proc)
    raise RuntimeError("the replica did not become healthy in time")


class Stack:
    def __init__(self, db_url: str, replicas: int = 2, extra_env: dict[str, str] | None = None) -> None:
        import secrets

        self.db_url = db_url
        # deploy/ gives every replica the same cookie secret: signed cookies (the browser's copy of unsent answers,
        # rb_who) made by one replica are read by another
        self.cookie_secret = secrets.token_hex(24)
        self.n = replicas
        self.extra_env = extra_env or {}
        self.procs: list[subprocess.Popen] = []
        self.urls: list[str] = []
        self.ready_urls: list[str] = []
        self.nginx: Nginx | None = None
        self.dir = Path(tempfile.mkdtemp(prefix="rocm_bridge_stack_"))

    @property
    def url(self) -> str:
        assert self.nginx is not None
        return self.nginx.url

    @property
    def upstreams(self) -> list[str]:
        """'127.0.0.1:PORT' of each replica, as nginx's $upstream_addr names them."""
        return [u.removeprefix("http://") for u in self.urls]

    def replica_of(self, upstream: str) -> int:
        return self.upstreams.index(upstream)

    def start(self) -> Stack:
        def one(i: int) -> tuple[subprocess.Popen, str, str]:
            data = self.dir / f"replica{i}"
            data.mkdir()
            env = {"ROCM_BRIDGE_DB_URL": self.db_url, "ROCM_BRIDGE_DATA_DIR": str(data), "ROCM_BRIDGE_TRUST_PROXY": "1",
                   "STREAMLIT_SERVER_COOKIE_SECRET": self.cookie_secret, **self.extra_env}  # fmt: skip
            return start_replica(env, self.dir / f"replica{i}.log")

        try:
            with ThreadPoolExecutor(self.n) as pool:
                for proc, url, ready in pool.map(one, range(self.n)):
                    self.procs.append(proc)
                    self.urls.append(url)
                    self.ready_urls.append(ready)
            ready = [u.removeprefix("http://").split("/")[0] for u in self.ready_urls]
            self.nginx = Nginx(self.upstreams, ready=ready).start()
        except BaseException:
            self.stop()
            raise
        return self

    def logs(self) -> str:
        out = []
        for i in range(self.n):
            path = self.dir / f"replica{i}.log"
            if path.exists():
                out.append(f"--- replica {i}\n" + path.read_text(errors="replace")[-3000:])
        if self.nginx:
            out.append("--- nginx\n" + self.nginx.log()[-2000:])
        return "\n".join(out)

    def stop(self) -> None:
        if self.nginx:
            self.nginx.stop()
            self.nginx = None
        for proc in self.procs:
            stop_server(proc)
        self.procs.clear()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> Stack:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
