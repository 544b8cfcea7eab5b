"""Compare CUDA's runtime and driver declarations with HIP's, for every function the mapping table maps.

    python tools/extract_hipify_signatures.py [--cuda /usr/local/cuda/include] [--hip /usr/include@5.2]
                                              [--hip DIR@LABEL ...] [--out data/hipify_signatures.csv]

Each header set is run through the host preprocessor (`g++ -E -P`, `-D__HIP_PLATFORM_AMD__` for HIP), so macros
such as CUDA's `__dv(0)` defaults and cuda.h's `#define cuMemAlloc cuMemAlloc_v2` are what the compiler sees. A
HIP include folder newer than the local ROCm (`--hip /path/to/ROCm/HIP/include@6.3`) is laid over a copy of
/usr/include/hip so its `amd_detail` headers resolve; an include still missing is replaced by an empty file (only
hip_runtime_api.h's own declarations are read).

For every row of data/hipify_mappings.csv with kind `function`, group runtime or driver and a HIP name, both
declarations are found, their parameters normalised (declarator names and `struct` / `enum` dropped, CUDA type
names renamed through the table, typedefs resolved where the renamed names still differ) and compared. Per HIP
version the row says:

    same        same parameter count and types
    defaults    the same types; CUDA gives trailing defaults that HIP does not (a shorter call needs them written)
    converts    same count; each CUDA argument converts implicitly to HIP's parameter (T* -> const T*, T* ->
                void*, enum -> integer, integer -> integer)
    differs     anything else: needs an argument rule (rocm_bridge/hipify/args.py) or a verdict in
                data/hipify_signature_rules.csv (tests/test_hipify_signatures.py fails otherwise)
    no_hip      HIP's header has no declaration of the mapped name (the table dates it later)

Output columns: cuda_name, hip_name, api_group, cuda_params, cuda_defaults, then per HIP version
`hip_<label>_params`, `status_<label>`. Parameters are `|`-separated normalised types.
"""

from __future__ import annotations

import argparse
import csv
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "data" / "hipify_mappings.csv"
OUT = ROOT / "data" / "hipify_signatures.csv"

_KEYWORDS = {"int", "char", "short", "long", "unsigned", "signed", "float", "double", "void", "bool", "const",
             "volatile", "struct", "enum", "union", "class", "__int128"}
_QUALIFIERS = {"const", "volatile", "struct", "enum", "union", "class"}
_INTEGERS = {"int", "unsigned int", "long", "unsigned long", "long long", "unsigned long long", "short",
             "unsigned short", "char", "unsigned char", "signed char", "size_t", "uint32_t", "int32_t", "uint64_t",
             "int64_t", "uint8_t", "bool", "ssize_t", "unsigned long int", "long int", "long long int",
             "unsigned long long int", "uintptr_t"}
_TOKEN = re.compile(r"[A-Za-z_]\w*|::|\.\.\.|\d\w*|[^\sA-Za-z_\d]")


def preprocess(source: str, includes: list[str], defines: list[str] = ()) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "probe.cpp"
        src.write_text(source)
        cmd = ["g++", "-E", *([] if "-dM" in defines else ["-P"]), "-x", "c++", "-std=c++17", *defines, *(f"-I{i}" for i in includes), str(src)]
        return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout


def cuda_text(include: str) -> tuple[str, dict[str, str]]:
    """Preprocessed cuda_runtime_api.h + cuda.h, and cuda.h's versioned aliases (cuMemAlloc -> cuMemAlloc_v2)."""
    source = "#include <cuda_runtime_api.h>\n#include <cuda.h>\n"
    text = preprocess(source, [include])
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "probe.cpp"
        src.write_text(source)
        macros = subprocess.run(["g++", "-dM", "-E", "-x", "c++", f"-I{include}", str(src)], capture_output=True,
                                text=True, check=True).stdout
    aliases = dict(re.findall(r"^#define (cu[A-Za-z]\w*) (?:__CUDA_API_PT\w+\()?(cu\w+?(?:_v\d+)?)\)?\s*$",
                              macros, re.M))
    return text, aliases


