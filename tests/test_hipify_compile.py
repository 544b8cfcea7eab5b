"""A real compiler in the loop: Debian's ROCm 5.2 hipcc (`HIP_PLATFORM=amd hipcc --offload-arch=gfx90a
-fsyntax-only`) on every golden output, every page example translated, and one generated program per API group;
CUDA 13's nvcc front end (`nvcc -cuda`, which runs the full EDG front end on host and device code) on the CUDA
of every golden case and example.

Where data/hipify_mappings.csv says a HIP API was added after ROCm 5.2, hipcc must reject exactly that API and
nothing else. Libraries Debian does not package for ROCm 5.2 (hipBLAS, rocBLAS, hipFFT, hipSOLVER, hipCUB, hipDNN,
MIOpen) and CUDA libraries outside the nvcc install here (cuBLAS, cuFFT, cuRAND, ...) stop a file at its
#include: that one missing header is then the only error allowed. Files are compiled two at a time.
"""

from __future__ import annotations

import csv
import os
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path

import compilers
import pytest

from rocm_bridge.hipify.args import ARG_CONSTANT_SINCE
from rocm_bridge.hipify.index import GROUP, HIP, HIP_ADDED, active_map, fields
from rocm_bridge.hipify.lint import lint
from rocm_bridge.hipify.page_model import EXAMPLES, example_source
from rocm_bridge.hipify.translator import Options, translate

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "hipify" / "cases"
HIP_RELEASE = (5, 2)  # Debian 12's hipcc: "HIP version: 5.2.21153"
FLAGS = ["--offload-arch=gfx90a", "-fsyntax-only", "-ferror-limit=0", "-std=c++17", "-x", "hip"]
# headers of ROCm libraries Debian 12 does not package (only HIP, rocPRIM, rocRAND/hipRAND, rocSPARSE/hipSPARSE are)
ROCM_NOT_PACKAGED = ("hipblas/hipblas.h", "rocblas/rocblas.h", "hipfft/hipfft.h", "hipsolver/hipsolver.h",
                     "rocsolver/rocsolver.h", "hipcub/hipcub.hpp", "hipDNN.h", "miopen/miopen.h", "rocfft/rocfft.h",
                     "hipblaslt/hipblaslt.h")
# HIP headers added after ROCm 5.2 (hip_bf16.h arrived with the __hip_bfloat16 type rework), and those
# data/hipify_headers.csv dates later (hip/cooperative_groups/hip_reduce.h 7.13, hip_scan.h 10.0)
with (ROOT / "data" / "hipify_headers.csv").open(newline="", encoding="utf-8") as _fh:
    DATED_HEADERS = {r["hip_header"]: r["hip_added"] for r in csv.DictReader(_fh) if r["hip_added"]}
ROCM_NEWER_HEADERS = ("hip/hip_bf16.h", *sorted(h for h, v in DATED_HEADERS.items()
                                                 if tuple(int(p) for p in v.split(".")[:2]) > (5, 2)))
# the nvcc here is the CUDA 13 compiler with cudart only: the math / DNN libraries' headers are not installed
CUDA_NOT_INSTALLED = ("cublas_v2.h", "cublas.h", "cublasLt.h", "cufft.h", "curand.h", "curand_kernel.h",
                      "cusparse.h", "cusolverDn.h", "cudnn.h", "nvrtc.h", "cub/cub.cuh")

# CUDA 13 changes newer than the table's HIPIFY revision (2024): the golden CUDA keeps the older spelling on purpose
CUDA13_ERRORS = {
    "golden:deprecated_unsupported": 'identifier "cudaThreadSynchronize" is undefined',  # removed in CUDA 13
    "golden:driver_api": "too few arguments in function call",  # cuCtxCreate takes CUctxCreateParams* in 13
}
CASE_LOCAL_HEADERS = ("my_kernels.cuh",)
# Translations hipcc rejects for a known reason (a defect to fix in the translator or the case): listed here so
# CI stays green while it is open, and checked to still fail so a fix removes the entry. Absent units are ignored.
KNOWN_BAD_OUTPUT: dict[str, str] = {}  # headers.cu tests the mapping of a project header it does not ship

