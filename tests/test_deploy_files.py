"""deploy/ says what the integration test runs: same start command, port, health path, nginx template, env names.

No Docker daemon or Kubernetes cluster runs here, so the Dockerfile, the Compose file and the manifests are parsed
and compared with rocm_bridge/serve.py (the command tests/integration starts) and tests/nginx.py (the template it
fills). `nginx -t` checks the template as Compose fills it.
"""

from __future__ import annotations

import json
import re
import subprocess

import pytest
import yaml
from nginx import ENV_PREFIX, TEMPLATE, envsubst, find_nginx, site_values, template_names
from pg import missing

from rocm_bridge.classroom.ready import READY_PATH, READY_PORT, replica_command
from rocm_bridge.quiz.store import POOL_OVERFLOW, POOL_SIZE
from rocm_bridge.serve import APP_PORT, HEALTH_PATH, ROOT

# the command tests/stack.py starts every replica with (the readiness thread, then streamlit in that process)
REPLICA_CMD = replica_command(APP_PORT, "0.0.0.0")
CONNECTIONS_PER_REPLICA = POOL_SIZE + POOL_OVERFLOW + 1  # the pool at its fullest, and the readiness check
SPARE_CONNECTIONS = 10  # pg_dump, an admin's psql, superuser_reserved_connections (3)

DEPLOY = ROOT / "deploy"


def dockerfile() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    lines = [line for line in (DEPLOY / "Dockerfile").read_text().splitlines() if not line.lstrip().startswith("#")]
    text = re.sub(r"\\\n", " ", "\n".join(lines))
    out = []
    for line in text.splitlines():
        if line.strip():
            instr, _, args = line.strip().partition(" ")
            out.append((instr.upper(), " ".join(args.split())))
    return out


def instr(name: str) -> list[str]:
    return [a for i, a in dockerfile() if i == name]


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


@pytest.fixture(scope="module")
def k8s() -> dict[tuple[str, str], dict]:
    docs = {}
    for path in sorted((DEPLOY / "k8s").glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text()):
            if doc and "metadata" in doc:
                docs[(doc["kind"], doc["metadata"]["name"])] = doc
    return docs


def test_dockerfile_runs_the_tested_command_as_a_non_root_user():
    (base,) = instr("FROM")
    assert re.fullmatch(r"python:3\.11(\.\d+)?-slim(-\w+)?", base)
    (cmd,) = instr("CMD")
    assert json.loads(cmd) == REPLICA_CMD
    assert instr("EXPOSE") == [f"{APP_PORT} {READY_PORT}"]
    (user,) = instr("USER")
    assert user not in ("root", "0")
    assert any("useradd" in r and re.search(rf"\b{user}\b", r) for r in instr("RUN"))
    assert "pip install -r requirements.txt" in " ".join(instr("RUN"))
    (health,) = instr("HEALTHCHECK")
    assert f"http://127.0.0.1:{READY_PORT}{READY_PATH}" in health  # readiness: the database too (issue 27.9)


def test_image_has_the_postgres_driver_the_urls_name():
    reqs = (ROOT / "requirements.txt").read_text()
    assert re.search(r"^psycopg\[binary\]==[\d.]+$", reqs, re.M)
    ignore = (DEPLOY / "Dockerfile.dockerignore").read_text().split()
    assert ".git" in ignore and "app.py" not in ignore and ".streamlit" not in ignore


def test_compose_wires_db_replicas_and_nginx(compose):
    db, app, lb = (compose["services"][k] for k in ("db", "app", "nginx"))
    build = app["build"]
    assert (DEPLOY / build["context"] / build["dockerfile"]).resolve() == DEPLOY / "Dockerfile"
    assert "command" not in app  # the image's CMD, i.e. the tested start command
    url = app["environment"]["ROCM_BRIDGE_DB_URL"]
    assert url.startswith("postgresql+psycopg://") and "@db:5432/" in url
    assert db["environment"]["POSTGRES_USER"] in url and url.endswith("/" + db["environment"]["POSTGRES_DB"])
    assert app["expose"] == [str(APP_PORT), str(READY_PORT)] and "ports" not in app  # only through nginx, so
    assert app["environment"]["ROCM_BRIDGE_TRUST_PROXY"] == "1"  # its X-Real-IP can be trusted
    assert app["depends_on"]["db"]["condition"] == "service_healthy"
    assert "replicas" in app["deploy"]
    assert lb["depends_on"]["app"]["condition"] == "service_healthy"
    assert lb["ports"][0].endswith(":80")


