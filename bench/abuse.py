"""What one visitor at an allowed maximum costs the server, and what another visitor feels meanwhile.

For each heavy path a scripted visitor (bench/wsclient.py: Streamlit's websocket protocol, uploads through
Streamlit's upload endpoint) sends the largest input the app accepts, while a second visitor reruns chapter 3
back to back. Printed per path: the attacker's time to an answer, the peak RSS of the server process tree
(the server plus children such as the graph parser) above its idle level, the other visitor's rerun p95
before and during the attack, and what the attacker was told. Loopback only.

    python bench/abuse.py [--paths doctor,coverage,hipify,hipify_diff,live,compile] [--live-budget 300]
    python bench/abuse.py --paths session_flood --sessions 1100 --nofile 1024   # systemd's default soft limit
    python bench/abuse.py --paths slow_reader --slow-s 60
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from wsclient import Session, p95, rerun_loop  # noqa: E402

from rocm_bridge.serve import start_server, stop_server  # noqa: E402

VICTIM_PAGE = "ch3-operators"


def _rss_kb(pid: int) -> int:
    """RSS of a process and its descendants (kB), from /proc."""
    total = 0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/status") as fh:
                total += next((int(line.split()[1]) for line in fh if line.startswith("VmRSS:")), 0)
            for task in Path(f"/proc/{p}/task").iterdir():
                todo.extend(int(c) for c in (task / "children").read_text().split())
        except (OSError, ValueError):
            continue
    return total


class Sampler(threading.Thread):
    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.peak, self.stop = pid, 0, threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            self.peak = max(self.peak, _rss_kb(self.pid))
            time.sleep(0.05)


# --- the attacks: each returns (input description, what the attacker saw) ------------------------------------


def _said(s: Session, *needles: str, kinds: tuple[str, ...] = ("alert:", "exception:")) -> str:
    """The first alert (success, info, warning, error) or exception that contains one of the needles."""
    for text in s.texts():
        if text.startswith(kinds) and any(n in text for n in needles):
            return text.split(": ", 1)[-1][:90].replace("\\", "").replace("|", "/")
    if s.exceptions():
        return "TRACEBACK: " + s.exceptions()[0][:60]
    alerts = [t for t in s.texts() if t.startswith("alert:")]
    return ("alert: " + alerts[-1].split(": ", 1)[-1][:80].replace("|", "/")) if alerts else "(no message)"


async def doctor(url: str, s: Session, _args) -> AsyncIterator[str]:
    from rocm_bridge.doctor.logs import MAX_LINE_CHARS, MAX_LOG_BYTES
    from tests.security.payloads import LOG_SAMPLES, fill, log_worst_cases

    text = log_worst_cases(LOG_SAMPLES["rocm_lib_missing"], MAX_LOG_BYTES, MAX_LINE_CHARS)["near_miss_full_lines"]
    text = text[: MAX_LOG_BYTES // 2] + fill("librocblas", MAX_LOG_BYTES - MAX_LOG_BYTES // 2)
    await s.run("doctor")
    yield f"{len(text):,}-char paste (librocblas near misses)"
    await s.run("doctor", {"doc_log": text, "doc_log_go": True})
    yield _said(s, "known problem", "busy")


async def coverage(url: str, s: Session, _args) -> AsyncIterator[str]:
    from rocm_bridge.coverage import upload
    from tests.security import bombs

    q = "lang=en&cv_source=upload"
    await s.run("coverage", query=q)
    warm = await s.upload("cv_file", "warm.zip", bombs.saved_model_small())  # TensorFlow's import, not timed
    await s.run("coverage", {"cv_file": warm}, query=q)
    data = bombs.saved_model_huge(upload.MAX_GRAPH_NODES - 1, reachable=True)
    yield f"SavedModel, {upload.MAX_GRAPH_NODES - 1:,} nodes all traced ({len(data) / 1e6:.1f} MB zip)"
    info = await s.upload("cv_file", "max.zip", data)
    await s.run("coverage", {"cv_file": info}, query=q)
    metric = next((t for t in s.texts() if t.startswith("metric: ") and "%" in t), None)
    yield f"report shown, R = {metric.split(': ', 1)[1]}" if metric else _said(s, "refused", "busy", "could not")


async def coverage_refused(url: str, s: Session, _args) -> AsyncIterator[str]:
    from tests.security import bombs

    q = "lang=en&cv_source=upload"
    await s.run("coverage", query=q)
    data = bombs.saved_model_huge(2_000_000)
    yield f"the issue's 2M-node SavedModel ({len(data) / 1e6:.1f} MB zip)"
    info = await s.upload("cv_file", "huge.zip", data)
    await s.run("coverage", {"cv_file": info}, query=q)
    yield _said(s, "refused", "limit", "busy")


async def hipify(url: str, s: Session, _args) -> AsyncIterator[str]:
    from rocm_bridge.hipify import page_model as pm
    from rocm_bridge.limits import HIPIFY_UPLOAD_MB, MB

    unit = (pm.example_source(pm.EXAMPLES[0]) + "\n").encode()
    data = (unit * (HIPIFY_UPLOAD_MB * MB // len(unit) + 1))[: HIPIFY_UPLOAD_MB * MB]
    await s.run("hipify")
    yield f"{len(data) / 1e6:.1f} MB .cu file"
    info = await s.upload("hp_upload", "max.cu", data)
    await s.run("hipify", {"hp_upload": info})
    yield _said(s, "Showing the upload", "limit", "UTF-8", kinds=("alert:", "exception:", "markdown:"))


async def hipify_diff(url: str, s: Session, _args) -> AsyncIterator[str]:
    """Issue 27 item 3: the diff view on repetitive code (difflib took 50 s of CPU on 2,000 such lines)."""
    unit = "cudaMalloc(&d, 4);\nx = 1;\n}\n"
    data = (unit * 3_334).encode()
    lines = data.count(b"\n")  # 10,002
    q = "lang=en&hp_view=diff"
    await s.run("hipify", query=q)
    yield f"{lines:,}-line repetitive .cu, diff view"
    info = await s.upload("hp_upload", "rep.cu", data)
    await s.run("hipify", {"hp_upload": info}, query=q)
    yield _said(s, "Changed lines", "too different", kinds=("alert:", "exception:", "markdown:", "caption:"))


async def live(url: str, s: Session, args) -> AsyncIterator[str]:
    await s.run("live")
    if "lv_start" not in s.ids:
        yield "no framework installed"
        yield "(skipped)"
        return
    yield f"all benchmarks, full size, budget {args.live_budget} s"
    await s.run("live", {"lv_budget": ("numbers", [float(args.live_budget)]), "lv_small": ("bool", False),
                         "lv_start": True}, timeout=args.live_budget * 3 + 120)  # fmt: skip
    yield _said(s, "Saved as", "busy", "Another benchmark", "Finished")


async def compile_lab(url: str, s: Session, _args) -> AsyncIterator[str]:
    from rocm_bridge.pages import PAGES

    if not any(p.key == "compile" for p in PAGES):
        yield "n/a: the compile lab is not in this branch"
        yield "(skipped)"
        return
    from rocm_bridge.compile import policy

    # the largest text the page accepts, as distinct kernels, so the compiler has work for every byte
    head, kernels = "#include <hip/hip_runtime.h>\n", []
    size = len(head)
    while True:
        k = f"__global__ void k{len(kernels)}(float* p) {{ p[threadIdx.x] = p[threadIdx.x] * 2.0f + {len(kernels)}.0f; }}\n"
        if size + len(k) > policy.MAX_CODE_BYTES:
            break
        kernels.append(k)
        size += len(k)
    code = head + "".join(kernels)
    await s.run("compile")
    yield f"{len(code.encode()) / 1e3:.0f} KB of HIP ({len(kernels):,} kernels)"
    await s.run("compile", {"cl_code": code, "cl_go": True}, timeout=900)
    yield _said(s, "error", "rror", "VGPR", "busy", "time", "limit", "sandbox", kinds=("alert:", "exception:", "metric:"))


async def keras_bomb(url: str, s: Session, _args) -> AsyncIterator[str]:
    """Issue 27 #1: a .keras file of a few hundred bytes whose config declares a 250M-row Embedding."""
    from tests.security import bombs

    q = "lang=en&cv_source=upload"
    await s.run("coverage", query=q)
    data = bombs.keras_config_bomb({"class_name": "Embedding", "config": {"name": "e", "input_dim": 250_000_000,
                                                                          "output_dim": 8}}, [None, 10])
    yield f".keras, {len(data)} bytes, Embedding(250,000,000 x 8) declared"
    info = await s.upload("cv_file", "tiny.keras", data)
    await s.run("coverage", {"cv_file": info}, query=q)
    yield _said(s, "weights", "memory", "refused", "busy", "could not")


