"""The transpose walkthrough (rocm_bridge.kernels): the step table, the CUDA twins, a CPU run of every kernel, the
AMD compile results against the recorded ones, and the recorded numbers the app shows against the run files."""

from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import compilers
import pytest

from rocm_bridge import i18n, kernels
from rocm_bridge.kernels import compile as kcompile
from rocm_bridge.kernels import figure, lessons, live, recorded

ROOT = Path(__file__).resolve().parents[1]
RUN_FILE = recorded.DATA_DIR / "run_h100.json"


# ---- the table and the sources -------------------------------------------------------------------------------------

def test_steps_are_numbered_and_each_file_is_one_kernel():
    assert [s.number for s in kernels.STEPS] == [1, 2, 3, 4, 5, 6]
    for s in kernels.ALL:
        src = kernels.hip_source(s)
        assert src.startswith(kernels.HIP_INCLUDE + "\n")
        assert len(re.findall(r"__global__", src)) == 1
        assert re.search(rf"__launch_bounds__\({s.threads}\) void {s.kernel}\(", src), s.file
        # the launch the comment states is the launch the table makes
        assert f"block ({s.block[0]}, {s.block[1]})" in src or f"block ({s.block[0]})" in src


def test_cuda_twin_differs_from_hip_in_the_header_line_only():
    for s in kernels.ALL:
        hip, cuda = kernels.hip_source(s).splitlines(), kernels.cuda_source(s).splitlines()
        changed = [(a, b) for a, b in zip(hip, cuda, strict=True) if a != b]
        assert changed == [(kernels.HIP_INCLUDE, kernels.CUDA_INCLUDE)]


def test_diffs_go_from_each_step_to_the_next():
    assert kernels.diff(kernels.STEPS[0]) == "" and kernels.diff(kernels.REFERENCE) == ""
    padded = kernels.diff(kernels.step("lds_padded"))
    assert "-    __shared__ float tile[TILE][TILE];" in padded
    assert "+    __shared__ float tile[TILE][TILE + 1];" in padded
    for s in kernels.STEPS[1:]:
        d = kernels.diff(s)
        assert d.startswith(f"--- {kernels.previous(s).file}\n+++ {s.file}\n")


@pytest.mark.parametrize("rows,cols", [(32, 32), (64, 96), (8192, 8192), (2048, 6144)])
def test_launch_covers_every_element_once(rows, cols):
    for s in kernels.ALL:
        gx, gy = s.grid_dims(rows, cols)
        assert gx * gy * s.threads * s.per_thread == rows * cols, s.id


def test_bandwidth_counts_one_read_and_one_write():
    assert kernels.bytes_moved(8192, 8192) == 2 * 8192 * 8192 * 4
    assert kernels.bandwidth_gbs(1000, 1000, 1.0) == pytest.approx(8.0)


# ---- every kernel on the CPU: threads as std::threads, __syncthreads as a barrier ------------------------------------

