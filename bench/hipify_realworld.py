"""hipify on real CUDA code (issue 12): translate a corpus, compile every result with ROCm 5.2's hipcc.

    python bench/hipify_realworld.py CORPUS_DIR [--hipify-perl PATH] [--jobs 2] [--keep DIR] [--json OUT]

CORPUS_DIR holds one folder per project (its repository layout kept, so local `#include "..."` resolve);
folders whose name starts with `_` or `.` are skipped. The corpus is public code and is never committed: this
script contains none of it (docs/hipify.md, "Real-world corpus", says how ours was built).

For every project:
- ours: the command line in project mode, as a user runs it: `python -m rocm_bridge hipify -o OUT PROJECT`
  (default options: kernel launches stay `<<<>>>`, no --roc);
- hipify-perl (with --hipify-perl): `perl PATH FILE > OUT/FILE` for every source and header. hipify-perl keeps
  local includes as written (it only rewrites the CUDA headers of its include map), so the tree needs no renames.

Every main source (a .cu / .c / .cpp / .cc that no other file of the project includes) is then compiled alone:
`HIP_PLATFORM=amd hipcc --offload-arch=gfx90a -fsyntax-only -x hip -std=c++17 -I<project> -I<each folder with a
header>` (plus -fopenmp when the file uses OpenMP), as a Makefile that adds its header folders would.

A failure is classified by its first error:
  a  a header of a ROCm library that Debian 12 does not package (hipBLAS, hipFFT, hipCUB, rocThrust, MIOpen ...)
  b  an API newer than the compiler's ROCm (the table's hip_added after 5.2; 5.3 for hipRAND / hipSPARSE), or a
     HIP header newer than 5.2 (hip/hip_bf16.h ...)
  c  a CUDA name or CUDA header left in the output
  d  anything else: likely a translator defect

Programs that come with a hand-written HIP port are measured by bench/hipify_ported.py (issue 28).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rocm_bridge.compile.toolchain import not_packaged  # noqa: E402
from rocm_bridge.data import read_csv  # noqa: E402
from rocm_bridge.hipify.sources import SOURCE_EXTS  # noqa: E402

MAIN_EXTS = (".cu", ".c", ".cpp", ".cc", ".cxx")  # what compiles alone; the rest of SOURCE_EXTS are headers
HEADER_EXTS = tuple(e for e in SOURCE_EXTS if e not in MAIN_EXTS)
HIP_RELEASE = (5, 2)  # Debian 12's hipcc: "HIP version: 5.2.21153"
LIBRARY_RELEASE = {"rand": (5, 3), "sparse": (5, 3)}  # Debian's hipRAND / hipSPARSE / rocSPARSE 5.3
CUDA_LIBRARY_HEADERS = re.compile(r"^(cublas|cufft|curand|cusparse|cusolver|cudnn|nccl|npp|nvjpeg|cutensor|"
                                  r"thrust/|cub/|cutlass)", re.I)
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]', re.M)
ERROR = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?:fatal )?error: (?P<msg>.*)$", re.M)
NOT_FOUND = re.compile(r"'(?P<header>[^']+)' file not found")
QUOTED = re.compile(r"'([A-Za-z_]\w*)'")
CUDA_PREFIX = re.compile(r"^(cuda|cu[A-Z]|CU[A-Z_]|CUDA|cublas|CUBLAS|cufft|CUFFT|curand|CURAND|cusparse|CUSPARSE|"
                         r"cusolver|CUSOLVER|cudnn|CUDNN|nv|NV|__nv_)")
# CUDA device intrinsics HIP 5.2 does not declare (HIP has the mask-less __shfl_down / __any / atomicInc)
CUDA_INTRINSIC = re.compile(r"^(__\w+_sync|__syncwarp|__activemask|atomic\w+_(system|block))$")
CUDA_HEADER = re.compile(r"^(cuda|cu[a-z_]+\.h|cooperative_groups|device_|sm_\d|vector_types|driver_types|"
                         r"texture_|surface_|nvrtc|nvToolsExt|math_constants|crt/|cub/)")


def load_table() -> tuple[dict[str, tuple[int, ...]], set[str], set[str]]:
    """(HIP name -> newest release that added it, HIP names, CUDA names) from data/hipify_mappings.csv."""
    late: dict[str, tuple[int, ...]] = {}
    in_time, hip_names, cuda = set(), set(), set()
    for row in read_csv("hipify_mappings.csv"):
        cuda.add(row["cuda_name"])
        hip, version = row["hip_name"], row["hip_added"]
        if not hip:
            continue
        hip_names.add(hip)
        key = tuple(int(p) for p in version.split(".")[:2] if p.isdigit())
        if key and key > LIBRARY_RELEASE.get(row["api_group"], HIP_RELEASE):
            late.setdefault(hip, key)
        else:
            in_time.add(hip)
    return {k: v for k, v in late.items() if k not in in_time}, hip_names, cuda


def project_files(project: Path) -> tuple[list[str], list[str]]:
    """(main sources, all C/C++/CUDA files) of a project, relative POSIX paths."""
    files = sorted(p.relative_to(project).as_posix() for p in project.rglob("*")
                   if p.is_file() and p.suffix.lower() in SOURCE_EXTS)
    included = set()
    for rel in files:
        text = (project / rel).read_text(encoding="utf-8", errors="replace")
        for _kind, name in INCLUDE.findall(text):
            for base in ((project / rel).parent, project):
                target = (base / name).resolve()
                if target.is_file() and project.resolve() in target.parents:
                    included.add(target.relative_to(project.resolve()).as_posix())
    mains = [f for f in files if f.endswith(MAIN_EXTS) and f not in included]
    return mains, files


def local_closure(project: Path, rel: str, header_dirs: list[Path]) -> list[Path]:
    """The file and every project header it reaches through #include, quoted or angled."""
    seen, todo = [], [project / rel]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.append(path)
        for _kind, name in INCLUDE.findall(path.read_text(encoding="utf-8", errors="replace")):
            for base in [path.parent, *header_dirs]:
                if (base / name).is_file():
                    todo.append((base / name).resolve())
                    break
    return seen