def test_compose_mounts_the_tested_nginx_template(compose):
    lb = compose["services"]["nginx"]
    (volume,) = lb["volumes"]
    src, dst, *_ = volume.split(":")
    assert (DEPLOY / src).resolve() == TEMPLATE  # the file tests/nginx.py fills for the integration test
    assert dst == "/etc/nginx/templates/default.conf.template"  # replaces the image's default server
    env = lb["environment"]
    assert set(env) - {"NGINX_ENVSUBST_FILTER"} == template_names()
    assert all(re.search(env["NGINX_ENVSUBST_FILTER"], n) for n in template_names())
    assert env["NGINX_ENVSUBST_FILTER"] == "^" + ENV_PREFIX
    assert env["ROCM_BRIDGE_LISTEN"] == "80"
    assert env["ROCM_BRIDGE_UPSTREAM_SERVERS"] == f"server app:{APP_PORT};"
    assert env["ROCM_BRIDGE_READY_SERVERS"] == f"server app:{READY_PORT};"


def test_compose_variables_are_documented(compose):
    text = (DEPLOY / "compose.yaml").read_text()
    used = set(re.findall(r"\$\{(\w+)", text))
    documented = set(re.findall(r"^(\w+)=", (DEPLOY / ".env.example").read_text(), re.M))
    assert used == documented