def hip_text(folder: str) -> tuple[str, dict[str, str]]:
    """Preprocessed hip_runtime_api.h of an include folder (laid over /usr/include/hip when it is not that), and
    its object-like macros that name another identifier (HIP 6.x: #define hipKernelNodeAttrID
    hipLaunchAttributeID)."""
    text = _hip_text(folder, [])
    macros = _hip_text(folder, ["-dM"])
    aliases = dict(re.findall(r"^#define ([A-Za-z_]\w*) ([A-Za-z_]\w*)\s*$", macros, re.M))
    return text, aliases


def _hip_text(folder: str, extra: list[str]) -> str:
    source = "#include <hip/hip_runtime_api.h>\n"
    defines = ["-D__HIP_PLATFORM_AMD__", "-D__HIP_PLATFORM_HCC__", *extra]
    if Path(folder).resolve() == Path("/usr/include"):
        return preprocess(source, [folder], defines)
    with tempfile.TemporaryDirectory() as tmp:
        inc = Path(tmp) / "include"
        shutil.copytree("/usr/include/hip", inc / "hip")
        for path in Path(folder, "hip").rglob("*"):
            if path.is_file():
                dest = inc / "hip" / path.relative_to(Path(folder, "hip"))
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(path, dest)
        for _ in range(50):
            try:
                return preprocess(source, [str(inc)], defines)
            except subprocess.CalledProcessError as err:
                missing = re.search(r"fatal error: ([^:]+): No such file", err.stderr)
                if missing is None:
                    raise
                stub = inc / missing.group(1)
                stub.parent.mkdir(parents=True, exist_ok=True)
                stub.write_text("")
                if not extra:
                    print(f"  (empty stand-in for {missing.group(1)})", file=sys.stderr)
    raise RuntimeError("too many missing includes")


def declarations(text: str, names: set[str]) -> dict[str, str]:
    """name -> parameter text of its declaration (`NAME(params);`, after a return type), for names in `names`.
    The last declaration wins (a header declares some twice; a later one is the same)."""
    out: dict[str, str] = {}
    for m in re.finditer(r"(\w+|[*&])\s*\b([A-Za-z_]\w*)\s*\(", text):
        name = m.group(2)
        if name not in names or m.group(1) in ("return", "else", "case", "new", "delete", "throw"):
            continue
        depth, i = 0, m.end() - 1
        while i < len(text):
            c = text[i]
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        tail = text[i + 1:i + 200].lstrip()
        while tail.startswith("__attribute__"):  # __attribute__((...)) after the declarator
            d, j = 0, 0
            for j, c in enumerate(tail):  # noqa: B007 (j is read after the loop)
                d += c == "("
                d -= c == ")"
                if d == 0 and c == ")":
                    break
            tail = tail[j + 1:].lstrip()
        if tail.startswith(";"):
            out[name] = text[m.end():i]
    return out


def split_params(params: str) -> list[str]:
    parts, depth, cur = [], 0, []
    for c in params:
        if c in "(<[{":
            depth += 1
        elif c in ")>]}":
            depth -= 1
        if c == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(c)
    parts.append("".join(cur))
    parts = [p.strip() for p in parts]
    return [] if parts in ([""], ["void"]) else parts


