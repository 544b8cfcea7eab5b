"""A class on N replicas: simulated students over websockets through nginx, a teacher running a live poll.

The deployment of deploy/compose.yaml without Docker (tests/stack.py): a private PostgreSQL (fsync on), N app
replicas (the Dockerfile's start command), nginx from deploy/'s template. Each student is one headless tab
(rocm_bridge/stclient.py) with its own cookies: it joins the class with the board's code, then reads chapters and
answers practice questions with think time. Mid-run the teacher asks everyone to look at the classroom page and
opens a live poll; students see it appear through the page's poll timer (st.fragment(run_every)), think, answer;
the teacher watches the live chart, reveals, closes. Loopback only, bounded in students and time.

Reports p50 / p95 rerun latency (server round trip of every script or fragment run a student caused), how fast
the poll appeared, answers acknowledged on screen vs rows in PostgreSQL (lost = acknowledged but not written),
per-replica sessions, CPU and RSS, and CPU per active student, i.e. how many students one core carries.
Before the lesson the lesson's pages run once on every replica (warm imports and caches, as on a server that has
been up a while).

    python bench/classroom.py [--students 60] [--replicas 2] [--duration 90] [--think 3,8]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import resource
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import flows  # noqa: E402
from pg import PgCluster, find_bindir  # noqa: E402
from sqlalchemy import create_engine, func, select  # noqa: E402
from stack import Stack  # noqa: E402

from rocm_bridge.pages import CHAPTERS, page  # noqa: E402
from rocm_bridge.quiz.schema import answers, learners, poll_answers  # noqa: E402
from rocm_bridge.stclient import Tab, open_through  # noqa: E402

ONE_ADDRESS_ENV = {"ROCM_BRIDGE_MAX_SESSIONS_PER_CLIENT": "1000"}  # all students come from loopback (main())

TICK = os.sysconf("SC_CLK_TCK")


# --- process accounting (/proc) ------------------------------------------------------------------------------


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime + stime


def rss_mib(pid: int, field_name: str = "VmRSS") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field_name + ":"):
            return int(line.split()[1]) / 1024
    return 0.0


def machine_jiffies() -> tuple[int, int]:
    """(busy, total) CPU ticks of the whole machine since boot, from /proc/stat."""
    vals = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = vals[3] + vals[4]  # idle + iowait
    return sum(vals) - idle, sum(vals)


def tree(root: int) -> list[int]:
    """root and its children (PostgreSQL backends, nginx workers)."""
    kids = []
    for p in Path("/proc").iterdir():
        if p.name.isdigit():
            try:
                if int((p / "stat").read_text().rsplit(")", 1)[1].split()[1]) == root:
                    kids.append(int(p.name))
            except (OSError, IndexError, ValueError):
                pass
    return [root, *kids]


def tree_cpu(root: int) -> float:
    total = 0.0
    for pid in tree(root):
        with contextlib.suppress(OSError):  # a backend that just ended
            total += cpu_s(pid)
    return total


# --- the class ---------------------------------------------------------------------------------------------


@dataclass
class Stats:
    runs: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))  # kind -> seconds
    poll_seen: list[float] = field(default_factory=list)
    poll_late: int = 0  # students who reached the classroom page after the poll had opened
    actions: int = 0  # chapters read + practice questions answered (each after a think time)
    acked: dict[str, int] = field(default_factory=lambda: defaultdict(int))  # nickname -> answers shown saved
    poll_acked: set[str] = field(default_factory=set)
    errors: list[str] = field(default_factory=list)
    upstream: dict[str, str] = field(default_factory=dict)  # nickname -> replica


class Timed:
    """Wraps Tab.run so every round trip a student causes is recorded by kind, one at a time per tab (a
    browser's session runs one script or fragment at a time), and fires the page's fragment timers
    (st.fragment(run_every=...)) the way the browser does: each on its own interval while the page shows it."""

    def __init__(self, tab: Tab, stats: Stats, timers: bool = True) -> None:
        self.tab, self.stats = tab, stats
        self._run = tab.run
        self.lock = asyncio.Lock()
        self.page = ""
        self.done = False
        self.paused = False  # while the student works in a fragment (the poll), its timer waits, as its DOM would

        async def run(page_name="", query="lang=en", **kw):
            async with self.lock:
                result = await self._run(page_name, query, **kw)
            if not kw.get("fragment_id"):
                self.page = page_name
            kind = "poll timer" if kw.get("auto") else ("fragment" if kw.get("fragment_id") else "page")
            self.stats.runs[kind].append(result.seconds)
            return result

        tab.run = run  # type: ignore[method-assign]
        self.ticker = asyncio.create_task(self._timers()) if timers else None

    async def _timers(self) -> None:
        due: dict[str, float] = {}
        while not self.done:
            await asyncio.sleep(0.1)
            if self.paused:
                continue
            now = time.monotonic()
            for fid, every in list(self.tab.auto_rerun.items()):
                if fid not in due:
                    due[fid] = now + every
                elif now >= due[fid]:
                    due[fid] = now + every
                    if fid in self.tab.auto_rerun:
                        with contextlib.suppress(Exception):  # a run the student's own click ended
                            await self.tab.run(self.page, "lang=en", fragment_id=fid, auto=True)
            for fid in [f for f in due if f not in self.tab.auto_rerun]:
                due.pop(fid)

    async def stop(self) -> None:
        self.done = True
        if self.ticker is not None:
            await asyncio.gather(self.ticker, return_exceptions=True)


async def student(i: int, url: str, code: str, args, stats: Stats, clock: dict, rng: random.Random) -> None:
    nick = f"student {i:03d}"
    await asyncio.sleep(rng.uniform(0, args.ramp))  # a class does not arrive in the same millisecond
    tab = await open_through(url)
    timed = Timed(tab, stats, timers=not args.no_timer)
    stats.upstream[nick] = tab.upstream
    try:
        await flows.join_class(tab, nick, code)
        poll_done = False
        while time.monotonic() < clock["end"]:
            if clock.get("look") and not poll_done and time.monotonic() >= clock["look"]:
                await tab.run(flows.CLASSROOM, "lang=en")  # "eyes on the classroom page"
                there = time.monotonic()
                if args.no_timer:
                    await flows.wait_for_poll(tab, timeout_s=60)
                else:  # the page's own timer (Timed) brings it, as in the browser
                    give_up = time.monotonic() + 60
                    while flows.poll_input(tab) is None and time.monotonic() < give_up:
                        await asyncio.sleep(0.05)
                    if flows.poll_input(tab) is None:
                        raise flows.FlowError("no poll after 60 s")
                if there < clock["opened"]:  # it appeared while the page sat there: no reload, the poll timer
                    stats.poll_seen.append(time.monotonic() - clock["opened"])
                else:
                    stats.poll_late += 1
                await asyncio.sleep(rng.uniform(*args.think))
                timed.paused = True  # the client keeps one element tree: a timer run would take the poll's away
                while timed.lock.locked():
                    await asyncio.sleep(0.01)
                try:
                    if await flows.answer_poll(tab, rng):
                        stats.poll_acked.add(nick)
                finally:
                    timed.paused = False
                poll_done = True
                continue
            await asyncio.sleep(rng.uniform(*args.think))
            stats.actions += 1
            if rng.random() < 0.5:
                await tab.run(page(rng.choice(CHAPTERS)).route, "lang=en")
            elif await flows.practice_answer(tab, rng):
                stats.acked[nick] += 1
    except Exception as exc:  # noqa: BLE001 - counted and shown, the class goes on
        stats.errors.append(f"{nick}: {type(exc).__name__}: {str(exc)[:200]}")
    finally:
        await timed.stop()
        if tab.exceptions:
            stats.errors.append(f"{nick}: app exception {tab.exceptions[:1]}")
        await tab.close()


async def teacher(url: str, args, stats: Stats, clock: dict, created: asyncio.Future) -> None:
    tab = await open_through(url)
    cls = await flows.create_class(tab, "Bench class")
    created.set_result(cls)
    await clock["started"].wait()
    try:
        await run_poll(tab, args, clock)
    except Exception as exc:  # noqa: BLE001 - counted and shown
        stats.errors.append(f"teacher: {type(exc).__name__}: {str(exc)[:300]}")
    if tab.exceptions:
        stats.errors.append(f"teacher: {tab.exceptions[:1]}")
    await tab.close()


async def run_poll(tab: Tab, args, clock: dict) -> None:
    q = "lang=en&cr_tab=teacher"
    await asyncio.sleep(max(0.0, clock["look"] - time.monotonic()) + 3)  # the class has switched pages
    clock["opened"] = time.monotonic()
    await flows.open_poll(tab)
    reveal_at = clock["opened"] + args.poll_s
    while time.monotonic() < reveal_at:  # the live chart's timer
        await asyncio.sleep(1.5)
        await tab.run_fragments(flows.CLASSROOM, q)
    tab.click(tab.widget("button", prefix="cr_reveal_"))
    await tab.run_for(tab.widget("button", prefix="cr_reveal_"), flows.CLASSROOM, q)
    await asyncio.sleep(3)
    await tab.run_fragments(flows.CLASSROOM, q)
    close = tab.widget("button", prefix="cr_close_")
    tab.click(close)
    await tab.run_for(close, flows.CLASSROOM, q)


async def warm_up(replica_urls: list[str]) -> None:
    """The pages of the lesson once on every replica, straight to it: a server that has been up has imported
    their modules and filled its caches; the lesson measures that, not each page's first import. (The labs that
    load TensorFlow / PyTorch are left out: a class that never opens them never pays their memory.)"""
    routes = ["", *(page(ch).route for ch in CHAPTERS), flows.QUIZ, flows.CLASSROOM]
    for url in replica_urls:
        async with await Tab.open(url) as tab:
            for route in routes:
                await tab.run(route, "lang=en")


async def lesson(url: str, args, stats: Stats, probe) -> dict:
    rng = random.Random(args.seed)
    clock: dict = {"started": asyncio.Event()}
    created: asyncio.Future = asyncio.get_running_loop().create_future()
    teach = asyncio.create_task(teacher(url, args, stats, clock, created))
    cls = await created
    now = time.monotonic()
    clock["end"] = now + args.ramp + args.duration
    clock["look"] = now + args.ramp + args.duration * 0.3
    clock["opened"] = clock["look"] + 1e9
    before = probe()
    t0 = time.monotonic()
    clock["started"].set()
    kids = [
        student(i, url, cls.join_code, args, stats, clock, random.Random(rng.random())) for i in range(args.students)
    ]
    await asyncio.gather(*kids, teach)
    wall = time.monotonic() - t0
    return {"before": before, "after": probe(), "wall": wall}


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p * (len(xs) - 1))))] if xs else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--students", type=int, default=60)
    ap.add_argument("--replicas", type=int, default=2)
    ap.add_argument("--duration", type=float, default=90, help="seconds of lesson after everyone has arrived")
    ap.add_argument("--ramp", type=float, default=15, help="students arrive over this many seconds")
    ap.add_argument("--think", default="3,8", help="think time between actions, uniform min,max seconds")
    ap.add_argument("--poll-s", type=float, default=25, help="seconds the poll stays open")
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--no-timer", action="store_true", help="do not fire the pages' fragment timers (the poll timer)")
    args = ap.parse_args()
    args.think = tuple(float(x) for x in args.think.split(","))
    # every simulated student connects from loopback, one client address: nginx's limit_conn (300 websockets per
    # address, deploy/nginx) bounds the class, and the replicas' own per-client cap is lifted for the bench
    if not 1 <= args.students <= 290 or not 1 <= args.replicas <= 8 or not 10 <= args.duration <= 600:
        ap.error("bounded: 1-290 students, 1-8 replicas, 10-600 s")
    bindir = find_bindir()
    if bindir is None:
        sys.exit("PostgreSQL binaries not found (Debian: postgresql)")

    load0 = os.getloadavg()
    stats = Stats()
    with PgCluster(bindir, durable=True, max_connections=300) as pg, Stack(pg.url, args.replicas, ONE_ADDRESS_ENV) as st:
        postmaster = int((pg.datadir / "postmaster.pid").read_text().split()[0])
        pids = [p.pid for p in st.procs]

        def probe() -> dict:
            return {
                "replicas": [cpu_s(p) for p in pids],
                "postgres": tree_cpu(postmaster),
                "nginx": tree_cpu(st.nginx.proc.pid),
                "client": resource.getrusage(resource.RUSAGE_SELF).ru_utime
                + resource.getrusage(resource.RUSAGE_SELF).ru_stime,
                "machine": machine_jiffies(),
                "load": os.getloadavg()[0],
            }

        asyncio.run(warm_up(st.urls))
        result = asyncio.run(lesson(st.url, args, stats, probe))
        rss = [(rss_mib(p), rss_mib(p, "VmHWM")) for p in pids]
        engine = create_engine(pg.url)
        with engine.connect() as conn:
            written = dict(
                conn.execute(
                    select(learners.c.nickname, func.count(answers.c.id))
                    .join(answers, answers.c.learner_id == learners.c.id)
                    .where(answers.c.mode == "practice")
                    .group_by(learners.c.nickname)
                ).all()
            )
            in_poll = set(
                conn.execute(select(learners.c.nickname).join(poll_answers, poll_answers.c.learner_id == learners.c.id))
                .scalars()
                .all()
            )
        engine.dispose()
        upstream_names = st.upstreams
        if stats.errors:
            print(st.logs()[-6000:], file=sys.stderr)
    report(args, stats, result, rss, written, in_poll, upstream_names, load0)


def report(args, stats, result, rss, written, in_poll, upstreams, load0) -> None:
    wall = result["wall"]
    b, a = result["before"], result["after"]
    per_rep = [a["replicas"][i] - b["replicas"][i] for i in range(len(upstreams))]
    print(f"\n## Classroom on {args.replicas} replicas: {args.students} students, think {args.think[0]:g}-"
          f"{args.think[1]:g} s, {wall:.0f} s lesson (incl. {args.ramp:g} s arrival), {os.cpu_count()} cores\n")  # fmt: skip
    (busy0, total0), (busy1, total1) = b["machine"], a["machine"]
    machine_busy = (busy1 - busy0) / max(1, total1 - total0)
    ours = (sum(per_rep) + sum(a[k] - b[k] for k in ("postgres", "nginx", "client"))) / wall / (os.cpu_count() or 1)
    print(f"machine: load average {load0[0]:.1f} before, {a['load']:.1f} at the end; CPU {100 * machine_busy:.0f} % busy "
          f"during the run, {100 * ours:.0f} % points of it this bench (the rest is other work on the "
          f"machine, which slows every figure below)\n")  # fmt: skip
    print("| round trips | count | p50 ms | p95 ms | max ms |")
    print("|---|---:|---:|---:|---:|")
    everything: list[float] = []
    for kind in ("page", "fragment", "poll timer"):
        xs = stats.runs.get(kind, [])
        everything += xs
        if xs:
            print(
                f"| {kind} | {len(xs)} | {1000 * pct(xs, 0.5):.0f} | {1000 * pct(xs, 0.95):.0f} | {1000 * max(xs):.0f} |"
            )
    p95 = pct(everything, 0.95)
    print(f"| **all reruns** | {len(everything)} | {1000 * pct(everything, .5):.0f} | **{1000 * p95:.0f}** | "
          f"{1000 * max(everything):.0f} |")  # fmt: skip
    if stats.poll_seen:
        print(f"\npoll appeared on the students' screens: p50 {pct(stats.poll_seen, .5):.2f} s, "
              f"p95 {pct(stats.poll_seen, .95):.2f} s, max {max(stats.poll_seen):.2f} s "
              f"after it opened, for the {len(stats.poll_seen)} students already on the page (their poll timer "
              f"fires every second; {stats.poll_late} more came to the page later and saw it at once)")  # fmt: skip
    acked = sum(stats.acked.values())
    lost = sum(max(0, n - written.get(nick, 0)) for nick, n in stats.acked.items())
    poll_lost = len(stats.poll_acked - in_poll)
    print("\n| answers | acknowledged on screen | rows in PostgreSQL | lost |")
    print("|---|---:|---:|---:|")
    print(f"| practice | {acked} | {sum(written.values())} | {lost} |")
    print(f"| live poll | {len(stats.poll_acked)} | {len(in_poll)} | {poll_lost} |")
    print("\n| process | sessions | CPU s | cores busy | RSS MiB (peak) |")
    print("|---|---:|---:|---:|---:|")
    sessions = defaultdict(int)
    for up in stats.upstream.values():
        sessions[up] += 1
    for i, up in enumerate(upstreams):
        print(f"| replica {i} ({up}) | {sessions[up]} | {per_rep[i]:.1f} | {per_rep[i] / wall:.2f} | "
              f"{rss[i][0]:.0f} ({rss[i][1]:.0f}) |")  # fmt: skip
    for name in ("postgres", "nginx", "client"):
        d = a[name] - b[name]
        label = "bench client (all tabs)" if name == "client" else name
        print(f"| {label} | | {d:.1f} | {d / wall:.2f} | |")
    n_runs = len(everything)
    cpu_per_run = sum(per_rep) / max(1, n_runs)
    # At the intended pace a student acts once per mean think time; each action costs runs_per_action reruns.
    # (Measured CPU per student-second would flatter a starved run: slow answers mean fewer actions.)
    pace = n_runs / max(1, stats.actions) / (sum(args.think) / 2)
    print(f"\napp CPU per rerun served: {1000 * cpu_per_run:.1f} ms; a student at this pace causes {pace:.2f} reruns/s, "
          f"so one core carries about **{1 / (cpu_per_run * pace):.0f} active students** (CPU only; a replica is one "
          f"Python process, so one replica per core). PostgreSQL: "
          f"{1000 * (a['postgres'] - b['postgres']) / max(1, n_runs):.2f} ms CPU per rerun.")  # fmt: skip
    per_student_s = sum(per_rep) / max(1e-9, wall) / args.students
    print(f"\nmeasured: app CPU {1000 * per_student_s:.1f} ms per student per second (timers "
          f"{'off' if args.no_timer else 'on'}), i.e. **{1 / max(1e-9, per_student_s):.0f} students per fully used core**")
    ok = p95 <= 1.0 and lost == 0 and poll_lost == 0 and not stats.errors
    print(f"\ntarget: p95 <= 1 s and 0 answers lost: {'ok' if ok else 'MISSED'}")
    if stats.errors:
        print(f"\n{len(stats.errors)} errors, first ones:")
        for e in stats.errors[:5]:
            print("  " + e)


if __name__ == "__main__":
    main()