EMULATOR = r"""
#include <barrier>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>
struct Dim3 { unsigned x, y, z; };
static thread_local Dim3 threadIdx;
static Dim3 blockIdx;
static std::barrier<>* block_barrier;
struct float4 { float x, y, z, w; };
static inline float4 make_float4(float a, float b, float c, float d) { return {a, b, c, d}; }
#define __global__
#define __launch_bounds__(n)
#define __shared__ static  /* blocks run one after another, so one copy per kernel is the block's LDS */
#define __syncthreads() block_barrier->arrive_and_wait()
#include "step.inc"
int main(int argc, char** argv) {
    int rows = atoi(argv[1]), cols = atoi(argv[2]), bx = atoi(argv[3]), by = atoi(argv[4]);
    int gx = atoi(argv[5]), gy = atoi(argv[6]), transposes = atoi(argv[7]);
    std::vector<float> in((size_t)rows * cols), out((size_t)rows * cols, NAN);
    unsigned x = 12345;
    for (float& f : in) { x = x * 1103515245u + 12345u; f = (float)(x >> 8) + 1.0f; }
    for (int by_ = 0; by_ < gy; ++by_)
        for (int bx_ = 0; bx_ < gx; ++bx_) {
            blockIdx = {(unsigned)bx_, (unsigned)by_, 0};
            std::barrier<> bar(bx * by);
            block_barrier = &bar;
            std::vector<std::thread> threads;
            for (int ty = 0; ty < by; ++ty)
                for (int tx = 0; tx < bx; ++tx)
                    threads.emplace_back([=, &in, &out] {
                        threadIdx = {(unsigned)tx, (unsigned)ty, 0};
                        KERNEL(out.data(), in.data(), rows, cols);
                    });
            for (auto& t : threads) t.join();
        }
    size_t wrong = 0;
    for (size_t r = 0; r < (size_t)rows; ++r)
        for (size_t c = 0; c < (size_t)cols; ++c) {
            float want = in[r * cols + c], got = transposes ? out[c * rows + r] : out[r * cols + c];
            if (memcmp(&want, &got, sizeof want) != 0) ++wrong;
        }
    printf("%zu\n", wrong);
    return wrong != 0;
}
"""


def _emulate(s: kernels.Step, tmp: Path, rows: int, cols: int) -> subprocess.CompletedProcess:
    work = tmp / s.id
    work.mkdir()
    (work / "step.inc").write_text(kernels.hip_source(s).replace(kernels.HIP_INCLUDE, ""), encoding="utf-8")
    (work / "main.cpp").write_text(EMULATOR, encoding="utf-8")
    exe = work / "emulate"
    build = subprocess.run(["g++", "-std=c++20", "-O1", "-pthread", f"-DKERNEL={s.kernel}", "-o", str(exe),
                            str(work / "main.cpp")], capture_output=True, text=True, timeout=180)
    if build.returncode != 0:
        return build
    gx, gy = s.grid_dims(rows, cols)
    return subprocess.run([str(exe), str(rows), str(cols), str(s.block[0]), str(s.block[1]), str(gx), str(gy),
                           str(int(s.transposes))], capture_output=True, text=True, timeout=180)


def test_every_kernel_transposes_on_the_cpu(tmp_path):
    """Each step's own source (its HIP include swapped for a small emulation of threads, blocks and barriers) on a
    64 x 96 matrix: every element where it belongs. A step 3 or 4 without its __syncthreads fails here."""
    compilers.required("g++", "Debian build-essential")
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = dict(zip(kernels.ALL, pool.map(lambda s: _emulate(s, tmp_path, 64, 96), kernels.ALL), strict=True))
    for s, run in runs.items():
        assert run.returncode == 0 and run.stdout.strip() == "0", (s.id, run.stdout, run.stderr[-800:])


def test_emulation_catches_a_wrong_index(tmp_path):
    broken = kernels.Step("broken", 9, "step1_naive.hip", "transpose", (32, 8), (("cols", 32), ("rows", 8)), 1)
    src = kernels.hip_source(kernels.STEPS[0]).replace("(size_t)col * rows + row", "(size_t)row * cols + col")
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "step.inc").write_text(src.replace(kernels.HIP_INCLUDE, ""), encoding="utf-8")
    (tmp_path / "broken" / "main.cpp").write_text(EMULATOR, encoding="utf-8")
    exe = tmp_path / "broken" / "emulate"
    subprocess.run(["g++", "-std=c++20", "-O1", "-pthread", "-DKERNEL=transpose", "-o", str(exe),
                    str(tmp_path / "broken" / "main.cpp")], check=True, timeout=180)
    gx, gy = broken.grid_dims(64, 96)
    run = subprocess.run([str(exe), "64", "96", "32", "8", str(gx), str(gy), "1"], capture_output=True, text=True)
    assert run.returncode != 0 and int(run.stdout) > 0


# ---- AMD compile results: live compilers against the recorded files --------------------------------------------------

