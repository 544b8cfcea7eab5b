"""The recipe for a school without containers (deploy/baremetal/, issue 27.14), run for real here: PostgreSQL made
by db-init.sh as a non-root user with settings that survive a plain restart, a backup and the restore drill, the
nginx site rendered without blanking nginx's own $variables and without Debian's default site keeping the port,
and systemd units that start the command the Dockerfile and tests/stack.py start."""

from __future__ import annotations

import os
import pwd
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from nginx import find_nginx
from pg import find_bindir, missing

from rocm_bridge.classroom.ready import replica_command
from rocm_bridge.quiz.store import Store
from rocm_bridge.serve import ROOT, free_port

HERE = ROOT / "deploy" / "baremetal"


def _osuser() -> str:
    return "nobody" if os.geteuid() == 0 else pwd.getpwuid(os.geteuid()).pw_name


@pytest.fixture(scope="module")
def cluster():
    import tempfile

    bindir = find_bindir()
    if bindir is None:
        missing("PostgreSQL (initdb, pg_ctl, postgres)")
    base = Path(tempfile.mkdtemp(prefix="rocm_bridge_baremetal_"))  # not under pytest's 0700 root: nobody reads it
    base.chmod(0o755)
    data, port, pw = base / "pg", free_port(), base / "pw"
    pw.write_text("s3cret-" + os.urandom(6).hex() + "\n")
    env = {**os.environ, "ROCM_BRIDGE_PG_BIN": str(bindir)}
    out = subprocess.run([str(HERE / "db-init.sh"), str(data), str(port), _osuser(), str(pw)], env=env,
                         capture_output=True, text=True, timeout=120)  # fmt: skip
    assert out.returncode == 0, out.stderr
    password = pw.read_text().strip()
    pgpass = base / "pgpass"
    pgpass.write_text(f"127.0.0.1:{port}:*:rocm_bridge:{password}\n")
    pgpass.chmod(0o600)
    libpq = {"PGHOST": "127.0.0.1", "PGPORT": str(port), "PGUSER": "rocm_bridge", "PGPASSFILE": str(pgpass),
             "PATH": f"{bindir}:{os.environ['PATH']}"}  # fmt: skip
    yield {"data": data, "port": port, "bindir": bindir, "base": base, "env": {**os.environ, **libpq},
           "url": f"postgresql+psycopg://rocm_bridge:{password}@127.0.0.1:{port}/rocm_bridge"}  # fmt: skip
    pg_ctl = [str(bindir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"]
    if os.geteuid() == 0:
        pg_ctl = ["runuser", "-u", _osuser(), "--", *pg_ctl]
    subprocess.run(pg_ctl, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
    shutil.rmtree(base, ignore_errors=True)


def _pg_ctl(c, *args: str) -> None:
    cmd = [str(c["bindir"] / "pg_ctl"), "-D", str(c["data"]), *args]
    if os.geteuid() == 0:
        cmd = ["runuser", "-u", _osuser(), "--", *cmd]
    # the server inherits stdout / stderr: no pipes to wait on (its log is the data directory's log/)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)


def test_postgres_runs_as_a_non_root_user_and_keeps_its_settings_across_a_restart(cluster):
    pid = int((cluster["data"] / "postmaster.pid").read_text().split()[0])
    assert Path(f"/proc/{pid}").stat().st_uid == pwd.getpwnam(_osuser()).pw_uid != 0
    _pg_ctl(cluster, "-w", "restart")  # no -o: what the data directory says is all there is
    psql = [str(cluster["bindir"] / "psql"), "-At", "-d", "rocm_bridge", "-c"]
    out = subprocess.run([*psql, "SHOW max_connections"], env=cluster["env"], capture_output=True, text=True)
    assert out.stdout.strip() == "200", out.stderr
    out = subprocess.run([*psql, "SHOW password_encryption"], env=cluster["env"], capture_output=True, text=True)
    assert out.stdout.strip() == "scram-sha-256"


def test_backup_then_restore_drill(cluster):
    db = Store(cluster["url"])  # the app's schema and some answers
    lid = db.learner_id("Backed Up")
    for i in range(5):
        db.record_answer(lid, question_id=f"q{i}", chapter="ch1", set_name="bank", mode="practice", given=i,
                         correct=i % 2 == 0)  # fmt: skip
    db.engine.dispose()
    backups = cluster["base"] / "backups"
    for _ in range(2):
        out = subprocess.run([str(HERE / "backup.sh"), str(backups)], env={**cluster["env"], "KEEP": "1"},
                             capture_output=True, text=True, timeout=120)  # fmt: skip
        assert out.returncode == 0, out.stderr
    assert len(list(backups.glob("rocm_bridge-*.dump"))) == 1  # the newest KEEP are kept
    out = subprocess.run([str(HERE / "restore-drill.sh"), str(backups)], env=cluster["env"], capture_output=True,
                         text=True, timeout=120)  # fmt: skip
    assert out.returncode == 0, out.stdout + out.stderr
    assert "rb_answers: live 5, restored 5: ok" in out.stdout and "restore drill: ok" in out.stdout
    listed = subprocess.run([str(cluster["bindir"] / "psql"), "-At", "-d", "postgres", "-c",
                             "SELECT datname FROM pg_database WHERE datname LIKE 'rb_restore_drill%'"],
                            env=cluster["env"], capture_output=True, text=True)  # fmt: skip
    assert listed.stdout.strip() == ""  # the scratch database is gone


def test_nginx_site_keeps_nginx_variables_and_takes_the_port_from_debians_default(tmp_path):
    if find_nginx() is None or shutil.which("envsubst") is None:
        missing("nginx and envsubst (gettext-base)")
    enabled = tmp_path / "sites-enabled"
    enabled.mkdir()
    (enabled / "default").write_text("server {\n\tlisten 80 default_server;\n\tlisten [::]:80 default_server;\n}\n")
    (enabled / "other").write_text("server {\n\tlisten 8443;\n}\n")
    site = tmp_path / "rocm-bridge"
    out = subprocess.run([str(HERE / "nginx-site.sh"), str(site), "80", "127.0.0.1:8501 127.0.0.1:8511",
                          "127.0.0.1:8502 127.0.0.1:8512"], env={**os.environ, "SITES_ENABLED": str(enabled),
                          "NGINX": "", "ACCESS_LOG": str(tmp_path / "access.log")}, capture_output=True, text=True)  # fmt: skip
    assert out.returncode == 0, out.stderr
    text = site.read_text()
    for var in ("$http_upgrade", "$request_id", "$cookie_rb_route", "$remote_addr", "$upstream_addr"):
        assert var in text, f"{var} was blanked"
    assert "${" not in re.sub(r"#.*", "", text)
    assert "server 127.0.0.1:8511;" in text and "server 127.0.0.1:8512;" in text
    assert sorted(p.name for p in enabled.iterdir()) == ["other", "rocm-bridge"]  # default moved, other kept
    assert "disabled default" in out.stdout
    conf = tmp_path / "nginx.conf"
    conf.write_text(f"pid {tmp_path}/pid; error_log {tmp_path}/err.log; events {{}} "
                    f"http {{ access_log off; include {enabled}/*; }}")  # fmt: skip
    check = subprocess.run([find_nginx(), "-t", "-p", str(tmp_path), "-c", str(conf)], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr


def _unit(name: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in (HERE / name).read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            out.setdefault(key.strip(), []).append(value.strip())
    return out


def test_systemd_units_start_the_tested_command_as_an_unprivileged_user():
    replica = _unit("rocm-bridge@.service")
    (start,) = replica["ExecStart"]
    inner = shlex.split(shlex.split(start.replace("$$", "$"))[2])  # /bin/sh -c '...' ($$: systemd's literal $)
    assert inner[0] == "ROCM_BRIDGE_READY_PORT=$((%i+1))" and inner[1] == "exec"
    cmd = inner[2:]
    expected = [c.replace("8501", "%i") for c in replica_command(8501, "127.0.0.1")]
    assert [Path(cmd[0]).name, *cmd[1:]] == expected
    assert replica["User"] == ["rocm-bridge"] and replica["Restart"] == ["always"]
    assert "ROCM_BRIDGE_READY_ADDRESS=127.0.0.1" in replica["Environment"][0]
    backup = _unit("rocm-bridge-backup.service")
    assert [Path(shlex.split(s)[0]).name for s in backup["ExecStart"]] == ["backup.sh", "restore-drill.sh"]
    assert backup["User"] == ["postgres"]
    timer = _unit("rocm-bridge-backup.timer")
    assert timer["OnCalendar"] and timer["Persistent"] == ["true"]
    db = _unit("rocm-bridge-postgres.service")
    assert db["User"] == ["postgres"] and " -o " not in db["ExecStart"][0] and " -c " not in db["ExecStart"][0]
