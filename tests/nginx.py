"""nginx in front of local app replicas, from the same template as deploy/ (tests and bench scripts; loopback only).

The site config is deploy/nginx/rocm-bridge.conf.template, filled the way the nginx Docker image fills it (envsubst
of the ${ROCM_BRIDGE_*} names only), and included from a private nginx.conf: `nginx -p DIR -c nginx.conf` with
`daemon off`, pid, logs and temp paths in a temporary directory. As root the workers run as nobody.

    with Nginx(["127.0.0.1:8601", "127.0.0.1:8602"]) as lb:
        print(lb.url)     # http://127.0.0.1:PORT
"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

from rocm_bridge.serve import ROOT, free_port

TEMPLATE = ROOT / "deploy" / "nginx" / "rocm-bridge.conf.template"
ENV_PREFIX = "ROCM_BRIDGE_"  # NGINX_ENVSUBST_FILTER in the Compose file

MAIN_CONF = """\
daemon off;
worker_processes 1;
{user}
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log {dir}/access.log;
    client_body_temp_path {dir}/tmp/body;
    proxy_temp_path {dir}/tmp/proxy;
    fastcgi_temp_path {dir}/tmp/fastcgi;
    uwsgi_temp_path {dir}/tmp/uwsgi;
    scgi_temp_path {dir}/tmp/scgi;
    include {dir}/conf.d/*.conf;
}}
"""


def find_nginx() -> str | None:
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)


def envsubst(text: str, values: dict[str, str]) -> str:
    """What `envsubst '${A} ${B}'` does: replace ${NAME} for the given names only, leave nginx's $vars alone."""
    return re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}", lambda m: values.get(m.group(1), m.group(0)), text)


def template_names(text: str | None = None) -> set[str]:
    """The ${ROCM_BRIDGE_*} names the template expects."""
    text = TEMPLATE.read_text() if text is None else text
    return set(re.findall(r"\$\{(" + ENV_PREFIX + r"[A-Z0-9_]+)\}", text))


def site_values(
    listen: str, upstreams: list[str], access_log: str = "/var/log/nginx/access.log", ready: list[str] | None = None
) -> dict[str, str]:
    """The template's names. `ready`: the replicas' readiness ports (default: the app's host, port + 1, as the
    Dockerfile's 8501 / 8502)."""
    if ready is None:
        ready = [f"{u.rsplit(':', 1)[0]}:{int(u.rsplit(':', 1)[1]) + 1}" for u in upstreams]
    return {
        "ROCM_BRIDGE_LISTEN": listen,
        "ROCM_BRIDGE_UPSTREAM_SERVERS": " ".join(f"server {u};" for u in upstreams),
        "ROCM_BRIDGE_ACCESS_LOG": access_log,
        "ROCM_BRIDGE_READY_SERVERS": " ".join(f"server {u};" for u in ready),
    }


class Nginx:
    def __init__(self, upstreams: list[str], *, ready: list[str] | None = None, nginx: str | None = None) -> None:
        self.upstreams = upstreams
        self.ready = ready
        self.nginx = nginx or find_nginx()
        self.port = 0
        self.dir: Path | None = None
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _write_conf(self) -> Path:
        d = self.dir
        assert d is not None
        (d / "conf.d").mkdir()
        (d / "tmp").mkdir()
        user = ""
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            os.chown(d / "tmp", nobody.pw_uid, nobody.pw_gid)
            user = f"user nobody {_group_of(nobody.pw_gid)};"
        site = envsubst(TEMPLATE.read_text(),
                        site_values(f"127.0.0.1:{self.port}", self.upstreams, f"{d}/access.log", self.ready))  # fmt: skip
        (d / "conf.d" / "rocm-bridge.conf").write_text(site)
        conf = d / "nginx.conf"
        conf.write_text(MAIN_CONF.format(dir=d, user=user))
        return conf

    def start(self, timeout_s: float = 15) -> Nginx:
        if not self.nginx:
            raise RuntimeError("nginx is not installed")
        self.dir = Path(tempfile.mkdtemp(prefix="rocm_bridge_nginx_"))
        self.dir.chmod(0o755)
        for attempt in range(5):  # the free port can be taken between choosing and binding it
            self.port = free_port()
            for p in (self.dir / "conf.d", self.dir / "tmp"):
                shutil.rmtree(p, ignore_errors=True)
            conf = self._write_conf()
            check = subprocess.run([self.nginx, "-t", "-q", "-p", str(self.dir), "-c", str(conf)], capture_output=True,
                                   text=True)  # fmt: skip
            if check.returncode:
                self.stop()
                raise RuntimeError(f"nginx -t refused the config: {check.stderr.strip()}")
            self.proc = subprocess.Popen(
                [self.nginx, "-p", str(self.dir), "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
            )
            deadline = time.monotonic() + timeout_s
            while time.monotonic() < deadline and self.proc.poll() is None:
                try:
                    with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2):
                        return self
                except urllib.error.HTTPError:  # nginx answers (a 502 while the apps start is still nginx up)
                    return self
                except OSError:
                    time.sleep(0.05)
            err = self.proc.stderr.read().decode(errors="replace") if self.proc.poll() is not None else "timeout"
            self.proc = None
            if "Address already in use" not in err or attempt == 4:
                self.stop()
                raise RuntimeError(f"nginx did not start: {err.strip()}")
        raise AssertionError("unreachable")

    def log(self, name: str = "error.log") -> str:
        try:
            return (self.dir / name).read_text(errors="replace") if self.dir else ""
        except OSError:
            return ""

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()  # SIGTERM: fast shutdown of master and workers
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.proc = None
        if self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None

    def __enter__(self) -> Nginx:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _group_of(gid: int) -> str:
    import grp

    return grp.getgrgid(gid).gr_name