def libraries(paths: list[Path]) -> list[str]:
    found = set()
    for path in paths:
        for _kind, name in INCLUDE.findall(path.read_text(encoding="utf-8", errors="replace")):
            m = CUDA_LIBRARY_HEADERS.match(name)
            if m:
                found.add(m.group(1).rstrip("/").lower())
    return sorted(found)


def translate_ours(project: Path, out: Path) -> float:
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "rocm_bridge", "hipify", "-o", str(out), str(project)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    elapsed = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"hipify failed on {project}: {done.stderr[-2000:]}")
    return elapsed


def translate_perl(perl_script: str, project: Path, files: list[str], out: Path) -> float:
    total = 0.0
    for rel in files:
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        done = subprocess.run(["perl", perl_script, str(project / rel)], capture_output=True, timeout=600)
        total += time.perf_counter() - t0
        target.write_bytes(done.stdout if done.returncode == 0 else (project / rel).read_bytes())
    return total


def compile_one(hipcc: str, tree: Path, rel: str, include_dirs: list[Path]) -> tuple[bool, str]:
    src = tree / rel
    text = src.read_text(encoding="utf-8", errors="replace") if src.exists() else ""
    cmd = [hipcc, "--offload-arch=gfx90a", "-fsyntax-only", "-x", "hip", "-std=c++17"]
    cmd += [f"-I{d}" for d in include_dirs]
    if "omp.h" in text or "#pragma omp" in text:
        cmd.append("-fopenmp")
    cmd.append(str(src))
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "HIP_PLATFORM": "amd"})
    return done.returncode == 0, done.stderr