def test_template_as_compose_fills_it_is_valid_nginx(tmp_path, compose):
    exe = find_nginx()
    if exe is None:
        missing("nginx")
    values = {k: v for k, v in compose["services"]["nginx"]["environment"].items() if k.startswith(ENV_PREFIX)}
    # `app` resolves only inside Compose's network; nginx -t resolves upstream names, so use loopback here.
    for name in ("ROCM_BRIDGE_UPSTREAM_SERVERS", "ROCM_BRIDGE_READY_SERVERS"):
        values[name] = values[name].replace("app:", "127.0.0.1:")
    site = envsubst(TEMPLATE.read_text(), values)
    assert "${" not in re.sub(r"#.*", "", site)
    assert site_values("80", [f"127.0.0.1:{APP_PORT}"]) == values
    (tmp_path / "site.conf").write_text(site)
    conf = tmp_path / "nginx.conf"
    conf.write_text(f"pid {tmp_path}/pid; error_log {tmp_path}/err.log; events {{}} "
                    f"http {{ access_log off; include {tmp_path}/site.conf; }}")  # fmt: skip
    proc = subprocess.run([exe, "-t", "-p", str(tmp_path), "-c", str(conf)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_template_proxies_websockets_and_sticks(compose):
    text = TEMPLATE.read_text()
    stream = text[text.index("location = /_stcore/stream") :]
    stream = stream[: stream.index("}")]
    assert "proxy_set_header Upgrade $http_upgrade;" in stream
    assert text.count("proxy_set_header X-Real-IP $remote_addr;") == text.count("proxy_pass ")
    assert re.search(r"proxy_read_timeout (\d+)s;", stream).group(1) == "3600"
    assert re.search(r"hash \$rb_route consistent;", text)
    assert f"location = {HEALTH_PATH}" in text


def test_kubernetes_manifests_agree(k8s):
    dep = k8s[("Deployment", "rocm-bridge")]
    assert dep["spec"]["replicas"] >= 2
    pod = dep["spec"]["template"]["spec"]
    (c,) = pod["containers"]
    assert "command" not in c and "args" not in c  # the image's CMD
    assert c["ports"][0]["containerPort"] == APP_PORT
    ports = {p["name"]: p["containerPort"] for p in c["ports"]}
    assert ports == {"http": APP_PORT, "ready": READY_PORT}
    assert (c["readinessProbe"]["httpGet"]["path"], c["readinessProbe"]["httpGet"]["port"]) == (READY_PATH, "ready")
    assert (c["livenessProbe"]["httpGet"]["path"], c["livenessProbe"]["httpGet"]["port"]) == (HEALTH_PATH, "http")
    rolling = dep["spec"]["strategy"]["rollingUpdate"]
    assert dep["spec"]["strategy"]["type"] == "RollingUpdate" and rolling["maxUnavailable"] == 0
    pdb = k8s[("PodDisruptionBudget", "rocm-bridge")]
    assert pdb["spec"]["selector"]["matchLabels"] == dep["spec"]["template"]["metadata"]["labels"]
    assert pdb["spec"]["maxUnavailable"] == 1 < dep["spec"]["replicas"]
    uid = re.search(r"--uid (\d+)", " ".join(instr("RUN"))).group(1)
    assert pod["securityContext"]["runAsNonRoot"] and str(pod["securityContext"]["runAsUser"]) == uid
    secret = k8s[("Secret", "rocm-bridge")]["stringData"]
    env = {e["name"]: e["valueFrom"]["secretKeyRef"] for e in c["env"] if "valueFrom" in e}
    assert {e["name"]: e.get("value") for e in c["env"]}["ROCM_BRIDGE_TRUST_PROXY"] == "1"
    assert set(env) == {"ROCM_BRIDGE_DB_URL", "STREAMLIT_SERVER_COOKIE_SECRET"}
    assert all(ref["name"] == "rocm-bridge" and ref["key"] in secret for ref in env.values())
    assert secret["ROCM_BRIDGE_DB_URL"].startswith("postgresql+psycopg://")
    assert "@rocm-bridge-db:5432/" in secret["ROCM_BRIDGE_DB_URL"]  # the reference StatefulSet's Service
    svc = k8s[("Service", "rocm-bridge")]
    assert svc["spec"]["selector"] == dep["spec"]["template"]["metadata"]["labels"]
    assert svc["spec"]["ports"][0]["port"] == APP_PORT
    db = k8s[("StatefulSet", "rocm-bridge-db")]
    assert db["spec"]["serviceName"] == "rocm-bridge-db"
    assert {m["metadata"]["namespace"] for m in k8s.values() if m["kind"] != "Namespace"} == {"rocm-bridge"}


def test_ingress_has_cookie_affinity_and_websocket_timeouts(k8s):
    ing = k8s[("Ingress", "rocm-bridge")]
    ann = ing["metadata"]["annotations"]
    assert ann["nginx.ingress.kubernetes.io/affinity"] == "cookie"
    assert ann["nginx.ingress.kubernetes.io/session-cookie-name"] in TEMPLATE.read_text()  # rb_route, as in Compose
    assert int(ann["nginx.ingress.kubernetes.io/proxy-read-timeout"]) >= 3600
    # the same per-address bound as the nginx template's limit_conn on /_stcore/stream
    limit = re.search(r"limit_conn rb_streams (\d+);", TEMPLATE.read_text())
    assert limit and ann["nginx.ingress.kubernetes.io/limit-connections"] == limit.group(1)
    backend = ing["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]
    assert backend["name"] == "rocm-bridge" and backend["port"]["name"] == "http"
    kust = yaml.safe_load((DEPLOY / "k8s" / "kustomization.yaml").read_text())
    assert all((DEPLOY / "k8s" / r).is_file() for r in kust["resources"])
    assert "secret.yaml" not in kust["resources"]  # created with real values by kubectl, never applied as committed


def test_the_app_reads_the_env_name_deploy_sets(monkeypatch):
    from rocm_bridge.quiz.store import default_url

    monkeypatch.setenv("ROCM_BRIDGE_DB_URL", "postgresql+psycopg://u:p@db:5432/rocm_bridge")
    assert default_url() == "postgresql+psycopg://u:p@db:5432/rocm_bridge"


def _max_connections(args: list[str]) -> int:
    joined = " ".join(args)
    found = re.search(r"max_connections=(\d+)", joined)
    return int(found.group(1)) if found else 100  # PostgreSQL's default


def test_postgres_has_room_for_every_replica_pool(compose, k8s):
    """Issue 27.14: N replicas x (pool_size + max_overflow + readiness) must stay under max_connections, with room
    for pg_dump and an admin; the files say how many replicas that is (6 with 200)."""
    limit = _max_connections(compose["services"]["db"]["command"])
    assert limit >= 6 * CONNECTIONS_PER_REPLICA + SPARE_CONNECTIONS
    replicas = int(re.search(r"\$\{ROCM_BRIDGE_REPLICAS:-(\d+)\}", str(compose["services"]["app"]["deploy"]["replicas"]))[1])
    assert replicas * CONNECTIONS_PER_REPLICA + SPARE_CONNECTIONS <= limit
    (db,) = k8s[("StatefulSet", "rocm-bridge-db")]["spec"]["template"]["spec"]["containers"]
    k8s_limit = _max_connections(db["args"])
    dep = k8s[("Deployment", "rocm-bridge")]["spec"]
    surge = dep["strategy"]["rollingUpdate"]["maxSurge"]
    assert (dep["replicas"] + surge) * CONNECTIONS_PER_REPLICA + SPARE_CONNECTIONS <= k8s_limit
