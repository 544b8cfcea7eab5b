"""The project view (rocm_bridge.hipify.project): a tree or zip of sources and build files in, a migrated tree
and one report (HIPIFY_REPORT.md + hipify_report.json) out, from the command line and as the page's zip."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

from rocm_bridge.hipify import project as pj
from rocm_bridge.hipify.translator import Options

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "tests" / "hipify" / "build"
KERNEL = ("#include <cuda_runtime.h>\n__global__ void k(float *a) { a[threadIdx.x] = 0; }\n"
          "int main() { float *p; cudaMalloc(&p, 4); cudaMallocAsync(&p, 4, 0); cudaDataType t;\n"
          "  cudaDeviceFlushGPUDirectRDMAWrites(0, 0); k<<<1, 1>>>(p); return 0; }\n")


def _tree(root: Path) -> None:
    (root / "sub").mkdir(parents=True)
    (root / "CMakeLists.txt").write_text((BUILD / "saxpy.cmake.in").read_text())
    (root / "sub" / "Makefile").write_text((BUILD / "vadd.mk.in").read_text())
    (root / "saxpy.cu").write_text(KERNEL)
    (root / "main.cpp").write_text("int main() { return 0; }\n")
    (root / "README.txt").write_text("not migrated\n")


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rocm_bridge", "hipify", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=60, env={"PATH": "/usr/bin:/bin", "LANG": "C"})


def test_tree_mode_converts_build_files_and_writes_one_report(tmp_path):
    _tree(tmp_path / "src")
    done = _cli("--rocm-version", "5.2", "-o", str(tmp_path / "out"), str(tmp_path / "src"))
    assert done.returncode == 0, done.stderr
    out = tmp_path / "out"
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == [
        "CMakeLists.txt", "HIPIFY_REPORT.md", "hipify_report.json", "main.cpp", "saxpy.cu", "sub/Makefile"]
    assert (out / "CMakeLists.txt").read_text() == (BUILD / "saxpy.cmake.out").read_text()
    assert (out / "sub" / "Makefile").read_text() == (BUILD / "vadd.mk.out").read_text()
    assert "hipMalloc(&p, 4)" in (out / "saxpy.cu").read_text()
    data = json.loads((out / "hipify_report.json").read_text())
    assert data["totals"]["minimum_rocm"] == "5.7"
    assert data["totals"]["files"] == 2 and data["totals"]["build_files"] == 2
    assert data["totals"]["build_todos"] == 8
    assert [(x["hip_name"], x["added"]) for x in data["too_new"]] == [("hipDataType", "5.7")]
    saxpy = next(r for r in data["sources"] if r["path"] == "saxpy.cu")
    assert saxpy["converted"] + saxpy["left"] == saxpy["total"] and saxpy["left"] >= 1  # cudaDeviceFlushGPUDirectRDMAWrites
    md = (out / "HIPIFY_REPORT.md").read_text()
    assert "Minimum ROCm: 5.7" in md and "### `sub/Makefile`" in md and "**TODO** 14:" in md
    assert "project: 2 source files and 2 build files" in done.stderr
    assert "sub/Makefile:5: needs a person" in done.stderr


def test_zip_in_gives_the_same_tree(tmp_path):
    _tree(tmp_path / "src")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for p in sorted((tmp_path / "src").rglob("*")):
            if p.is_file():
                zf.write(p, p.relative_to(tmp_path / "src").as_posix())
    (tmp_path / "p.zip").write_bytes(buf.getvalue())
    assert _cli("-o", str(tmp_path / "a"), str(tmp_path / "src")).returncode == 0
    done = _cli("-o", str(tmp_path / "b"), str(tmp_path / "p.zip"))
    assert done.returncode == 0, done.stderr
    for name in ("CMakeLists.txt", "sub/Makefile", "saxpy.cu", "HIPIFY_REPORT.md"):
        assert (tmp_path / "a" / name).read_text() == (tmp_path / "b" / name).read_text()
    assert _cli("--inplace", str(tmp_path / "p.zip")).returncode == 2


def test_bad_offload_arch_is_a_usage_error(tmp_path):
    _tree(tmp_path / "src")
    done = _cli("--offload-arch", "sm_80", "-o", str(tmp_path / "out"), str(tmp_path / "src"))
    assert done.returncode == 2 and "--offload-arch wants an AMD GPU target" in done.stderr


def test_offload_arch_goes_into_the_build_files(tmp_path):
    _tree(tmp_path / "src")
    assert _cli("--offload-arch", "gfx942", "-o", str(tmp_path / "out"), str(tmp_path / "src")).returncode == 0
    assert "set(CMAKE_HIP_ARCHITECTURES gfx942)" in (tmp_path / "out" / "CMakeLists.txt").read_text()
    assert "--offload-arch=gfx942" in (tmp_path / "out" / "sub" / "Makefile").read_text()


def test_project_zip_holds_migrated_files_and_report_with_escaped_names():
    files = [("a|b`.cu", KERNEL), ("CMakeLists.txt", (BUILD / "saxpy.cmake.in").read_text()), ("x.txt", "skip")]
    project = pj.migrate(files, Options(), target="5.2")
    data = pj.write_zip(project, "zh")
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        names = zf.namelist()
        md = zf.read(pj.REPORT_MD).decode()
    assert names == ["a|b`.cu", "CMakeLists.txt", pj.REPORT_MD, pj.REPORT_JSON]
    assert "`a\\|b'.cu`" in md and "最低 ROCm：5.7" in md
    assert pj.totals(project)["too_new"] == 1
