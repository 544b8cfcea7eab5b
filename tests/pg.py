"""A private PostgreSQL cluster for tests and bench scripts: `initdb` + `pg_ctl` on a free loopback port.

The cluster lives in its own temporary directory, listens on 127.0.0.1 only (no Unix socket), needs a random
password (scram-sha-256) and is stopped and deleted afterwards. PostgreSQL refuses to run as root, so when we are
root the server runs as an unprivileged user (`nobody` unless $ROCM_BRIDGE_PG_USER names another) via `runuser`.

    from pg import find_bindir, PgCluster
    with PgCluster(find_bindir()) as pg:
        print(pg.url)        # postgresql+psycopg://rocm_bridge:...@127.0.0.1:PORT/rocm_bridge

Binaries: $ROCM_BRIDGE_PG_BIN, else Debian's /usr/lib/postgresql/<newest>/bin, else `pg_ctl` on PATH.
"""

from __future__ import annotations

import os
import pwd
import secrets
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from rocm_bridge.serve import free_port

DB_USER = "rocm_bridge"
DB_NAME = "rocm_bridge"


def find_bindir() -> Path | None:
    """The directory holding initdb / pg_ctl / postgres, or None when PostgreSQL is not installed."""
    env = os.environ.get("ROCM_BRIDGE_PG_BIN")
    candidates = [Path(env)] if env else []
    debian = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0
    )
    candidates += reversed(debian)
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(Path(on_path).parent)
    for d in candidates:
        if all((d / exe).is_file() for exe in ("initdb", "pg_ctl", "postgres")):
            return d
    return None


def _runas_prefix() -> tuple[list[str], int | None, int | None]:
    """(command prefix, uid, gid) to run PostgreSQL as an unprivileged user when we are root."""
    if os.geteuid() != 0:
        return [], None, None
    name = os.environ.get("ROCM_BRIDGE_PG_USER", "nobody")
    user = pwd.getpwnam(name)
    return ["runuser", "-u", name, "--"], user.pw_uid, user.pw_gid