def _same_compile(live_step: kcompile.StepCompile, rec: kcompile.StepCompile) -> None:
    assert live_step.memory == rec.memory, live_step.step
    assert (live_step.vgprs, live_step.sgprs, live_step.lds_bytes, live_step.occupancy, live_step.wave) == \
           (rec.vgprs, rec.sgprs, rec.lds_bytes, rec.occupancy, rec.wave), live_step.step


def _same_compiler(recorded_name: str, here: str) -> bool:
    """The recorded compiler's version number is the one here (labels differ in wording, not in version)."""
    version = re.search(r"\d+\.\d+\.\d+", recorded_name)
    return bool(here) and version is not None and version.group(0) in here


def test_steps_compile_with_hipcc_for_gfx90a_as_recorded():
    compilers.required("hipcc", "Debian's ROCm 5.2 hipcc, installed by .ci/run")
    rec = recorded.compile_record("gfx90a")
    if not _same_compiler(rec.compiler, kcompile.compiler_version("gfx90a")):
        pytest.skip(f"recorded with {rec.compiler}, this machine has {kcompile.compiler_version('gfx90a')}")
    for r in (kcompile.compile_step(s, "gfx90a") for s in kernels.ALL):  # the lab runs one compile at a time
        _same_compile(r, rec.steps[r.step])


def test_steps_compile_with_clang22_for_gfx942_as_recorded():
    from rocm_bridge.compile import clang22

    if not clang22.available():
        if os.environ.get("CI") == "true":
            pytest.fail("ziglang is pinned in requirements.txt but not installed")
        pytest.skip("ziglang (clang 22) is not installed: pip install -r requirements.txt")
    rec = recorded.compile_record("gfx942")
    if not _same_compiler(rec.compiler, kcompile.compiler_version("gfx942")):
        pytest.skip(f"recorded with {rec.compiler}, this machine has {kcompile.compiler_version('gfx942')}")
    for r in (kcompile.compile_step(s, "gfx942") for s in kernels.ALL):
        _same_compile(r, rec.steps[r.step])


def test_recorded_gfx942_shows_the_lessons_instructions():
    steps = recorded.compile_record("gfx942").steps
    assert recorded.compile_record("gfx942").target == "gfx942" and "clang version 22" in \
        recorded.compile_record("gfx942").compiler
    for sid in ("naive", "write_coalesced", "lds_tile", "lds_padded"):
        assert steps[sid].global_classes() == ["global_load_dword", "global_store_dword"], sid
    assert steps["four_per_thread"].memory["global_load_dword"] == 4
    assert steps["float4"].global_classes() == ["global_load_dwordx4", "global_store_dwordx4"]
    assert steps["naive"].lds_bytes == 0 and steps["lds_tile"].lds_bytes == 32 * 32 * 4
    assert steps["lds_padded"].lds_bytes == 32 * 33 * 4
    assert steps["lds_tile"].memory["ds_read_b32"] == steps["lds_padded"].memory["ds_read_b32"] == 1
    for s in kernels.ALL:
        assert steps[s.id].wave == 64 and steps[s.id].max_block == s.threads and steps[s.id].isa


def test_live_adapter_uses_the_compile_lab_where_it_builds_the_target():
    assert not live.supports("gfx9999")  # not in the compile lab's target table
    built = [t for t in recorded.TARGETS if live.supports(t)]
    if not built:
        pytest.skip("the compile lab builds none of the recorded targets here (no hipcc, no clang 22)")
    for target in built:
        done = live.compile_step(kernels.step("float4"), target)
        assert done.compiler and done.seconds > 0, target
        assert done.result.global_classes() == ["global_load_dwordx4", "global_store_dwordx4"], target
        assert done.result.lds_bytes == 32 * 33 * 4 and done.result.max_block == 256, target
        rec = recorded.compile_record(target)
        if _clang(done.compiler) == _clang(rec.compiler):  # the same compiler as the record: the same result
            for s in (kernels.step("lds_tile"), kernels.step("float4")):  # with and without __syncthreads' fence
                _same_compile(live.compile_step(s, target).result, rec.steps[s.id])


