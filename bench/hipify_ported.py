"""hipify measured like a person would (issue 28, item 7): real CUDA programs that come with a hand-written HIP port.

    python bench/hipify_ported.py extract MIRROR_GIT_DIR --commit SHA --out CORPUS_DIR
    python bench/hipify_ported.py report RUN.json          (the tables of a run again)
    python bench/hipify_ported.py run CORPUS_DIR [--engine LABEL:ROOT[:ARGS]] ... [--hipify-perl PATH]
                                  [--jobs 2] [--json OUT] [--keep DIR] [--cache DIR]

`extract` reads a local git mirror of HeCBench (github.com/zjin-lcf/HeCBench; nothing is downloaded) and writes
the corpus by a fixed rule, decided before any result was seen (SELECTION below), to CORPUS_DIR/<name>/cuda/<file>
and CORPUS_DIR/<name>/hip/<file>, with MANIFEST.csv (name, files, commit, licence, bytes) and the repository's
LICENSE. The corpus is public code and is never committed (docs/hipify-ported.md lists it).

`run` translates every program's CUDA file with each engine (`python -m rocm_bridge hipify [ARGS] FILE`, run with
ROOT as the working directory and PYTHONPATH, so another checkout's engine can be measured) and with HIPIFY's
hipify-perl, then compiles every engine output, hipify-perl's output and the person's port alike with Debian 12's
ROCm 5.2 hipcc, `HIP_PLATFORM=amd hipcc --offload-arch=gfx90a -fsyntax-only -x hip -std=c++17` (plus -fopenmp
where the file uses OpenMP), inside the compile sandbox of rocm_bridge/compile/sandbox.py (bubblewrap, address
space / CPU / file limits, nice 10, a wall clock), at most --jobs at a time. Compile results are cached by the
SHA-256 of flags and text (--cache), so identical outputs compile once.

It prints a markdown table (per program: compiles or the first error's class) and summaries:
- compile counts per tool;
- for every program whose port compiles and an engine's output does not: the first error, in a PORT_CLASSES class;
- WRONG_CLASSES: lines of the engine's output that a HIP engineer would call wrong even where it compiles, counted
  where the person's port has no such line (a multiset difference of whitespace-normalised lines), with an example.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from hipify_realworld import CUDA_LIBRARY_HEADERS, ERROR, INCLUDE, NOT_FOUND, classify, load_table  # noqa: E402

from rocm_bridge.compile import sandbox  # noqa: E402
from rocm_bridge.compile.toolchain import not_packaged  # noqa: E402

HIPCC = "/usr/bin/hipcc"
FLAGS = ["--offload-arch=gfx90a", "-fsyntax-only", "-x", "hip", "-std=c++17"]
COMPILE_WALL_S = 180.0
SOURCE = re.compile(r"\.(cu|cuh|h|hpp|hh|c|cpp|cc|cxx|inc|hip)$")
MAIN = re.compile(r"\bmain\s*\(")

SELECTION = """every benchmark <name> of HeCBench's src/ (at the given commit) such that
  1. both src/<name>-cuda/ and src/<name>-hip/ exist;
  2. each holds exactly one C/C++/CUDA file (.cu .cuh .h .hpp .hh .c .cpp .cc .cxx .inc .hip), at its top level;
  3. the CUDA file defines main();
  4. neither file has a quoted #include (the program is self-contained: only system / toolkit headers);
  5. the CUDA file includes no CUDA library header (cuBLAS, cuFFT, cuRAND, cuSPARSE, cuSOLVER, cuDNN, NCCL, NPP,
     nvJPEG, cuTENSOR, Thrust, CUB, CUTLASS, NVML, CUPTI, NVTX) and the HIP file no header of a ROCm library that
     Debian 12 does not package (rocm_bridge.compile.toolchain.not_packaged);