class PgCluster:
    """One throw-away PostgreSQL server. `durable=False` (tests) turns fsync off, which only risks data on a crash."""

    def __init__(self, bindir: Path, *, durable: bool = False, max_connections: int = 200) -> None:
        self.bindir = bindir
        self.durable = durable
        self.max_connections = max_connections
        self.port = 0
        self.password = secrets.token_urlsafe(18)
        self.dir: Path | None = None
        self._prefix: list[str] = []

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://{DB_USER}:{self.password}@127.0.0.1:{self.port}/{DB_NAME}"

    @property
    def datadir(self) -> Path:
        assert self.dir is not None
        return self.dir / "data"

    def _run(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
        # A clean environment: LANG/PG* settings from the caller must not change how the cluster is made.
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C.UTF-8", "TZ": "UTC"}
        proc = subprocess.run([*self._prefix, *args], capture_output=True, text=True, env=env, timeout=timeout)
        if proc.returncode:
            raise RuntimeError(f"{Path(args[0]).name} failed ({proc.returncode}): {proc.stderr.strip()[-800:]}")
        return proc

    def start(self) -> PgCluster:
        self._prefix, uid, gid = _runas_prefix()
        self.dir = Path(tempfile.mkdtemp(prefix="rocm_bridge_pg_"))
        pwfile = self.dir / "pw"
        pwfile.write_text(self.password + "\n")
        if uid is not None:
            os.chown(self.dir, uid, gid)
            os.chown(pwfile, uid, gid)
        pwfile.chmod(0o600)
        try:
            self._run(
                str(self.bindir / "initdb"), "-D", str(self.datadir), "-U", DB_USER, f"--pwfile={pwfile}",
                "--auth=scram-sha-256", "--encoding=UTF8", "--locale=C.UTF-8", "--no-sync", "--no-instructions",
            )  # fmt: skip
            pwfile.unlink()
            opts = [
                "-c listen_addresses=127.0.0.1",
                "-c unix_socket_directories=''",
                f"-c max_connections={self.max_connections}",
                "-c shared_buffers=64MB",
            ]
            if not self.durable:
                opts += ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]
            self._opts = opts
            for attempt in range(5):  # the free port can be taken between choosing and binding it
                self.port = free_port()
                try:
                    self._run(
                        str(self.bindir / "pg_ctl"), "-D", str(self.datadir), "-l", str(self.dir / "server.log"),
                        "-w", "-t", "60", "-o", " ".join([f"-p {self.port}", *opts]), "start",
                    )  # fmt: skip
                    break
                except RuntimeError:
                    if attempt == 4 or "could not bind" not in self.log():
                        raise
            self._createdb()
        except BaseException:
            self.stop()
            raise
        return self

    def _createdb(self) -> None:
        with self._admin() as conn:
            conn.execute(f'CREATE DATABASE "{DB_NAME}"')

    def _admin(self):
        import psycopg

        return psycopg.connect(host="127.0.0.1", port=self.port, user=DB_USER, password=self.password,
                               dbname="postgres", autocommit=True)  # fmt: skip

    def create_database(self) -> str:
        """A new empty database in this cluster; returns its SQLAlchemy URL."""
        name = f"t_{secrets.token_hex(6)}"
        with self._admin() as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url.rsplit("/", 1)[0] + "/" + name

    def drop_database(self, url: str) -> None:
        """Drop it, ending any connections still open to it (PostgreSQL 13+)."""
        name = url.rsplit("/", 1)[1]
        with self._admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def pause(self) -> None:
        """Stop the server (an outage), keeping its data: resume() starts it again on the same port."""
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.datadir), "-m", "fast", "-w", "stop", timeout=30)

    def resume(self) -> None:
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.datadir), "-l", str(self.dir / "server.log"), "-w",
                  "-t", "60", "-o", " ".join([f"-p {self.port}", *self._opts]), "start")  # fmt: skip

    def log(self) -> str:
        try:
            return (self.dir / "server.log").read_text(errors="replace") if self.dir else ""
        except OSError:
            return ""

    def stop(self) -> None:
        if self.dir is None:
            return
        if (self.datadir / "postmaster.pid").exists():
            try:
                self._run(str(self.bindir / "pg_ctl"), "-D", str(self.datadir), "-m", "fast", "-w", "stop", timeout=30)
            except (RuntimeError, subprocess.TimeoutExpired):
                self._run(str(self.bindir / "pg_ctl"), "-D", str(self.datadir), "-m", "immediate", "stop", timeout=30)
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir = None

    def __enter__(self) -> PgCluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


# --- pytest fixtures (imported by tests/conftest.py) ---------------------------------------------------------


def missing(what: str) -> None:
    """Skip with the reason, or fail under CI (which installs PostgreSQL and nginx)."""
    reason = f"{what} is not installed (Debian packages postgresql and nginx; .ci/run installs them)"
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(reason + "; CI must have it")
    pytest.skip(reason)


def own_cluster(**kwargs):
    """A private PostgreSQL cluster for as long as the generator runs (for fixtures; skipped if not installed)."""
    bindir = find_bindir()
    if bindir is None:
        missing("PostgreSQL (initdb, pg_ctl, postgres)")
    with PgCluster(bindir, **kwargs) as cluster:
        yield cluster


@pytest.fixture(scope="session")
def postgres():
    """The session's private PostgreSQL cluster (a PgCluster; .url is the SQLAlchemy URL of its database)."""
    yield from own_cluster()


@pytest.fixture
def pg_url(postgres):
    """A fresh, empty database in the session's cluster for one test, dropped (connections and all) after it."""
    url = postgres.create_database()
    yield url
    postgres.drop_database(url)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """A test using it runs twice: on SQLite (the embedded default) and on the private PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'quiz.sqlite3'}"
    return request.getfixturevalue("pg_url")
