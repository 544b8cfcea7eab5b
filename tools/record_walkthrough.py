"""Record the transpose walkthrough's results into data/kernel_walkthrough/ (rocm_bridge.kernels).

    python tools/record_walkthrough.py compile [--target gfx942 gfx90a]
        compile every step for AMD targets here (clang 22 from ziglang for gfx942, hipcc 5.2 for gfx90a) and
        write data/kernel_walkthrough/compile_<target>.json
    python tools/record_walkthrough.py bundle DIR
        write the device bundle: the CUDA twins in one harness (DIR/harness.cu) and DIR/run.sh, which builds it
        with nvcc -arch=sm_90, checks and times every step and writes run.json, gpu.csv, sass.txt, env.txt to $OUT
    python tools/record_walkthrough.py ingest-ncu DIR [--name h100]
        the hardware counters of a device run made with WALKTHROUGH_NCU=1 (ncu.csv) into
        data/kernel_walkthrough/ncu_<name>.json: shared-memory bank conflicts, global sectors per request, DRAM bytes
    python tools/record_walkthrough.py ingest DIR [--name h100]
        read those files back (DIR = where the device run's $OUT files landed) and write
        data/kernel_walkthrough/run_<name>.json: GPU, driver, clocks, date, per step and size the median time and
        effective bandwidth, the raw samples and the SASS memory instruction classes of each CUDA twin
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import re
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rocm_bridge import kernels  # noqa: E402
from rocm_bridge.kernels import recorded  # noqa: E402

HARNESS = ROOT / "rocm_bridge" / "kernels" / "harness.cu.in"
GPU_QUERY = ("name,driver_version,pci.device_id,memory.total,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,"
             "pstate,temperature.gpu,power.draw,power.limit")
NCU_METRICS = ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
               "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
               "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
               "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
               "dram__bytes_read.sum", "dram__bytes_write.sum", "gpu__time_duration.sum")
RUN_SH = """#!/bin/bash
# The device run (tools/record_walkthrough.py bundle): build, check and time the CUDA twins; files to $OUT.
set -u
cd "$(dirname "$0")"
{ date -u +%Y-%m-%dT%H:%M:%SZ; nvcc --version | tail -2; uname -r; } > "$OUT/env.txt"
nvidia-smi --query-gpu=@QUERY@ --format=csv > "$OUT/gpu.csv"
nvcc -O3 -arch=sm_90 -std=c++17 -o harness harness.cu 2> "$OUT/nvcc.txt" || { cat "$OUT/nvcc.txt"; exit 1; }
cuobjdump -sass harness > "$OUT/sass.txt" 2>&1
if [ "${WALKTHROUGH_NCU:-0}" = 1 ]; then
  # hardware counters of the 14 check launches (2048 x 6144, then 8192 x 8192): bank conflicts, sectors per
  # request, DRAM bytes; --clock-control none leaves the card's clocks alone
  ncu --version | tail -1 > "$OUT/ncu_version.txt"
  WALKTHROUGH_CHECK_ONLY=1 ncu --clock-control none --launch-count 14 --csv --print-units base \\
    --log-file "$OUT/ncu.csv" \\
    --metrics @NCU@ ./harness > /dev/null 2> "$OUT/ncu_err.txt"
  echo "ncu rc=$?"; tail -3 "$OUT/ncu_err.txt"; head -c 600 "$OUT/ncu.csv"
  exit 0