taken all, in alphabetical order."""
CUDA_LIBS = re.compile(r"^(cublas|cufft|curand|cusparse|cusolver|cudnn|nccl|npp|nvjpeg|cutensor|thrust/|cub/|"
                       r"cutlass|nvml|cupti|nvtx|nvToolsExt)", re.I)

# First-error classes of a program whose port compiles and whose engine output does not (port_class checks them
# in this order against the first error's message and the source line it points at).
PORT_CLASSES = {
    "library_header": "a header of a ROCm library Debian 12 lacks, or a CUDA header left",
    "ambiguous_overload": "a call HIP's overloads make ambiguous (__ffsll on long long ...)",
    "simd_intrinsic": "a CUDA SIMD-in-a-word intrinsic HIP lacks (__vmaxs4, __vadd2 ...)",
    "warp_sync": "a _sync warp builtin ROCm 5.2 lacks (__shfl_*_sync, __syncwarp, __ballot_sync, __activemask)",
    "half_bf16": "half / bfloat16 types and conversions (__half2, bfloat16, a void-typed intrinsic assigned)",
    "void_ptr_arg": "a T** passed where HIP 5.2 declares void** (CUDA's runtime adds a template overload; HIP "
                    "5.2 has none for this call, e.g. hipHostAlloc)",
    "cuda12_signature": "a CUDA 12/13 signature the HIP call does not take (cudaMemPrefetchAsync with a "
                        "cudaMemLocation ...)",
    "redefinition": "the program defines a function HIP's headers already declare (a float atomicMin ...)",
}
_SIMD = re.compile(r"'__v[a-z]+[24]'")
_WARP_SYNC = re.compile(r"'(__\w+_sync|__syncwarp|__activemask)'")
_HALF = re.compile(r"half|bfloat|bf16", re.I)
_HALF_SRC = re.compile(r"half|bfloat|bf16|\b__h[a-z]\w*\s*\(|__float2|__low2|__high2", re.I)
_CALL_MISMATCH = re.compile(r"no matching function for call|too (many|few) arguments to function call|cannot convert|"
                            r"no viable conversion|cannot initialize")
_HIP_CALL = re.compile(r"\bhip[A-Z]\w*|hipMemLocation")
_VOID_PTR = re.compile(r"no known conversion from '[^']*\*\*' to 'void \*\*'")
REALWORLD_CLASS = {"a": "library_header", "b": "newer_than_5_2", "c": "cuda_left", "d": "other"}

# Lines of an engine's output a HIP engineer would call wrong even where they compile.
WRONG_CLASSES: list[tuple[str, str, re.Pattern, bool]] = [
    ("offset_16", "32-lane reduction kept: a shuffle loop / shuffle starting at offset 16",
     re.compile(r"for\s*\([^;]*=\s*16\s*;[^;]*;[^)]*(>>=\s*1|/=\s*2|>>\s*1|/\s*2)|"
                r"__shfl\w*\s*\((?:[^()]|\([^()]*\))*,\s*16\s*[,)]"), False),
    ("mask_0xffffffff", "32-bit all-lanes mask (0xffffffff) in a warp builtin or mask",
     re.compile(r"^(?=.*0x[fF]{8}[uU]?(?![0-9a-fA-F]))(?=.*(__shfl|__ballot|__any|__all|__match|__activemask|"
                r"__reduce|__syncwarp|mask))", re.I), False),
    ("lane_math_32", "lane / warp arithmetic with 32: % 32, & 31, / 32, >> 5 on a thread index, or a warp "
     "size constant of 32",
     re.compile(r"(threadIdx|\blane\w*|\bwarp\w*|\btid\b|\blid\b).*(%\s*32\b|&\s*31\b|/\s*32\b|>>\s*5\b)|"
                r"(%\s*32\b|&\s*31\b|/\s*32\b|>>\s*5\b).*(threadIdx|\blane\w*|\bwarp\w*|\btid\b)|"
                r"#\s*define\s+\w*WARP\w*\s+32\b|\b\w*[wW]arp\w*\s*=\s*32\b", re.I), False),
    ("legacy_hip_bfloat16", "the legacy hip_bfloat16 type (hip_bf16.h's is __hip_bfloat16)",
     re.compile(r"(?<![\w])hip_bfloat16\b"), False),
    ("nv_bf16_left", "a CUDA __nv_bfloat16 / __nv_bfloat162 name left",
     re.compile(r"\b__nv_bfloat16\d?\b"), False),
    ("hipHostAlloc", "hipHostAlloc, deprecated in ROCm's headers, where the ports use hipHostMalloc",
     re.compile(r"\bhipHostAlloc\b"), False),
    ("cuda_name_left", "a CUDA runtime name left in code (cuda*, cu[A-Z]*)",
     re.compile(r"\b(cuda[A-Z]\w*|cu[A-Z][a-z]\w*)\b"), False),
    ("cuda_in_string", "a user-visible string still naming a CUDA API (\"cudaMalloc failed\")",
     re.compile(r"\"[^\"\n]*\bcuda[A-Z]\w*[^\"\n]*\""), True),
]


# ---------------------------------------------------------------------------------------------------------- extract

def _git(gitdir: Path, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", str(gitdir), *args], capture_output=True, text=True,
                          check=True).stdout


def select(gitdir: Path, commit: str) -> list[dict]:
    """The programs SELECTION picks at `commit`, alphabetical: name, cuda_file, hip_file, licence."""
    folders: dict[str, list[str]] = {}
    for path in _git(gitdir, "ls-tree", "-r", "--name-only", commit, "src/").splitlines():
        parts = path.split("/")
        if len(parts) >= 3:
            folders.setdefault(parts[1], []).append("/".join(parts[2:]))
    picked = []
    for folder in sorted(folders):
        if not folder.endswith("-cuda") or folder[:-5] + "-hip" not in folders:
            continue
        name = folder[:-5]
        cu = [f for f in folders[folder] if SOURCE.search(f)]
        hip = [f for f in folders[name + "-hip"] if SOURCE.search(f)]
        if len(cu) != 1 or len(hip) != 1 or "/" in cu[0] + hip[0]:
            continue
        ctext = _git(gitdir, "show", f"{commit}:src/{folder}/{cu[0]}")
        htext = _git(gitdir, "show", f"{commit}:src/{name}-hip/{hip[0]}")
        if not MAIN.search(ctext):
            continue
        cinc, hinc = INCLUDE.findall(ctext), INCLUDE.findall(htext)
        if any(kind == '"' for kind, _ in cinc + hinc):
            continue
        if any(CUDA_LIBS.match(h) for _, h in cinc) or any(not_packaged(h) for _, h in hinc):
            continue
        own = "LICENSE" in folders[folder]
        licence = "BSD-3-Clause (HeCBench)"
        if own:
            first = next((ln.strip() for ln in _git(gitdir, "show", f"{commit}:src/{folder}/LICENSE").splitlines()
                          if ln.strip()), "")
            licence = f"own LICENSE: {first[:60]}"
        picked.append({"name": name, "cuda_file": f"src/{folder}/{cu[0]}", "hip_file": f"src/{name}-hip/{hip[0]}",
                       "licence": licence, "cuda_text": ctext, "hip_text": htext, "own_license": own})
    return picked


def extract(gitdir: Path, commit: str, out: Path) -> int:
    commit = _git(gitdir, "rev-parse", commit).strip()
    programs = select(gitdir, commit)
    out.mkdir(parents=True, exist_ok=True)
    (out / "LICENSE").write_text(_git(gitdir, "show", f"{commit}:LICENSE"), encoding="utf-8")
    with (out / "MANIFEST.csv").open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["name", "cuda_file", "hip_file", "repository", "commit", "licence", "cuda_bytes", "hip_bytes"])
        for p in programs:
            for side, key in (("cuda", "cuda_file"), ("hip", "hip_file")):
                target = out / p["name"] / side / Path(p[key]).name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(p[f"{side}_text"], encoding="utf-8")
            if p["own_license"]:
                folder = Path(p["cuda_file"]).parent
                (out / p["name"] / "LICENSE").write_text(_git(gitdir, "show", f"{commit}:{folder}/LICENSE"),
                                                         encoding="utf-8")
            w.writerow([p["name"], p["cuda_file"], p["hip_file"], "zjin-lcf/HeCBench", commit, p["licence"],
                        len(p["cuda_text"].encode()), len(p["hip_text"].encode())])
    print(f"{len(programs)} programs from {gitdir} at {commit} written to {out}\nrule: {SELECTION}")
    return 0


# ------------------------------------------------------------------------------------------------------- analysis

def strip_comments(text: str, strings: bool = True) -> str:
    """Comments blanked (line structure kept); string and char literals blanked too unless `strings`."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(text[i:j] if strings else c + " " * max(0, j - i - 2) + (c if j - i >= 2 else ""))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _norm(line: str) -> str:
    return " ".join(line.split())