def normalise(param: str, rename: dict[str, str]) -> tuple[str, bool]:
    """(normalised type, has a default)."""
    default = False
    depth = 0
    for k, c in enumerate(param):
        depth += c in "(<[{"
        depth -= c in ")>]}"
        if c == "=" and depth == 0:
            param, default = param[:k], True
            break
    param = re.sub(r"__attribute__\s*\(\(.*?\)\)", " ", param)
    toks = [t for t in _TOKEN.findall(param) if t not in ("__restrict__", "__restrict", "restrict")]
    # function pointer: R (*name)(args) -> R (*)(args)
    if "(" in toks and toks[toks.index("(") + 1:toks.index("(") + 2] == ["*"]:
        k = toks.index("(")
        if k + 2 < len(toks) and re.match(r"[A-Za-z_]", toks[k + 2]) and toks[k + 3:k + 4] == [")"]:
            del toks[k + 2]
    else:
        # arrays are pointers: int x[3] -> int x *, then the declarator name (the last identifier, when a type
        # comes before it) is dropped
        stars = 0
        while toks and toks[-1] == "]" and "[" in toks:
            toks = toks[:len(toks) - 1 - toks[::-1].index("[")]
            stars += 1
        if (toks and re.match(r"[A-Za-z_]", toks[-1]) and toks[-1] not in _KEYWORDS
                and any(re.match(r"[A-Za-z_]", t) and t not in _QUALIFIERS for t in toks[:-1])):
            toks = toks[:-1]
        toks += ["*"] * stars
    toks = [rename.get(t, t) for t in toks if t not in ("struct", "enum", "union", "class")]
    text = " ".join(toks)
    text = re.sub(r"\bunsigned(?! (?:int|long|char|short)\b)", "unsigned int", text)
    text = re.sub(r"\b(long long|long|short) int\b", r"\1", text)
    text = text.replace("* ", "*").replace(" *", "*").replace("*", " *").replace("  ", " ").strip()
    return text, default


def typedefs(text: str) -> dict[str, str]:
    """Simple typedefs: `typedef <type> NAME;` (no function pointers or arrays)."""
    out = {}
    for m in re.finditer(r"\btypedef\s+([^;{}()]+?)\s*\b([A-Za-z_]\w*)\s*;", text):
        base = re.sub(r"\b(struct|enum|union)\s+", "", m.group(1)).strip()
        if base != m.group(2):
            out[m.group(2)] = base
    # typedef struct X {...} Y; / typedef enum X {...} Y;
    for m in re.finditer(r"\btypedef\s+(?:struct|enum|union)\s+(\w+)\s*\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}\s*(\w+)\s*;",
                         text):
        if m.group(1) != m.group(2):
            out[m.group(2)] = m.group(1)
    return out


def resolve(t: str, defs: dict[str, str]) -> str:
    for _ in range(8):
        new = re.sub(r"[A-Za-z_]\w*", lambda m: defs.get(m.group(), m.group()), t)
        new = new.replace("* ", "*").replace(" *", "*").replace("*", " *").replace("  ", " ").strip()
        if new == t:
            break
        t = new
    return t


_ENUM_RE = re.compile(r"\benum\s+(\w+)\s*(?::\s*\w+\s*)?\{")


def enums(text: str) -> set[str]:
    out = set(_ENUM_RE.findall(text))
    out |= set(re.findall(r"\btypedef\s+enum\s+\w*\s*\{[^}]*\}\s*(\w+)\s*;", text))
    return out


def _integer(t: str) -> bool:
    return t in _INTEGERS or bool(t) and set(t.split()) <= {"unsigned", "signed", "int", "long", "short", "char"}


def converts(cuda: str, hip: str, hip_enums: set[str]) -> bool:
    """True when an argument of CUDA's type converts implicitly to HIP's parameter type."""
    if cuda == hip:
        return True
    if hip.endswith("*") and cuda.endswith("*"):
        if hip in ("void *", "const void *") and not cuda.startswith("const ") or hip == "const void *":
            return cuda.count("*") >= 1
        if hip == "const " + cuda:
            return True
    c_int = _integer(cuda) or cuda in hip_enums
    h_int = _integer(hip)
    return c_int and h_int