def classify(stderr: str, table: tuple[dict, set, set]) -> tuple[str, str]:
    """(class, first error) of a failed compile."""
    late, hip_names, cuda_names = table
    m = ERROR.search(stderr)
    if not m:
        return "d", (stderr.strip().splitlines() or ["(no error line)"])[-1][:200]
    msg = m["msg"]
    first = f"{Path(m['file']).name}:{m['line']}: {msg}"[:200]
    header = NOT_FOUND.search(msg)
    if header:
        name = header["header"]
        if not_packaged(name):
            return "a", first
        if name.startswith("hip/"):
            return "b", first
        if CUDA_HEADER.match(name) or CUDA_LIBRARY_HEADERS.match(name):
            return "c", first
        return "d", first
    for name in QUOTED.findall(msg):
        if name in late:
            return "b", first
    for name in QUOTED.findall(msg):
        if (name in cuda_names and name not in hip_names) or CUDA_PREFIX.match(name) or CUDA_INTRINSIC.match(name):
            return "c", first
    return "d", first


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--hipify-perl", dest="perl", default="", help="HIPIFY's bin/hipify-perl, run with perl")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep", type=Path, default=None, help="write the translated trees here (else a temp dir)")
    ap.add_argument("--json", type=Path, default=None, help="also write every result as JSON")
    args = ap.parse_args()
    hipcc = shutil.which("hipcc")
    if not hipcc:
        print("hipcc (ROCm) is not installed: nothing to compile with", file=sys.stderr)
        return 2
    if args.perl and subprocess.run(["perl", "-c", args.perl], capture_output=True).returncode != 0:
        print(f"{args.perl}: perl -c fails; run without --hipify-perl", file=sys.stderr)
        return 2
    projects = sorted(p for p in args.corpus.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))
    work = args.keep or Path(tempfile.mkdtemp(prefix="hipify_rw_"))
    table = load_table()
    tools = ["ours"] + (["perl"] if args.perl else [])
    rows, jobs, seconds = [], [], {t: 0.0 for t in tools}
    for project in projects:
        mains, files = project_files(project)
        dirs = sorted({(project / f).parent for f in files if f.endswith(HEADER_EXTS)} | {project})
        for tool in tools:
            out = work / tool / project.name
            if out.exists():
                shutil.rmtree(out)
            out.mkdir(parents=True)
            if tool == "ours":
                seconds[tool] += translate_ours(project, out)
            else:
                seconds[tool] += translate_perl(args.perl, project, files, out)
        for rel in mains:
            row = {"project": project.name, "file": rel,
                   "libraries": libraries(local_closure(project, rel, dirs))}
            rows.append(row)
            for tool in tools:
                tree = work / tool / project.name
                jobs.append((row, tool, tree, rel, [tree / d.relative_to(project) for d in dirs]))
    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(lambda j: compile_one(hipcc, j[2], j[3], j[4]), jobs))
    compile_s = time.perf_counter() - t0
    for (row, tool, *_), (ok, stderr) in zip(jobs, results, strict=True):
        row[tool] = ("ok", "") if ok else classify(stderr, table)
        row[f"{tool}_errors"] = [m.group(0)[:300] for m in ERROR.finditer(stderr)][:30]
    print_table(rows, tools, seconds, compile_s, len(projects), work if args.keep else None)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def print_table(rows: list[dict], tools: list[str], seconds: dict, compile_s: float, n_projects: int,
                kept: Path | None) -> None:
    width = max(len(f"{r['project']}/{r['file']}") for r in rows)
    head = f"{'file':<{width}}  {'libraries':<16}" + "".join(f"  {t:<8}" for t in tools)
    print(head)
    print("-" * len(head))
    for r in rows:
        libs = ",".join(r["libraries"])[:16] or "-"
        print(f"{r['project'] + '/' + r['file']:<{width}}  {libs:<16}" + "".join(f"  {r[t][0]:<8}" for t in tools))
    for t in tools:
        print(f"\nfirst error, {t}:")
        for r in rows:
            if r[t][0] != "ok":
                print(f"  {r[t][0]}  {r['project']}/{r['file']}: {r[t][1][:150]}")
    print()
    free = [r for r in rows if not r["libraries"]]
    for label, subset in (("all files", rows), ("library-free", free)):
        for t in tools:
            counts = {c: sum(1 for r in subset if r[t][0] == c) for c in ("ok", "a", "b", "c", "d")}
            print(f"{label:<13} {t:<8} {len(subset):>3} files: compile {counts['ok']:>3}   a (missing ROCm lib) "
                  f"{counts['a']:>2}   b (newer than 5.2) {counts['b']:>2}   c (CUDA left) {counts['c']:>2}   "
                  f"d (other) {counts['d']:>2}")
    print()
    print(f"{len(rows)} main files in {n_projects} projects; translation wall time: "
          + ", ".join(f"{t} {seconds[t]:.2f} s" for t in tools) + f"; hipcc (all runs) {compile_s:.1f} s")
    if kept:
        print(f"translated trees kept in {kept}")


if __name__ == "__main__":
    raise SystemExit(main())