def wrong_lines(output: str, port: str) -> dict[str, list[tuple[int, str]]]:
    """Per WRONG_CLASSES class: (line number, text) of the output's matching lines the port has no copy of."""
    views = {True: (strip_comments(output, True), strip_comments(port, True)),
             False: (strip_comments(output, False), strip_comments(port, False))}
    out_lines, found = output.splitlines(), {}
    for key, _desc, pattern, keep_strings in WRONG_CLASSES:
        o_view, p_view = views[keep_strings]
        have = Counter(_norm(ln) for ln in p_view.splitlines() if pattern.search(ln))
        hits = []
        for no, ln in enumerate(o_view.splitlines(), 1):
            if pattern.search(ln):
                k = _norm(ln)
                if have[k] > 0:
                    have[k] -= 1
                else:
                    hits.append((no, out_lines[no - 1].strip()[:200] if no <= len(out_lines) else k))
        if hits:
            found[key] = hits
    return found


def diagnostics(res: dict) -> str:
    """A compile's error lines (from all its output) followed by the head of its output (warnings and notes)."""
    return "\n".join(res.get("errors", [])) + "\n" + res.get("stderr_head", "")


def first_error(stderr: str, text: str, name: str = "") -> tuple[str, str, int, str]:
    """(file, message, line, source line) of the first error, or ('', '', 0, '') where there is none; the source
    line only where the error is in the compiled file itself (`name`, or any file when name is empty)."""
    m = ERROR.search(stderr)
    if not m:
        return "", "", 0, ""
    line, file = int(m["line"]), Path(m["file"]).name
    lines = text.splitlines()
    mine = not name or file == name
    return file, m["msg"].strip(), line, (lines[line - 1].strip() if mine and 0 < line <= len(lines) else "")