def _clang(compiler: str) -> str:
    """'22.1.8' from 'clang version 22.1.8 (PyPI ziglang wheel) ...' or 'clang 22.1.8 (ziglang 0.17.1)'."""
    m = re.search(r"clang (?:version )?(\d+\.\d+\.\d+)", compiler)
    return m.group(1) if m else compiler


# ---- the CUDA twins: nvcc for sm_90 ----------------------------------------------------------------------------------

def test_cuda_twins_build_for_sm90_with_16_byte_accesses_where_the_lesson_says(tmp_path):
    """The device-run bundle (all twins in one harness) builds with nvcc -arch=sm_90; the PTX of step 6 and of
    the copy has 16-byte global loads and stores (.v4 of 32-bit), the others 4-byte ones."""
    nvcc = compilers.required("nvcc", "CUDA 13's nvcc")
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import record_walkthrough
    finally:
        sys.path.pop(0)
    (tmp_path / "harness.cu").write_text(record_walkthrough.harness_source(), encoding="utf-8")
    cmds = [[nvcc, "-O3", "-arch=sm_90", "-std=c++17", "-c", "-o", str(tmp_path / "h.o"), str(tmp_path / "harness.cu")],
            [nvcc, "-O3", "-arch=sm_90", "-std=c++17", "-ptx", "-o", str(tmp_path / "h.ptx"), str(tmp_path / "harness.cu")]]
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = list(pool.map(lambda c: subprocess.run(c, capture_output=True, text=True, timeout=300), cmds))
    for r in runs:
        assert r.returncode == 0, r.stderr[-2000:]
    ptx = (tmp_path / "h.ptx").read_text()
    bodies = {m.group(1): m.group(2) for m in re.finditer(r"\.entry (\S+)\((.*?)\n}", ptx, re.S)}
    for s in kernels.ALL:
        body = next(b for name, b in bodies.items() if f"{len('step_' + s.id)}step_{s.id}" in name)
        wide = s.id in ("float4", "copy")
        assert bool(re.search(r"ld\.global(\.nc)?\.v4\.[uf]32", body)) == wide, s.id
        assert bool(re.search(r"st\.global\.v4\.[uf]32", body)) == wide, s.id
        assert ("bar.sync" in body or "barrier.sync" in body) == (s.id in ("lds_tile", "lds_padded",
                                                                         "four_per_thread", "float4")), s.id


# ---- recorded numbers: the app's figures against the run file ---------------------------------------------------------

def test_run_file_is_labelled_and_every_kernel_was_correct():
    raw = json.loads(RUN_FILE.read_text(encoding="utf-8"))
    run = recorded.run_record("h100")
    assert run.gpu == raw["gpu"] == "NVIDIA H100 80GB HBM3" and run.driver == "580.159.04"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", run.date) and "13.0" in run.nvcc
    assert run.sm_clock_mhz.isdigit() and run.max_sm_clock_mhz.isdigit()
    assert raw["all_correct"] is True and raw["checks"] and all(c["wrong"] == 0 for c in raw["checks"])
    assert {c["id"] for c in raw["checks"]} == {s.id for s in kernels.ALL}


def test_recorded_summary_is_the_median_of_the_raw_samples():
    raw = json.loads(RUN_FILE.read_text(encoding="utf-8"))
    pooled: dict[tuple[str, int, int], list[float]] = {}
    for t in raw["timings"]:
        pooled.setdefault((t["id"], t["rows"], t["cols"]), []).extend(t["ms"])
    run = recorded.run_record("h100")
    assert len(run.results) == len(pooled) == 2 * len(kernels.ALL)
    for (sid, rows, cols), samples in pooled.items():
        t = run.timing(sid, rows, cols)
        assert t.median_ms == pytest.approx(statistics.median(samples), abs=1e-5)
        assert t.gbs == pytest.approx(kernels.bandwidth_gbs(rows, cols, statistics.median(samples)), abs=0.1)
        assert t.samples == len(samples) and t.spread < 0.05  # rounds agree within 5 %