fi
./harness > "$OUT/run.json"
rc=$?
nvidia-smi --query-gpu=@QUERY@ --format=csv,noheader >> "$OUT/gpu.csv"
python3 -c "import json; d = json.load(open('$OUT/run.json')); print(d['device'], 'all_correct', d['all_correct'])"
exit $rc
""".replace("@QUERY@", GPU_QUERY).replace("@NCU@", ",".join(NCU_METRICS))


# ---- bundle ------------------------------------------------------------------------------------------------------

def harness_source() -> str:
    namespaces, rows = [], []
    axis = {"rows": "ROWS", "cols": "COLS", "elements": "ELEMENTS", "one": "ONE"}
    for s in kernels.ALL:
        ns = f"step_{s.id}"
        body = kernels.cuda_source(s).replace(kernels.CUDA_INCLUDE, "").strip("\n")
        namespaces.append(f"namespace {ns} {{\n{body}\n}}  // namespace {ns}\n"
                          "#undef TILE\n#undef BLOCK_ROWS\n")
        (gx, dx), (gy, dy) = s.grid
        rows.append(f'    {{"{s.id}", {ns}::{s.kernel}, {s.block[0]}, {s.block[1]}, {axis[gx]}, {dx}, {axis[gy]}, {dy}, '
                    f'{"true" if s.transposes else "false"}}},')
    template = HARNESS.read_text(encoding="utf-8")
    return template.replace("@STEPS@", "\n".join(namespaces)).replace("@TABLE@", "\n".join(rows))


def bundle(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "harness.cu").write_text(harness_source(), encoding="utf-8")
    (out / "run.sh").write_text(RUN_SH, encoding="utf-8")
    (out / "run.sh").chmod(0o755)
    print(f"wrote {out / 'harness.cu'} and {out / 'run.sh'}")


# ---- ingest ------------------------------------------------------------------------------------------------------

_SASS_FUNC = re.compile(r"Function : (\S+)")
_SASS_MEM = re.compile(r"\b((?:LDG|STG|LDS|STS)(?:\.[A-Z0-9_]+)*)\b")


def sass_classes(text: str) -> dict[str, dict[str, int]]:
    """Per step id: the SASS global / shared memory instructions of its kernel (cuobjdump -sass), e.g.
    LDG.E.128 (a 16-byte global load) or LDS (a 4-byte shared-memory load)."""
    out: dict[str, dict[str, int]] = {}
    current = None
    for line in text.splitlines():
        m = _SASS_FUNC.search(line)
        if m:
            name = m.group(1)
            # the harness puts each step in namespace step_<id>: _ZN<len>step_<id>...
            current = next((s.id for s in kernels.ALL if f"{len('step_' + s.id)}step_{s.id}" in name), None)
            if current:
                out.setdefault(current, {})
            continue
        if current is None:
            continue
        for op in _SASS_MEM.findall(line):
            out[current][op] = out[current].get(op, 0) + 1
    return {k: dict(sorted(v.items())) for k, v in out.items()}


def summarise(run: dict) -> list[dict[str, object]]:
    """Median and spread per (step, size): all rounds' samples pooled; each round's median kept for the spread."""
    groups: dict[tuple[str, int, int], list[list[float]]] = {}
    for t in run["timings"]:
        groups.setdefault((t["id"], t["rows"], t["cols"]), []).append(t["ms"])
    rows = []
    for (sid, r, c), rounds in groups.items():
        pooled = [x for rnd in rounds for x in rnd]
        median = statistics.median(pooled)
        rows.append({"step": sid, "rows": r, "cols": c, "median_ms": round(median, 5),
                     "min_ms": round(min(pooled), 5),
                     "round_medians_ms": [round(statistics.median(rnd), 5) for rnd in rounds],
                     "gbs": round(kernels.bandwidth_gbs(r, c, median), 1), "samples": len(pooled)})
    return rows


def ingest(src: Path, name: str) -> Path:
    run = json.loads((src / "run.json").read_text(encoding="utf-8"))
    gpu_rows = list(csv.reader(io.StringIO((src / "gpu.csv").read_text(encoding="utf-8"))))
    header = [h.strip() for h in gpu_rows[0]]
    before = dict(zip(header, (v.strip() for v in gpu_rows[1]), strict=True))
    after = dict(zip(header, (v.strip() for v in gpu_rows[2]), strict=True)) if len(gpu_rows) > 2 else {}
    env = (src / "env.txt").read_text(encoding="utf-8").splitlines()
    sass = sass_classes((src / "sass.txt").read_text(encoding="utf-8", errors="replace"))
    record = {
        "gpu": run["device"], "date": env[0], "nvcc": env[1] if len(env) > 1 else "",
        "nvcc_build": env[2] if len(env) > 2 else "", "kernel": env[3] if len(env) > 3 else "",
        "driver": before.get("driver_version", ""), "cuda_runtime": run["cuda_runtime"],
        "cuda_driver": run["cuda_driver"], "sm_count": run["sm_count"], "l2_bytes": run["l2_bytes"],
        "global_mem_bytes": run["global_mem_bytes"], "nvidia_smi_before": before, "nvidia_smi_after": after,
        "method": {"compile": "nvcc -O3 -arch=sm_90 -std=c++17 (one harness, tools/record_walkthrough.py bundle)",
                   "timing": f"cudaEvent around each launch; {run['warmup']} warm-up launches, then {run['reps']} "
                             f"timed launches per round, {run['rounds']} rounds interleaving the steps; median of "
                             "all timed launches",
                   "bandwidth": "2 x rows x cols x 4 bytes (each float read once, written once) / median time, "
                                "in GB/s = 1e9 bytes/s",
                   "correctness": "output poisoned with 0xFF bytes before each kernel, every element compared "
                                  "with the input on the host, random input, sizes 2048 x 6144 and 8192 x 8192"},
        "protocol": {"warmup": run["warmup"], "reps": run["reps"], "rounds": run["rounds"]},
        "all_correct": run["all_correct"], "checks": run["checks"], "results": summarise(run),
        "sass": sass, "timings": run["timings"],
    }
    out = recorded.DATA_DIR / f"run_{name}.json"
    out.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {out}")
    return out


def parse_ncu(text: str, rows: int = 8192, cols: int = 8192) -> dict[str, dict[str, float]]:
    """Per step id: each metric of its check launch at rows x cols (ncu --csv --print-units base), told apart from
    the other size's launch by the grid the step table gives for that size."""
    lines = [ln for ln in text.splitlines() if ln.startswith('"')]
    out: dict[str, dict[str, float]] = {}
    for r in csv.DictReader(io.StringIO("\n".join(lines))):
        name = r["Kernel Name"]
        s = next((x for x in kernels.ALL if f"step_{x.id}::" in name), None)
        if s is None:
            continue
        gx, gy = s.grid_dims(rows, cols)
        if r["Grid Size"].replace(" ", "") != f"({gx},{gy},1)":
            continue
        out.setdefault(s.id, {})[r["Metric Name"]] = float(r["Metric Value"].replace(",", ""))
    return out