def port_class(stderr: str, text: str, table) -> str:
    """The PORT_CLASSES key of a failed compile's first error, else hipify_realworld's a-d class, renamed."""
    _file, msg, _line, src = first_error(stderr, text)
    header = NOT_FOUND.search(msg)
    after = stderr[stderr.find(msg) + len(msg):][:2000] if msg else ""  # the notes that follow the first error
    if header:
        name = header["header"]
        if not_packaged(name) or CUDA_LIBRARY_HEADERS.match(name) or name.startswith("cu"):
            return "library_header"
    elif "is ambiguous" in msg:
        return "ambiguous_overload"
    elif _SIMD.search(msg):
        return "simd_intrinsic"
    elif _WARP_SYNC.search(msg):
        return "warp_sync"
    elif _HALF.search(msg) or ("'void'" in msg and _HALF_SRC.search(src)):
        return "half_bf16"
    elif msg.startswith("no matching function for call to 'hip") and _VOID_PTR.search(after):
        return "void_ptr_arg"
    elif _CALL_MISMATCH.search(msg) and (_HIP_CALL.search(msg) or _HIP_CALL.search(src)):
        return "cuda12_signature"
    elif msg.startswith("redefinition of"):
        return "redefinition"
    return REALWORLD_CLASS[classify(stderr, table)[0]]