def test_the_app_shows_the_recorded_numbers():
    """The widget's table and chart and the CLI's JSON carry exactly the run file's medians and bandwidths."""
    raw = json.loads(RUN_FILE.read_text(encoding="utf-8"))
    by_id = {r["step"]: r for r in raw["results"] if (r["rows"], r["cols"]) == recorded.SIZE}
    comp = recorded.compile_record()
    for s in kernels.STEPS:
        rows = dict((what, value) for what, value, _ in lessons.step_rows(s, "en", comp.steps[s.id], "x"))
        assert rows[i18n.t("walkthrough.row.time", "en", rows=8192, cols=8192)] == f"{by_id[s.id]['median_ms']:.3f} ms"
        assert rows[i18n.t("walkthrough.row.gbs", "en")] == f"{by_id[s.id]['gbs']:.0f} GB/s"
    fig = figure.figure("en", "light")
    assert list(fig.data[0].x) == [by_id[s.id]["gbs"] for s in kernels.STEPS]
    copy_line = next(sh for sh in fig.layout.shapes if sh.line.dash == "dash")
    assert copy_line.x0 == by_id["copy"]["gbs"]
    out = subprocess.run([sys.executable, "-m", "rocm_bridge", "walkthrough", "--json", "--lang", "en"],
                         capture_output=True, text=True, cwd=ROOT, timeout=60, check=True)
    data = json.loads(out.stdout)
    assert data["gpu"] == raw["gpu"] and data["measured"] == raw["date"]
    assert {st["id"]: st["median_ms"] for st in data["steps"]} == {k: v["median_ms"] for k, v in by_id.items()}


def test_lesson_sentences_match_the_record():
    """Each lesson's claim holds in the recorded run (the sentences quote figures; here their direction)."""
    run = recorded.run_record()
    ms = {s.id: run.timing(s.id).median_ms for s in kernels.ALL}
    assert ms["write_coalesced"] < ms["naive"]  # coalesced writes beat coalesced reads
    assert ms["lds_tile"] > ms["write_coalesced"]  # the conflicting tile is slower than step 2
    assert ms["lds_padded"] < ms["lds_tile"] and ms["four_per_thread"] < ms["lds_padded"]
    assert ms["copy"] < ms["float4"]  # the copy is the ceiling
    text = lessons.lesson(kernels.step("lds_padded"), "en")
    assert "128 more bytes" in text and f"{ms['lds_tile'] / ms['lds_padded']:.2f}×" in text
    for s in kernels.STEPS:
        for code in i18n.LANGS:
            sentence = lessons.lesson(s, code)
            assert "{" not in sentence and sentence.count("。" if code == "zh" else ". ") <= 1


def test_published_figures_give_the_sources_own_bandwidths():
    pub = {p.id: p for p in recorded.published()}
    # the Composable Kernel slides print TB/s beside the time: 4.77, 5.62, 5.65
    assert [round(pub[k].gbs / 1000, 2) for k in ("ck_row_major", "ck_padding", "ck_xor")] == [4.77, 5.63, 5.65]
    assert pub["hpc_write_contiguous"].time_us < pub["hpc_read_contiguous"].time_us  # the order step 2 teaches
    for p in pub.values():
        assert p.like_step in ("", *kernels.ids()) and p.source and p.peak_gbs()


# ---- chart, handout, CLI --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("code", ["en", "zh"])
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_chart_is_titled_with_units_and_large_text(code, theme):
    fig = figure.figure(code, theme)
    run = recorded.run_record()
    assert run.gpu in fig.layout.title.text and "8192" in fig.layout.title.text and fig.layout.title.text.count("<br>") == 1
    assert "GB/s" in fig.layout.xaxis.title.text
    assert fig.layout.font.size >= 18 and fig.layout.xaxis.tickfont.size >= 18 and fig.layout.yaxis.tickfont.size >= 18
    bars = fig.data[0]
    assert bars.insidetextfont.size >= 18 and bars.outsidetextfont.size >= 18 and bars.constraintext == "none"
    assert len(fig.layout.annotations) == 2 and all(a.font.size >= 18 for a in fig.layout.annotations)
    # the two reference labels sit a row apart, so they never overlap
    assert sorted(a.yshift or 0 for a in fig.layout.annotations) == [0, 26]
    assert fig.data[0].marker.color == figure.style.palette(theme).vendor["NVIDIA"]
    assert list(fig.data[0].y) == [lessons.step_label(s, code) for s in kernels.STEPS]
    assert len(figure.sources(code, run)) == 3