async def upload_flood(url: str, s: Session, _args) -> AsyncIterator[str]:
    """Issue 27 #2: one live session uploads 8 files of the server's maximum size."""
    from rocm_bridge import limits

    mb = limits.server_upload_mb()
    await s.run("coverage", query="lang=en&cv_source=upload")
    yield f"8 x {mb} MB uploads from one session"
    for i in range(8):
        await s.upload("cv_file", f"f{i}.zip", bytes([i]) * (mb * 1024 * 1024 - 4096))
    yield "all 8 accepted by the endpoint; the session keeps the newest"


async def rerun_flood(url: str, s: Session, _args) -> AsyncIterator[str]:
    """Issue 27 #5: one client sends rerun requests as fast as it can for 10 s, never waiting for the results."""
    from streamlit.proto.BackMsg_pb2 import BackMsg

    await s.run(VICTIM_PAGE)
    yield "reruns of ch3 as fast as one client sends them, 10 s"
    sent, stop = 0, time.monotonic() + 10

    async def drain() -> None:
        while time.monotonic() < stop + 1:
            try:
                await s._recv(0.5)
            except TimeoutError:
                continue

    reader = asyncio.create_task(drain())
    while time.monotonic() < stop:
        msg = BackMsg()
        msg.rerun_script.query_string, msg.rerun_script.page_name = f"lang=en&n={sent}", VICTIM_PAGE
        await s.ws.send(msg.SerializeToString())
        sent += 1
        await asyncio.sleep(0.001)
    await reader
    yield f"{sent / 10:.0f} requests/s sent"