def ingest_ncu(src: Path, name: str) -> Path:
    metrics = parse_ncu((src / "ncu.csv").read_text(encoding="utf-8", errors="replace"))
    if set(metrics) != {s.id for s in kernels.ALL}:
        raise SystemExit(f"ncu.csv holds {sorted(metrics)}, not every step")
    gpu_rows = list(csv.reader(io.StringIO((src / "gpu.csv").read_text(encoding="utf-8"))))
    header = [h.strip() for h in gpu_rows[0]]
    smi = dict(zip(header, (v.strip() for v in gpu_rows[1]), strict=True))
    env = (src / "env.txt").read_text(encoding="utf-8").splitlines()
    record = {"gpu": smi.get("name", ""), "driver": smi.get("driver_version", ""), "date": env[0],
              "ncu": (src / "ncu_version.txt").read_text(encoding="utf-8").strip(),
              "method": "ncu --clock-control none --print-units base --metrics ... on the 8192 x 8192 check launch "
                        "of each kernel (tools/record_walkthrough.py bundle, WALKTHROUGH_NCU=1)",
              "rows": 8192, "cols": 8192, "metrics": metrics}
    out = recorded.DATA_DIR / f"ncu_{name}.json"
    out.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {out}")
    return out


# ---- compile -----------------------------------------------------------------------------------------------------

def record_compile(targets: list[str]) -> None:
    from rocm_bridge.kernels import compile as kc

    for target in targets:
        data = kc.record(target)
        out = recorded.DATA_DIR / f"compile_{target}.json"
        out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {out} ({data['compiler']})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("compile")
    c.add_argument("--target", nargs="+", default=["gfx942", "gfx90a"])
    b = sub.add_parser("bundle")
    b.add_argument("dir", type=Path)
    i = sub.add_parser("ingest")
    i.add_argument("dir", type=Path)
    i.add_argument("--name", default="h100")
    n = sub.add_parser("ingest-ncu")
    n.add_argument("dir", type=Path)
    n.add_argument("--name", default="h100")
    args = parser.parse_args(argv)
    if args.cmd == "compile":
        record_compile(args.target)
    elif args.cmd == "bundle":
        bundle(args.dir)
    elif args.cmd == "ingest-ncu":
        ingest_ncu(args.dir, args.name)
    else:
        ingest(args.dir, args.name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