# Generated probes: one translation unit per API group that names every HIP identifier the table maps to
# (`using ::name;` for functions, types and enumerators unless it is a macro, `#ifndef` for the table's macros).
# (variant, api_group, section or "") -> (headers, release of the library Debian ships)
PROBES = {
    ("hip", "runtime", ""): (["hip/hip_runtime.h"], (5, 2)),
    ("hip", "driver", ""): (["hip/hip_runtime.h", "hip/hiprtc.h"], (5, 2)),
    ("hip", "device", ""): (["hip/hip_runtime.h", "hip/hip_fp16.h", "hip/hip_bfloat16.h"], (5, 2)),
    ("hip", "complex", ""): (["hip/hip_complex.h"], (5, 2)),
    ("hip", "rtc", ""): (["hip/hiprtc.h"], (5, 2)),
    ("hip", "blas", "CUDA Library Data types"): (["hip/library_types.h"], (5, 2)),
    # Debian 12 packages hipRAND / rocRAND / hipSPARSE 5.3.3 and rocSPARSE 5.3.0 beside HIP 5.2.3
    ("hip", "rand", ""): (["hiprand/hiprand.h", "hiprand/hiprand_kernel.h", "hiprand/hiprand_mtgp32_host.h"],
                          (5, 3)),
    ("hip", "sparse", ""): (["hipsparse/hipsparse.h"], (5, 3)),
    ("roc", "rand", ""): (["rocrand/rocrand.h", "rocrand/rocrand_kernel.h"], (5, 3)),
    ("roc", "sparse", ""): (["rocsparse/rocsparse.h"], (5, 3)),
}
LIBRARY_RELEASE = {"rand": (5, 3), "sparse": (5, 3)}  # api_group -> Debian's release of that library
# Names the table dates at (or before) the shipped release, or leaves undated, that these headers do not declare.
# Each is a finding about the table (HIPIFY's version maps), kept here so that any change shows up.
KNOWN_MISSING: dict[tuple[str, str, str], dict[str, str]] = {
    ("hip", "runtime", ""): {
        "hipDeviceAttributeMaxBlocksPerMultiprocessor": "table 4.3.0; not in ROCm 5.2's hipDeviceAttribute_t",
        "hipErrorLossyQuery": "no HIP version in the table; not in ROCm 5.2",
        "hipGraphNodeTypeConditional": "no HIP version in the table; not in ROCm 5.2",
    },
    ("hip", "driver", ""): {
        "hipDeviceAttributeMaxBlocksPerMultiprocessor": "table 4.3.0; not in ROCm 5.2's hipDeviceAttribute_t",
        "hipDeviceAttributeMultiGpuBoardGroupId": "table 4.3.0; not in ROCm 5.2's hipDeviceAttribute_t",
        "hipTexRefGetArray": "table 3.0.0; ROCm 5.2 only names it in hip_prof_str.h (no declaration)",
        "hipGraphAddBatchMemOpNode": "no HIP version in the table; not in ROCm 5.2",
        "hipGraphBatchMemOpNodeGetParams": "no HIP version in the table; not in ROCm 5.2",
        "hipGraphBatchMemOpNodeSetParams": "no HIP version in the table; not in ROCm 5.2",
        "hipGraphExecBatchMemOpNodeSetParams": "no HIP version in the table; not in ROCm 5.2",
        "hipGraphDebugDotFlagsRuntimeTypes": "no HIP version in the table; not in ROCm 5.2",
        **{f"HIPRTC_JIT_{n}": "table 1.6.0 (CU_JIT_* -> HIPRTC_JIT_*); ROCm 5.2 spells them hipJitOption*"
           for n in ("CACHE_MODE", "ERROR_LOG_BUFFER", "ERROR_LOG_BUFFER_SIZE_BYTES", "FALLBACK_STRATEGY",
                     "FAST_COMPILE", "GENERATE_DEBUG_INFO", "GENERATE_LINE_INFO", "INFO_LOG_BUFFER",
                     "INFO_LOG_BUFFER_SIZE_BYTES", "LOG_VERBOSE", "MAX_REGISTERS", "NEW_SM3X_OPT", "NUM_OPTIONS",
                     "OPTIMIZATION_LEVEL", "TARGET", "TARGET_FROM_HIPCONTEXT", "THREADS_PER_BLOCK", "WALL_TIME")},
    },
}
# Names the table dates after the shipped release that the headers already declare (a later change is dated).
EARLIER_THAN_TABLE: dict[str, str] = {
    "HIP_R_16F": "table 5.7.0 (hipBLAS moved to hipDataType); hip/library_types.h of ROCm 5.2 has it",
    "HIP_R_32F": "as HIP_R_16F", "HIP_R_64F": "as HIP_R_16F", "HIP_C_16F": "as HIP_R_16F",
    "HIP_C_32F": "as HIP_R_16F", "HIP_C_64F": "as HIP_R_16F", "hipDataType": "as HIP_R_16F",
}


def _hipcc() -> str:
    return compilers.hipcc()


def _nvcc() -> str:
    path = shutil.which("nvcc")
    if path is None:
        if os.environ.get("CI") == "true":
            pytest.fail("nvcc is missing but the CI machines have CUDA 13's nvcc")
        pytest.skip("nvcc (CUDA 13) is not installed here")
    return path