# -------------------------------------------------------------------------------------------------------- running

class Compiler:
    """Sandboxed, cached syntax-only compiles with ROCm 5.2's hipcc."""

    def __init__(self, cache: Path | None):
        self.cache = cache
        if cache:
            cache.mkdir(parents=True, exist_ok=True)
        self.sandboxed = sandbox.sandbox_works()
        self.compiled = 0
        self.cached = 0

    def __call__(self, name: str, text: str) -> dict:
        flags = FLAGS + (["-fopenmp"] if "omp.h" in text or "#pragma omp" in text else [])
        key = hashlib.sha256(json.dumps([HIPCC, flags, text]).encode()).hexdigest()
        hit = self.cache / f"{key}.json" if self.cache else None
        if hit and hit.is_file():
            self.cached += 1
            return json.loads(hit.read_text(encoding="utf-8"))
        with tempfile.TemporaryDirectory(prefix="hipify_ported_") as tmp:
            job = Path(tmp) / "job"
            job.mkdir()
            (job / name).write_text(text, encoding="utf-8")
            run = sandbox.run([HIPCC, *flags, name], job, {"HIP_PLATFORM": "amd", "HOME": "/tmp"},
                              sandbox=self.sandboxed, wall_s=COMPILE_WALL_S)
        self.compiled += 1
        result = {"ok": run.returncode == 0 and not run.timed_out, "timed_out": run.timed_out,
                  "seconds": round(run.seconds, 2),
                  "errors": [m.group(0)[:300] for m in ERROR.finditer(run.stderr)][:20],
                  "stderr_head": "" if run.returncode == 0 else run.stderr[:4000]}
        if hit and not run.timed_out:
            hit.write_text(json.dumps(result), encoding="utf-8")
        return result


def parse_engine(spec: str, scratch: Path) -> dict:
    """LABEL:ROOT[:ARGS] -> label, root, args, commit.

    ROOT is a checkout (its git HEAD is recorded, '+dirty' with uncommitted edits under rocm_bridge/ or data/), or
    @REV: that commit of this repository, exported with `git archive` under `scratch` (read-only for every
    worktree; a branch another engineer is editing is measured at its last commit)."""
    label, _, rest = spec.partition(":")
    root, _, argstr = rest.partition(":")
    if root.startswith("@"):
        rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", root[1:] + "^{commit}"],
                             capture_output=True, text=True, check=True).stdout.strip()
        root_path = scratch / f"engine-{rev[:12]}"
        if not root_path.is_dir():
            root_path.mkdir(parents=True)
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], capture_output=True, check=True)
            subprocess.run(["tar", "-x", "-C", str(root_path)], input=archive.stdout, check=True)
        return {"label": label, "root": root_path, "args": shlex.split(argstr), "commit": f"{root[1:]} {rev[:10]}"}
    root_path = Path(root or ROOT).resolve()
    commit = "unknown"
    with_git = subprocess.run(["git", "-C", str(root_path), "rev-parse", "--short=10", "HEAD"], capture_output=True,
                              text=True)
    if with_git.returncode == 0:
        commit = with_git.stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root_path), "status", "--porcelain", "--", "rocm_bridge", "data"],
                               capture_output=True, text=True).stdout.strip()
        commit += "+dirty" if dirty else ""
    return {"label": label, "root": root_path, "args": shlex.split(argstr), "commit": commit}