async def session_flood(url: str, s: Session, args) -> AsyncIterator[str]:
    """One client opens many websocket sessions, each shows a page once and then sits idle; at the end a new
    visitor opens the site from another address (127.0.0.2). How many the server took, and the new visitor's first
    page."""
    n = args.sessions
    await s.run(VICTIM_PAGE)
    yield f"{n} websocket sessions from one address, each runs {VICTIM_PAGE} once, then idles"
    held: list[Session] = []
    failed = told = 0
    try:
        for _ in range(n):
            try:
                extra = await Session.open(url)
                held.append(extra)
                await extra.run(VICTIM_PAGE, timeout=30)
                told += any("open pages" in t for t in extra.texts())  # security.too_many_sessions
            except Exception:  # noqa: BLE001 - the connection failed or was closed: counted
                failed += 1
        fresh = await Session.open(url, source="127.0.0.2")
        try:
            first = await fresh.run(VICTIM_PAGE, timeout=120)
            note = f"a new visitor's first page {first:.2f} s"
        except Exception as err:  # noqa: BLE001
            note = f"a new visitor could not connect ({type(err).__name__})"
        finally:
            await fresh.close()
    finally:
        for extra in held:
            with contextlib.suppress(Exception):
                await extra.close()
    yield f"{n - failed - told} admitted, {told} told the cap and closed, {failed} failed; {note}"


