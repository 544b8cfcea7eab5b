"""Build-file conversion (rocm_bridge.hipify.buildfiles): golden cases in tests/hipify/build/ (NAME.cmake.in or
NAME.mk.in -> NAME.*.out, the TODO list in NAME.*.todo as 'line key'; NAME.opts = 'roc' for --roc), and the
converted Makefile driving the real hipcc."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import compilers
import pytest

from rocm_bridge.hipify import buildfiles as bf
from rocm_bridge.hipify.messages import t

CASES = Path(__file__).resolve().parent / "hipify" / "build"
INPUTS = sorted(CASES.glob("*.in"))


def _convert(path: Path) -> bf.BuildResult:
    stem = path.name[:-3]
    name = "CMakeLists.txt" if stem.endswith(".cmake") else "Makefile"
    roc = (CASES / f"{stem.split('.')[0]}.opts").exists()
    return bf.convert(name, path.read_text(encoding="utf-8"), roc=roc)


@pytest.mark.parametrize("path", INPUTS, ids=[p.name for p in INPUTS])
def test_golden(path):
    stem = path.name[:-3]
    result = _convert(path)
    assert result.output == (CASES / f"{stem}.out").read_text(encoding="utf-8")
    todos = [f"{x.line} {x.key}" for x in result.todos]
    assert todos == (CASES / f"{stem}.todo").read_text(encoding="utf-8").splitlines()
    for key in {c.key for c in result.changes}:
        assert t(f"hipify.build.change.{key}", "zh") and t(f"hipify.build.change.{key}", "en")
    for key in {x.key for x in result.todos}:
        assert t(f"hipify.build.todo.{key}", "zh") and t(f"hipify.build.todo.{key}", "en")


def test_no_cuda_is_left_in_a_converted_cmake_file_except_what_a_person_must_see():
    out = _convert(CASES / "saxpy.cmake.in").output
    code = "\n".join(line for line in out.splitlines() if not line.lstrip().startswith("#"))
    leftovers = [w for w in ("CUDA::", "CUDAToolkit", "LANGUAGES CXX CUDA", "CMAKE_CUDA", "COMPILE_LANGUAGE:CUDA")
                 if w in code]
    assert leftovers == []
    assert "CUDA_SEPARABLE_COMPILATION" in code  # left for a person (todo 'separable')


def test_build_kind():
    assert [bf.build_kind(n) for n in ("CMakeLists.txt", "src/cmake/Cuda.cmake", "Makefile", "rules.mk",
                                       "GNUmakefile", "main.cu", "CMakeCache.txt")] == [
        "cmake", "cmake", "make", "make", "make", None, None]


def test_cmake_comments_strings_and_unrelated_commands_stay():
    src = ('# project(x LANGUAGES CUDA)\nmessage(STATUS "CUDA::cublas is fine here")\n'
           "#[[ enable_language(CUDA) ]]\nproject(x LANGUAGES CXX)\n")
    result = bf.convert("CMakeLists.txt", src)
    assert result.output == src
    assert result.changes == []


def test_every_target_row_names_a_source():
    rows = bf.targets()
    assert len(rows) > 20
    for row in rows.values():
        assert row.source and row.person in ("", "check", "person")
        assert bool(row.hip_target) or row.person == "person"


def _hipcc() -> str:
    return compilers.hipcc()


def test_converted_makefile_builds_an_object_with_hipcc(tmp_path):
    _hipcc()
    out = _convert(CASES / "vadd.mk.in").output
    (tmp_path / "Makefile").write_text(out)
    (tmp_path / "vadd.cu").write_text(
        "#include <hip/hip_runtime.h>\n__global__ void vadd(float *a, const float *b, int n) {\n"
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) a[i] += b[i];\n}\n")
    env = {**os.environ, "HIP_PLATFORM": "amd"}
    dry = subprocess.run(["make", "-n", "vadd.o"], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=60)
    assert dry.returncode == 0, dry.stderr
    assert "hipcc --offload-arch=gfx90a -x hip" in dry.stdout and "nvcc" not in dry.stdout
    real = subprocess.run(["make", "vadd.o"], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120)
    assert real.returncode == 0, real.stderr[-2000:]
    assert (tmp_path / "vadd.o").stat().st_size > 0