def translate_engine(engine: dict, src: Path) -> tuple[str, float, str]:
    """(HIP text, seconds, report) of the engine at engine['root'] on one file; empty text where it failed."""
    env = {**os.environ, "PYTHONPATH": str(engine["root"]), "PYTHONDONTWRITEBYTECODE": "1"}
    t0 = time.perf_counter()
    done = subprocess.run(["nice", "-n", "10", sys.executable, "-m", "rocm_bridge", "hipify", *engine["args"],
                           str(src)], cwd=engine["root"], env=env, capture_output=True, text=True, timeout=300)
    return (done.stdout if done.returncode == 0 else ""), time.perf_counter() - t0, done.stderr[-3000:]


def load_corpus(corpus: Path) -> list[dict]:
    programs = []
    for folder in sorted(p for p in corpus.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
        cu = sorted((folder / "cuda").glob("*")) if (folder / "cuda").is_dir() else []
        hip = sorted((folder / "hip").glob("*")) if (folder / "hip").is_dir() else []
        cu, hip = [p for p in cu if SOURCE.search(p.name)], [p for p in hip if SOURCE.search(p.name)]
        if len(cu) == 1 and len(hip) == 1:
            programs.append({"name": folder.name, "cuda": cu[0], "hip": hip[0]})
    return programs


def measure(corpus: Path, engines: list[dict], perl: str, jobs: int, cache: Path | None,
            keep: Path | None = None) -> dict:
    """Translate and compile everything; the per-program rows plus the run's metadata."""
    programs = load_corpus(corpus)
    table = load_table()
    compiler = Compiler(cache)
    tools = [e["label"] for e in engines] + (["hipify-perl"] if perl else []) + ["port"]
    seconds = Counter()
    rows = []

    def translate(p: dict) -> dict:
        row = {"program": p["name"], "file": p["cuda"].name, "texts": {}}
        port = p["hip"].read_text(encoding="utf-8", errors="replace")
        row["texts"]["port"] = port
        for e in engines:
            text, s, report = translate_engine(e, p["cuda"])
            seconds[e["label"]] += s
            row["texts"][e["label"]] = text
            if not text:
                row.setdefault("translate_errors", {})[e["label"]] = report
        if perl:  # -quiet-warnings: the same output, without a per-line warning pass that is 50x slower
            t0 = time.perf_counter()
            done = subprocess.run(["nice", "-n", "10", "perl", perl, "-quiet-warnings", str(p["cuda"])],
                                  capture_output=True, text=True, timeout=600)
            seconds["hipify-perl"] += time.perf_counter() - t0
            row["texts"]["hipify-perl"] = done.stdout if done.returncode == 0 else ""
        return row

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        rows = list(pool.map(translate, programs))
    if keep:
        for row in rows:
            for tool, text in row["texts"].items():
                target = keep / tool / row["program"] / row["file"]
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
    work = [(row, tool) for row in rows for tool in tools]
    t0 = time.perf_counter()
    unique = list(dict.fromkeys((row["file"], row["texts"][tool]) for row, tool in work  # same text: one compile
                                if row["texts"][tool]))
    with ThreadPoolExecutor(max_workers=max(1, min(jobs, 2))) as pool:
        done = dict(zip(unique, pool.map(lambda ft: compiler(*ft), unique), strict=True))
    failed = {"ok": False, "timed_out": False, "errors": [], "stderr_head": ""}  # the translator gave no output
    results = [done.get((row["file"], row["texts"][tool]), failed) for row, tool in work]
    compile_s = time.perf_counter() - t0
    for (row, tool), res in zip(work, results, strict=True):
        text = row["texts"][tool]
        entry = {"ok": res["ok"], "timed_out": res["timed_out"], "errors": res["errors"][:5]}
        if not res["ok"]:
            diag = diagnostics(res)
            file, msg, line, src = first_error(diag, text, row["file"])
            cls = port_class(diag, text, table) if text else ("timed_out" if res["timed_out"] else "no_output")
            entry.update(cls=cls, first_error=msg[:300], error_file=file, line=line, source_line=src[:200])
        if tool != "port":
            entry["wrong_lines"] = {k: v[:10] for k, v in wrong_lines(text, row["texts"]["port"]).items()}
            entry["wrong_counts"] = {k: len(v) for k, v in wrong_lines(text, row["texts"]["port"]).items()}
        row[tool] = entry
    for row in rows:
        del row["texts"]
    return {"corpus": str(corpus), "tools": tools,
            "engines": [{k: str(v) if k == "root" else v for k, v in e.items()} for e in engines],
            "hipify_perl": perl, "hipcc": HIPCC, "flags": FLAGS, "sandboxed": compiler.sandboxed,
            "translate_seconds": dict(seconds), "compile_seconds": round(compile_s, 1),
            "compiles_run": compiler.compiled, "compiles_cached": compiler.cached, "programs": rows}


# -------------------------------------------------------------------------------------------------------- report

def summary(result: dict) -> dict:
    """Counts: compiles per tool; port-compiles-tool-fails first-error classes; wrong-line classes per tool."""
    rows, tools = result["programs"], result["tools"]
    out = {"programs": len(rows), "compile": {t: sum(1 for r in rows if r[t]["ok"]) for t in tools},
           "failures": {}, "wrong": {}}
    for t in tools:
        if t == "port":
            continue
        classes: dict[str, list] = {}
        for r in rows:
            if r["port"]["ok"] and not r[t]["ok"]:
                classes.setdefault(r[t]["cls"], []).append(
                    f"{r['program']}/{r[t]['error_file'] or r['file']}:{r[t]['line']}: {r[t]['first_error'][:140]}"
                    + (f"  [{r[t]['source_line'][:100]}]" if r[t]["source_line"] else ""))
        out["failures"][t] = classes
        out.setdefault("beats_port", {})[t] = [f"{r['program']} (port: {r['port']['cls']})" for r in rows
                                               if r[t]["ok"] and not r["port"]["ok"]]
        wrong: dict[str, dict] = {}
        for r in rows:
            for k, hits in r[t]["wrong_lines"].items():
                w = wrong.setdefault(k, {"programs": 0, "lines": 0, "example": ""})
                w["programs"] += 1
                w["lines"] += r[t]["wrong_counts"][k]
                if not w["example"]:
                    w["example"] = f"{r['program']}/{r['file']}:{hits[0][0]}: {hits[0][1][:150]}"
        out["wrong"][t] = wrong
    return out


def print_report(result: dict) -> None:
    tools, rows, s = result["tools"], result["programs"], summary(result)
    labels = {e["label"]: f"{e['label']} ({e['commit']}{' ' + ' '.join(e['args']) if e['args'] else ''})"
              for e in result["engines"]}
    print("## Runs\n")
    for e in result["engines"]:
        print(f"- engine `{labels[e['label']]}`: `{e['root']}`")
    if result["hipify_perl"]:
        print(f"- hipify-perl: `{result['hipify_perl']}`")
    print(f"- port: the hand-written HIP file; compiler `HIP_PLATFORM=amd {result['hipcc']} {' '.join(FLAGS)}`"
          f" ({'sandboxed' if result['sandboxed'] else 'NOT sandboxed: bwrap unavailable'})\n")
    print("## Per program (ok = compiles; otherwise the first error's class)\n")
    print("| program | " + " | ".join(tools) + " |")
    print("|---|" + "---|" * len(tools))
    for r in rows:
        print(f"| {r['program']} | " + " | ".join("ok" if r[t]["ok"] else r[t]["cls"] for t in tools) + " |")
    print(f"\n## Compile counts ({s['programs']} programs)\n")
    print("| tool | compile | of |")
    print("|---|---:|---:|")
    for t in tools:
        print(f"| {labels.get(t, t)} | {s['compile'][t]} | {s['programs']} |")
    print("\n| tool | compiles where the port does not |")
    print("|---|---|")
    for t in tools[:-1]:
        print(f"| {labels.get(t, t)} | {', '.join(s['beats_port'][t]) or '-'} |")
    for t in tools[:-1]:
        fails = s["failures"][t]
        n = sum(len(v) for v in fails.values())
        print(f"\n## {labels.get(t, t)}: the port compiles, this output does not ({n})\n")
        if n:
            print("| class | n | first error (example) |")
            print("|---|---:|---|")
            for k, v in sorted(fails.items(), key=lambda kv: -len(kv[1])):
                print(f"| {k} | {len(v)} | `{v[0].replace('|', '/')}` |")
            print()
            for k, v in sorted(fails.items()):
                for item in v:
                    print(f"- {k}: `{item.replace('|', '/')}`")
    for t in tools[:-1]:
        wrong = s["wrong"][t]
        print(f"\n## {labels.get(t, t)}: lines the port has no copy of\n")
        print("| class | programs | lines | example |")
        print("|---|---:|---:|---|")
        for key, desc, *_ in WRONG_CLASSES:
            w = wrong.get(key)
            if w:
                print(f"| {key}: {desc} | {w['programs']} | {w['lines']} | `{w['example'].replace('|', '/')}` |")
    ts = ", ".join(f"{k} {v:.1f} s" for k, v in result["translate_seconds"].items())
    print(f"\ntranslation (sum of per-file wall times): {ts}; hipcc {result['compile_seconds']} s for "
          f"{result['compiles_run']} compiles ({result['compiles_cached']} cached)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    ex = sub.add_parser("extract", help="write the corpus from a local HeCBench git mirror")
    ex.add_argument("mirror", type=Path, help="the mirror's git directory")
    ex.add_argument("--commit", default="HEAD")
    ex.add_argument("--out", type=Path, required=True)
    rp = sub.add_parser("report", help="print the tables of a run's --json again")
    rp.add_argument("json", type=Path)
    rn = sub.add_parser("run", help="translate and compile the corpus")
    rn.add_argument("corpus", type=Path)
    rn.add_argument("--engine", action="append", default=[],
                    help="LABEL:ROOT[:ARGS] (repeatable; default 'engine:<this checkout>')")
    rn.add_argument("--hipify-perl", dest="perl", default="")
    rn.add_argument("--jobs", type=int, default=2, help="at most 2 compiles run at once whatever this says")
    rn.add_argument("--json", type=Path, default=None)
    rn.add_argument("--keep", type=Path, default=None, help="write every translation here")
    rn.add_argument("--cache", default=str(ROOT / "bench" / ".cache" / "hipify_ported"),
                    help="compile result cache ('' for none)")
    args = ap.parse_args(argv)
    if args.cmd == "extract":
        return extract(args.mirror, args.commit, args.out)
    if args.cmd == "report":
        print_report(json.loads(args.json.read_text(encoding="utf-8")))
        return 0
    if not Path(HIPCC).exists():
        print(f"{HIPCC} (ROCm) is not installed: nothing to compile with", file=sys.stderr)
        return 2
    if args.perl and subprocess.run(["perl", "-c", args.perl], capture_output=True).returncode != 0:
        print(f"{args.perl}: perl -c fails", file=sys.stderr)
        return 2
    if not args.corpus.is_dir() or not load_corpus(args.corpus):
        print(f"{args.corpus}: no <name>/cuda/<file> + <name>/hip/<file> programs (run 'extract' first)",
              file=sys.stderr)
        return 2
    scratch = Path(tempfile.mkdtemp(prefix="hipify_ported_engines_"))
    engines = [parse_engine(s, scratch) for s in (args.engine or [f"engine:{ROOT}"])]
    try:
        result = measure(args.corpus, engines, args.perl, args.jobs, Path(args.cache) if args.cache else None,
                         args.keep)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    result["summary"] = summary(result)
    print_report(result)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