async def slow_reader(url: str, s: Session, args) -> AsyncIterator[str]:
    """A client that asks for reruns of the hipify page showing a 5 MB upload but never reads the answers:
    does the server queue them for it without bound?"""
    from streamlit.proto.BackMsg_pb2 import BackMsg

    from rocm_bridge.hipify import page_model as pm
    from rocm_bridge.limits import HIPIFY_UPLOAD_MB, MB

    unit = (pm.example_source(pm.EXAMPLES[0]) + "\n").encode()
    data = (unit * (HIPIFY_UPLOAD_MB * MB // len(unit) + 1))[: HIPIFY_UPLOAD_MB * MB]
    await s.run("hipify")
    info = await s.upload("hp_upload", "max.cu", data)
    await s.run("hipify", {"hp_upload": info})
    yield f"reruns of hipify with a {len(data) / 1e6:.1f} MB upload, {args.slow_s} s, never reading"
    sent, stop = 0, time.monotonic() + args.slow_s
    try:
        while time.monotonic() < stop:
            msg = BackMsg()
            msg.rerun_script.query_string, msg.rerun_script.page_name = "lang=en", "hipify"
            state = msg.rerun_script.widget_states.widgets.add()
            state.id = s.ids["hp_upload"]
            state.file_uploader_state_value.uploaded_file_info.append(info)
            await asyncio.wait_for(s.ws.send(msg.SerializeToString()), 5)
            sent += 1
            await asyncio.sleep(0.05)
    except (TimeoutError, Exception) as err:  # noqa: BLE001 - the server may close the socket
        return_note = f"; stopped after {sent}: {type(err).__name__}"
    else:
        return_note = ""
    yield f"{sent} requests sent{return_note}"


async def compile_sessions(url: str, s: Session, args) -> AsyncIterator[str]:
    """One client opens 17 sessions of the compile lab and clicks compile in each with the largest slow source
    (the line holds 16 waiting); then a visitor from another address (127.0.0.2) clicks compile on an example.
    What that visitor is told within 15 s (the attacker's compiles themselves take up to 60 s each)."""
    from streamlit.proto.BackMsg_pb2 import BackMsg

    from rocm_bridge.compile import policy, sandbox
    from rocm_bridge.pages import PAGES

    if not any(p.key == "compile" for p in PAGES) or not sandbox.sandbox_works():
        yield "n/a: no compile lab or no sandbox here"
        yield "(skipped)"
        return
    kernels = "".join(f"__global__ void k{i}(float* p) {{ p[threadIdx.x] *= {i}.0f; }}\n" for i in range(5000))
    code = ("#include <hip/hip_runtime.h>\n" + kernels)[: policy.MAX_CODE_BYTES]
    code = code[: code.rfind("\n") + 1]
    tabs = [await Session.open(url) for _ in range(17)]
    for t in tabs:
        await t.run("compile")
    yield "17 sessions of one client each click compile (5,000 kernels); another address then clicks compile"
    told_busy = 0
    try:
        for i, t in enumerate(tabs):
            msg = BackMsg()
            msg.rerun_script.query_string, msg.rerun_script.page_name = f"lang=en&i={i}", "compile"
            for key, value in (("cl_code", code), ("cl_go", True)):
                w = msg.rerun_script.widget_states.widgets.add()
                w.id = t.ids[key]
                if value is True:
                    w.trigger_value = True
                else:
                    w.string_value = value
            await t.ws.send(msg.SerializeToString())
            await asyncio.sleep(0.3)
        visitor = await Session.open(url, source="127.0.0.2")
        try:
            await visitor.run("compile")
            msg = BackMsg()
            msg.rerun_script.query_string, msg.rerun_script.page_name = "lang=en", "compile"
            w = msg.rerun_script.widget_states.widgets.add()
            w.id, w.trigger_value = visitor.ids["cl_go"], True
            await visitor.ws.send(msg.SerializeToString())
            seen: list[str] = []
            end = time.monotonic() + 15
            while time.monotonic() < end:
                try:
                    fwd = await visitor._recv(1)
                except TimeoutError:
                    continue
                if fwd.WhichOneof("type") == "delta" and fwd.delta.WhichOneof("type") == "new_element":
                    el = fwd.delta.new_element
                    proto = getattr(el, el.WhichOneof("type") or "", None)
                    body = getattr(proto, "body", "") if proto is not None else ""
                    if isinstance(body, str) and any(w in body for w in ("line", "busy", "running", "wait")):
                        seen.append(body)
                elif fwd.WhichOneof("type") == "script_finished":
                    break
        finally:
            await visitor.close()
        for t in tabs:
            with contextlib.suppress(Exception):
                while True:
                    fwd = await t._recv(0.2)
                    el = fwd.delta.new_element if fwd.WhichOneof("type") == "delta" else None
                    body = getattr(getattr(el, el.WhichOneof("type") or "", None), "body", "") if el else ""
                    told_busy += isinstance(body, str) and "Your network already has" in body
    finally:
        for t in tabs:
            with contextlib.suppress(Exception):
                await t.close()
    said = seen[-1][:70].replace("|", "/") if seen else "(nothing within 15 s)"
    yield f"{told_busy} of the 17 told the per-client cap; the visitor: {said}"


async def coverage_loop(url: str, s: Session, args) -> AsyncIterator[str]:
    """One client uploads the largest accepted SavedModel again the moment each analysis ends (a new byte each
    time, so the result cache does not answer); a visitor from another address (127.0.0.2) uploads a small model
    every 8 s. How many of the visitor's tries ran."""
    from rocm_bridge.coverage import upload
    from tests.security import bombs

    q = "lang=en&cv_source=upload"
    await s.run("coverage", query=q)
    big = bombs.saved_model_huge(upload.MAX_GRAPH_NODES - 1, reachable=True)
    small = bombs.saved_model_small()
    visitor = await Session.open(url, source="127.0.0.2")
    await visitor.run("coverage", query=q)
    yield f"largest SavedModel ({upload.MAX_GRAPH_NODES - 1:,} nodes) uploaded back to back for {args.loop_s} s"
    stop = time.monotonic() + args.loop_s
    analyses = 0

    async def attacker() -> None:
        nonlocal analyses
        i = 0
        while time.monotonic() < stop:
            info = await s.upload("cv_file", f"big{i}.zip", big + bytes(i % 250 + 1))
            await s.run("coverage", {"cv_file": info}, query=q, timeout=300)
            analyses += any(t.startswith("metric: ") and "%" in t for t in s.texts())
            i += 1

    task = asyncio.create_task(attacker())
    ran = tries = 0
    try:
        await asyncio.sleep(3)
        while time.monotonic() < stop:
            info = await visitor.upload("cv_file", f"mine{tries}.zip", small + bytes(tries + 1))
            await visitor.run("coverage", {"cv_file": info}, query=q, timeout=300)
            ran += any(t.startswith("metric: ") and "%" in t for t in visitor.texts())
            tries += 1
            await asyncio.sleep(8)
        await task
    finally:
        await visitor.close()
    yield f"attacker {analyses} analyses; the visitor's tries that ran: {ran} of {tries}"


PATHS = {"doctor": doctor, "coverage": coverage, "coverage_refused": coverage_refused, "hipify": hipify,
         "hipify_diff": hipify_diff, "live": live, "compile": compile_lab, "keras_bomb": keras_bomb,
         "upload_flood": upload_flood, "rerun_flood": rerun_flood,
         "session_flood": session_flood, "slow_reader": slow_reader, "compile_sessions": compile_sessions,
         "coverage_loop": coverage_loop}  # fmt: skip


async def measure(url: str, pid: int, name: str, args) -> dict:
    baseline = await _baseline(url)
    attacker = await Session.open(url)
    steps = PATHS[name](url, attacker, args)
    try:
        what = await anext(steps)  # setup done, the maximum input is ready
        if what.startswith(("n/a", "no framework")):
            return {"path": name, "input": what, "skipped": True, "said": await anext(steps)}
        idle_kb = _rss_kb(pid)
        sampler = Sampler(pid)
        stop = asyncio.Event()
        victim = asyncio.create_task(rerun_loop(url, VICTIM_PAGE, stop))
        await asyncio.sleep(1.0)  # the victim is rerunning
        sampler.start()
        t0 = time.perf_counter()
        said = await anext(steps)
        elapsed = time.perf_counter() - t0
        stop.set()
        during = await victim
        sampler.stop.set()
        sampler.join()
    finally:
        await attacker.close()
    return {"path": name, "input": what, "time": elapsed, "peak_mb": sampler.peak / 1024,
            "extra_mb": (sampler.peak - idle_kb) / 1024, "p95_idle": p95(baseline) * 1000,
            "p95_during": p95(during) * 1000, "max_during": max(during) * 1000, "reruns": len(during), "said": said}  # fmt: skip


async def _baseline(url: str, n: int = 20) -> list[float]:
    s = await Session.open(url)
    try:
        for _ in range(2):
            await s.run(VICTIM_PAGE)
        return [await s.run(VICTIM_PAGE) for _ in range(n)]
    finally:
        await s.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--paths", default="doctor,coverage,coverage_refused,hipify,hipify_diff,live,compile,keras_bomb,"
                                       "upload_flood,rerun_flood,session_flood,slow_reader")
    ap.add_argument("--live-budget", type=int, default=300, help="the live lab's budget slider (max 300 s)")
    ap.add_argument("--sessions", type=int, default=300, help="session_flood: sessions one client opens")
    ap.add_argument("--loop-s", type=int, default=60, help="coverage_loop: seconds of back-to-back uploads")
    ap.add_argument("--slow-s", type=int, default=20, help="slow_reader: seconds of requests")
    ap.add_argument("--nofile", type=int, default=0,
                    help="give the server this soft open-files limit after start (1024: systemd's default)")
    args = ap.parse_args()
    proc, url = start_server()
    if args.nofile:
        import resource

        resource.prlimit(proc.pid, resource.RLIMIT_NOFILE, (args.nofile, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
    rows = []
    try:
        for name in [p for p in args.paths.split(",") if p]:
            rows.append(asyncio.run(measure(url, proc.pid, name, args)))
            print(f"# {name} done", file=sys.stderr, flush=True)
    finally:
        stop_server(proc)
    print(f"\n## Abuse at the allowed maximum (server on loopback; other visitor reruns {VICTIM_PAGE})\n")
    print("| path | input | attacker's time (s) | server peak RSS (MB) | above idle (MB) | other user p95 idle "
          "(ms) | p95 during (ms) | max during (ms) | reruns during | attacker was told |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in rows:
        if r.get("skipped"):
            print(f"| {r['path']} | {r['input']} | - | - | - | - | - | - | - | {r['said']} |")
            continue
        print(f"| {r['path']} | {r['input']} | {r['time']:.1f} | {r['peak_mb']:.0f} | {r['extra_mb']:.0f} | "
              f"{r['p95_idle']:.0f} | {r['p95_during']:.0f} | {r['max_during']:.0f} | {r['reruns']} | {r['said']} |")


if __name__ == "__main__":
    main()