def test_handout_prints_the_chart_with_its_sources():
    from rocm_bridge.course.widgets import PrintChart, print_item

    item = print_item("transpose_walkthrough", "zh")
    assert isinstance(item, PrintChart) and "run_h100.json" in item.sources[0] and "gpu_specs.csv" in item.sources[1]


def test_cli_text_and_usage():
    run = subprocess.run([sys.executable, "-m", "rocm_bridge", "walkthrough", "--lang", "zh", "--step", "float4"],
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert run.returncode == 0 and "global_load_dwordx4" in run.stdout and "16 字节访问" in run.stdout
    diff = subprocess.run([sys.executable, "-m", "rocm_bridge", "walkthrough", "--step", "lds_padded", "--diff"],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert diff.stdout.rstrip("\n") == kernels.diff(kernels.step("lds_padded")).rstrip("\n")
    bad = subprocess.run([sys.executable, "-m", "rocm_bridge", "walkthrough", "--isa"], capture_output=True,
                         text=True, cwd=ROOT, timeout=60)
    assert bad.returncode == 2 and "--step" in bad.stderr


# ---- hardware counters (ncu), where recorded ---------------------------------------------------------------------------

def test_ncu_csv_is_read_per_step_at_the_recorded_size():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import record_walkthrough
    finally:
        sys.path.pop(0)
    header = '"ID","Kernel Name","Grid Size","Metric Name","Metric Unit","Metric Value"'
    rows = [header, "==PROF== a profiler line that is not CSV"]
    for i, s in enumerate(kernels.ALL):
        for size, value in (((2048, 6144), "1"), ((8192, 8192), "2,048")):
            gx, gy = s.grid_dims(*size)
            rows.append(f'"{i}","step_{s.id}::{s.kernel}(float *, const float *, int, int)","({gx}, {gy}, 1)",'
                        f'"dram__bytes_read.sum","byte","{value}"')
    got = record_walkthrough.parse_ncu("\n".join(rows))
    assert got == {s.id: {"dram__bytes_read.sum": 2048.0} for s in kernels.ALL}


def test_recorded_counters_back_the_lessons():
    rec = recorded.counter_record()
    if rec is None:
        pytest.skip("no hardware counters recorded (data/kernel_walkthrough/ncu_h100.json is made by a device run "
                    "with WALKTHROUGH_NCU=1)")
    c = rec.steps
    assert set(c) == {s.id for s in kernels.ALL}
    # step 1 stores and step 2 loads are strided: 32 sectors per request; their other side is coalesced: 4
    assert c["naive"].sectors_per_request_st > 16 and c["naive"].sectors_per_request_ld <= 4.5
    assert c["write_coalesced"].sectors_per_request_ld > 16 and c["write_coalesced"].sectors_per_request_st <= 4.5
    # the unpadded tile conflicts on its loads; one spare float per row removes (nearly) all of them
    assert c["lds_tile"].bank_conflicts_ld > 100 * max(1.0, c["lds_padded"].bank_conflicts_ld)
    for sid in ("lds_padded", "four_per_thread", "float4", "copy"):
        assert c[sid].dram_over_ideal(rec.rows, rec.cols) < 1.1, sid
    rows = lessons.step_rows(kernels.step("lds_tile"), "en", recorded.compile_record().steps["lds_tile"], "x")
    assert f"{c['lds_tile'].bank_conflicts_ld:,.0f}" in dict((w, v) for w, v, _ in rows)[
        i18n.t("walkthrough.row.conflicts", "en")]