def classify(cuda: list[str], hip: list[str] | None, hip_defaults: int, defs: dict[str, str],
             hip_enums: set[str]) -> str:
    if hip is None:
        return "no_hip"
    if len(hip) > len(cuda) and hip_defaults >= len(hip) - len(cuda):
        hip = hip[:len(cuda)]  # HIP's extra trailing parameters have defaults (hipStreamWaitValue32's mask)
    if len(cuda) == len(hip):
        if cuda == hip or [resolve(c, defs) for c in cuda] == [resolve(h, defs) for h in hip]:
            return "same"
        if all(converts(resolve(c, defs), resolve(h, defs), hip_enums) for c, h in zip(cuda, hip, strict=True)):
            return "converts"
    return "differs"


def mapped_functions() -> list[tuple[str, str, str]]:
    out = []
    with open(TABLE, newline="") as fh:
        for row in csv.DictReader(fh):
            if (row["kind"] == "function" and row["api_group"] in ("runtime", "driver") and row["hip_name"]
                    and row["variant"] == "hip"):
                out.append((row["cuda_name"], row["hip_name"], row["api_group"]))
    return out


def type_renames() -> dict[str, str]:
    out = {}
    with open(TABLE, newline="") as fh:
        for row in csv.DictReader(fh):
            if row["kind"] != "function" and row["hip_name"] and row["variant"] == "hip":
                out.setdefault(row["cuda_name"], row["hip_name"])
    return out


def build(cuda_include: str, hips: list[tuple[str, str]]) -> list[dict[str, str]]:
    funcs = mapped_functions()
    rename = type_renames()
    ctext, aliases = cuda_text(cuda_include)
    cdecl = declarations(ctext, {aliases.get(c, c) for c, _h, _g in funcs})
    cdefs = typedefs(ctext)
    hip_sides = []
    for folder, label in hips:
        htext, hmacros = hip_text(folder)
        hdefs = {**typedefs(htext), **hmacros}
        # CUDA-only names resolve through CUDA's typedefs, then the result is renamed
        defs = {**{k: " ".join(rename.get(t, t) for t in v.split()) for k, v in cdefs.items()
                   if k not in rename}, **hdefs}
        hip_sides.append((label, declarations(htext, {h for _c, h, _g in funcs}), defs, enums(htext)))
    rows = []
    for cuda, hip, group in funcs:
        params = cdecl.get(aliases.get(cuda, cuda))
        if params is None:
            continue  # not in CUDA 13's headers (removed, or a library header not read here)
        norm = [normalise(p, rename) for p in split_params(params)]
        ctypes = [t for t, _d in norm]
        cdefaults = [d for _t, d in norm]
        row = {"cuda_name": cuda, "hip_name": hip, "api_group": group, "cuda_params": "|".join(ctypes),
               "cuda_defaults": str(sum(cdefaults))}
        for label, hdecl, defs, henums in hip_sides:
            hp = hdecl.get(hip)
            htypes = None if hp is None else [normalise(p, {})[0] for p in split_params(hp)]
            hdefaults = 0 if hp is None else sum(normalise(p, {})[1] for p in split_params(hp))
            status = classify(ctypes, htypes, hdefaults, defs, henums)
            if status in ("same", "converts") and sum(cdefaults) > hdefaults:
                status = "defaults"
            row[f"hip_{label}_params"] = "" if htypes is None else "|".join(htypes)
            row[f"status_{label}"] = status
        rows.append(row)
    rows.sort(key=lambda r: r["cuda_name"])
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cuda", default="/usr/local/cuda/include")
    ap.add_argument("--hip", action="append", help="FOLDER@LABEL: a HIP include folder (holding hip/)")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    hips = [tuple(h.rsplit("@", 1)) for h in (args.hip or ["/usr/include@5.2"])]
    rows = build(args.cuda, hips)
    with open(args.out, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    for _folder, label in hips:
        counts: dict[str, int] = {}
        for r in rows:
            counts[r[f"status_{label}"]] = counts.get(r[f"status_{label}"], 0) + 1
        print(f"HIP {label}: {len(rows)} functions: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