def _run_all(commands: list[list[str]]) -> list[subprocess.CompletedProcess]:
    env = {**os.environ, "HIP_PLATFORM": "amd"}

    def one(cmd):
        return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)

    with ThreadPoolExecutor(max_workers=2) as pool:
        return list(pool.map(one, commands))


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in version.split(".")[:2]) if version else (0,)


@lru_cache(maxsize=4)
def _newer(roc: bool, miopen: bool) -> frozenset[str]:
    """HIP / ROC names the table dates after the release Debian ships of their library, for this target."""
    out = set()
    for rec in active_map(roc, miopen).values():
        f = fields(rec)
        if f[HIP] and _key(f[HIP_ADDED]) > LIBRARY_RELEASE.get(f[GROUP], HIP_RELEASE):
            out.add(f[HIP])
    return frozenset(out - set(EARLIER_THAN_TABLE))


ERROR = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?:fatal )?error: (?P<msg>.*)$", re.M)
NAMED = re.compile(r"(?:undeclared identifier|no member named|unknown type name|no template named|"
                   r"use of undeclared identifier) '(?P<name>[\w:]+)'")
MISSING_HEADER = re.compile(r"'(?P<header>[^']+)' file not found")


def _errors(stderr: str) -> list[str]:
    return [m["msg"] for m in ERROR.finditer(stderr)]


def _judge(stderr: str, allowed_names: set[str], missing_ok: tuple[str, ...]) -> tuple[list[str], set[str]]:
    """(errors that are not allowed, names that did raise an error)."""
    bad, named = [], set()
    for msg in _errors(stderr):
        header = MISSING_HEADER.search(msg)
        if header and header["header"] in missing_ok:
            continue
        name = NAMED.search(msg)
        if name and name["name"].split("::")[-1] in allowed_names:
            named.add(name["name"].split("::")[-1])
            continue
        bad.append(msg)
    return bad, named


def _options(stem: str) -> Options:
    opts_file = CASES / f"{stem}.opts"
    words = opts_file.read_text().split() if opts_file.exists() else []
    return Options(roc="--roc" in words, miopen="--miopen" in words, experimental="--experimental" in words,
                   kernel_syntax="--hip-kernel-execution-syntax" in words)


def _hip_units(tmp_path: Path) -> list[tuple[str, Path, Options, object]]:
    """(name, .hip file, options, translation Result) of every golden output and every translated example."""
    units = []
    for hip in sorted(CASES.glob("*.hip")):
        cuda = next(CASES.glob(f"{hip.stem}.c*"))
        opts = _options(hip.stem)
        units.append((f"golden:{hip.stem}", hip, opts, translate(cuda.read_text(encoding="utf-8"), opts)))
    for key in EXAMPLES:
        result = translate(example_source(key), Options())
        path = tmp_path / f"{key}.hip"
        path.write_text(result.output, encoding="utf-8")
        units.append((f"example:{key}", path, Options(), result))
    return units


def test_golden_outputs_and_examples_compile_with_hipcc_except_apis_newer_than_rocm_5_2(tmp_path):
    hipcc = _hipcc()
    units = _hip_units(tmp_path)
    done = _run_all([[hipcc, *FLAGS, str(path)] for _, path, _, _ in units])
    problems, compiled = {}, []
    for (name, _path, opts, result), proc in zip(units, done, strict=True):
        newer = _newer(opts.roc, opts.miopen)
        used_newer = {r.hip_name for r in result.converted if r.hip_name in newer}
        # constants an argument rule inserted that the shipped library is too old for (rocsparse_spmv_stage_*)
        used_newer |= {name for name, (since, group, _src) in ARG_CONSTANT_SINCE.items()
                       if _key(since) > LIBRARY_RELEASE.get(group, HIP_RELEASE)
                       and re.search(rf"\b{name}\b", result.output)}
        left = {r.name for r in result.unconverted}
        # names on lines the lint reports as errors (e.g. __ballot_sync: 32-bit mask, and no *_sync in HIP 5.2)
        flagged = {w for f in lint(result.source, result.lexed) if f.severity == "error"
                   for w in re.findall(r"\w+", f.excerpt)}
        left |= flagged
        bad, named = _judge(proc.stderr, used_newer | left, ROCM_NOT_PACKAGED + ROCM_NEWER_HEADERS)
        stopped = any(MISSING_HEADER.search(m) for m in _errors(proc.stderr))
        newer_headers = [h for h in ROCM_NEWER_HEADERS[1:] if f"<{h}>" in result.output]
        if newer_headers and not any(f"'{h}' file not found" in proc.stderr for h in newer_headers):
            problems[name] = [f"expected ROCm 5.2 to lack {newer_headers}"]
            continue
        if name in KNOWN_BAD_OUTPUT:
            if not bad:
                problems[name] = ["compiles now: remove it from KNOWN_BAD_OUTPUT"]
        elif bad:
            problems[name] = bad[:5]
        elif not stopped and used_newer - named:
            problems[name] = [f"expected an error for {sorted(used_newer - named)} (added after ROCm 5.2)"]
        if proc.returncode == 0:
            compiled.append(name)
    assert problems == {}
    # the files that use no newer API and no library Debian lacks compile cleanly
    assert {"golden:runtime_memory", "golden:driver_api", "golden:curand_device", "golden:cusparse_spmv",
            "example:vector_add", "example:tiled_gemm"} <= set(compiled)


def _probe(variant: str, group: str, section: str) -> tuple[str, dict[str, dict]]:
    names: dict[str, dict] = {}
    with (ROOT / "data" / "hipify_mappings.csv").open(newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            if (row["variant"] == variant and row["api_group"] == group and row["hip_name"]
                    and (not section or row["section"] == section) and re.fullmatch(r"[A-Za-z_]\w*", row["hip_name"])):
                names.setdefault(row["hip_name"], row)
    lines = [f"#include <{h}>" for h in PROBES[(variant, group, section)][0]] + ["void probe() {"]
    macros = []
    for name, row in sorted(names.items()):
        if row["kind"] == "define":
            macros.append(name)
        else:  # HIP spells some CUDA enumerators as macros (hipStreamDefault ...)
            lines += [f"#ifndef {name}", f"  using ::{name};", "#endif"]
    lines.append("}")
    for m in macros:
        lines += [f"#ifndef {m}", f'#error "missing {m}"', "#endif"]
    return "\n".join(lines) + "\n", names


def test_one_generated_program_per_api_group_fails_exactly_on_apis_newer_than_the_shipped_release(tmp_path):
    hipcc = _hipcc()
    probes = sorted(PROBES)
    paths, tables = [], []
    for variant, group, section in probes:
        text, names = _probe(variant, group, section)
        path = tmp_path / f"probe_{variant}_{group}_{len(section)}.hip"
        path.write_text(text)
        paths.append(path)
        tables.append(names)
    done = _run_all([[hipcc, *FLAGS, str(p)] for p in paths])
    mismatches = {}
    for probe, names, proc in zip(probes, tables, done, strict=True):
        assert len(names) >= 5, probe
        release = PROBES[probe][1]
        failed = set(re.findall(r"no member named '(\w+)' in the global namespace", proc.stderr))
        failed |= set(re.findall(r'"missing (\w+)"', proc.stderr))
        other = [m for m in _errors(proc.stderr) if "no member named" not in m and '"missing ' not in m]
        newer = {n for n, row in names.items() if _key(row["hip_added"]) > release} - set(EARLIER_THAN_TABLE)
        known = set(KNOWN_MISSING.get(probe, {}))
        got = {"failed_not_newer": sorted(failed - newer - known), "newer_compiled": sorted(newer - failed),
               "known_now_fine": sorted(known - failed), "other": other[:5]}
        if any(got.values()):
            mismatches[probe] = got
    assert mismatches == {}


def _cuda_units() -> list[tuple[str, Path]]:
    units = [(f"golden:{p.stem}", p) for p in sorted(CASES.glob("*.cu"))]
    units += [(f"golden:{p.stem}", p) for p in sorted(CASES.glob("*.cpp"))]
    units += [(f"example:{k}", ROOT / "content" / "examples" / "cuda" / f"{k}.cu") for k in EXAMPLES]
    return units


def test_original_cuda_of_every_golden_case_and_example_passes_the_nvcc_front_end():
    nvcc = _nvcc()
    units = _cuda_units()
    cmds = [[nvcc, "-std=c++17", "-cuda", "-x", "cu", str(path), "-o", os.devnull] for _, path in units]
    done = _run_all(cmds)
    problems = {}
    for (name, _path), proc in zip(units, done, strict=True):
        if proc.returncode == 0:
            continue
        missing = re.findall(r"fatal error: (\S+): No such file or directory", proc.stderr)
        errors = [ln for ln in proc.stderr.splitlines() if "error:" in ln]
        if missing and all(h in CUDA_NOT_INSTALLED + CASE_LOCAL_HEADERS for h in missing) \
                and len(errors) == len(missing):
            continue
        if name in CUDA13_ERRORS and len(errors) == 1 and CUDA13_ERRORS[name] in errors[0]:
            continue
        problems[name] = errors[:5]
    assert problems == {}
