"""The compile lab against the real hipcc (ROCm 5.2, clang 15) in its bubblewrap sandbox: diagnostics on the
right line with the right explanation, resources for gfx90a and gfx1100, occupancy equal to clang's own figure,
the hipify examples, the include policy and the sandbox, the CLI."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from contextlib import suppress
from pathlib import Path

import pytest

from rocm_bridge.compile import examples, policy, sandbox, toolchain
from rocm_bridge.compile.engine import compile_code, with_launch_bounds
from rocm_bridge.compile.errors import CompileQueued
from rocm_bridge.compile.occupancy import occupancy
from rocm_bridge.compile.targets import target

ROOT = Path(__file__).resolve().parent.parent
needs_hipcc = pytest.mark.skipif(toolchain.hipcc() is None, reason="hipcc not installed (.ci/run installs it)")


# --- diagnostics -------------------------------------------------------------------------------------------

BROKEN = {  # example -> (line, severity, explanation id) that must be among its diagnostics
    "broken_cuda_names": [(11, "error", "cuda_leftover")],
    "broken_lane_mask": [(5, "warning", "lane_mask_32"), (6, "error", "warp_sync")],
    "broken_warp_size": [(4, "error", "warp_size_const")],
    "broken_new_api": [(9, "error", "hip_newer")],
    "broken_no_header": [(2, "error", "missing_runtime"), (6, "error", "missing_runtime")],
}


@needs_hipcc
@pytest.mark.parametrize("key", sorted(BROKEN))
def test_broken_files_get_diagnostics_on_the_right_line(key):
    code = examples.source(key)
    r = compile_code(code, "gfx90a")
    assert not r.ok
    got = {(d.line, d.severity, d.explain) for d in r.diagnostics}
    for want in BROKEN[key]:
        assert want in got, (want, [(d.line, d.severity, d.message, d.explain) for d in r.diagnostics])
    lines = code.splitlines()
    for d in r.diagnostics:  # every diagnostic points into the submitted file
        assert 1 <= d.line <= len(lines) and d.file == "kernel.hip"


@needs_hipcc
def test_hip_newer_names_the_version_from_the_table():
    r = compile_code(examples.source("broken_new_api"), "gfx90a")
    d = next(d for d in r.diagnostics if d.explain == "hip_newer")
    assert d.params == {"name": "hipStreamBeginCaptureToGraph", "added": "6.2.0", "installed": "5.2"}


@needs_hipcc
def test_gfx10_wave64_is_explained():
    r = compile_code(examples.source("saxpy_bounds"), "gfx1030", 64)
    assert not r.ok and any(d.explain == "gfx10_wave64" for d in r.diagnostics)


@needs_hipcc
def test_not_packaged_names_the_rocm_libraries_this_debian_lacks():
    assert toolchain.not_packaged("hipblas/hipblas.h") and toolchain.not_packaged("hipDNN.h")
    assert toolchain.not_packaged("thrust/device_vector.h") and toolchain.not_packaged("rocfft.h")
    assert not toolchain.not_packaged("hip/hip_runtime.h") and not toolchain.not_packaged("hiprand/hiprand.h")
    for name in toolchain.NOT_PACKAGED:  # the installed headers agree with the list
        assert not Path("/usr/include", name).exists(), name
    for name in ("hip", "hiprand", "hipsparse", "rocprim", "rocrand", "rocsparse"):
        assert Path("/usr/include", name).is_dir() and not toolchain.not_packaged(f"{name}/{name}.h"), name


# --- hipify examples -----------------------------------------------------------------------------------------

@needs_hipcc
def test_hipify_examples_compile_for_gfx90a_except_the_recorded_ones():
    compiled, failed = [], {}
    for key in examples.hipify_examples():
        r = compile_code(examples.source(key), "gfx90a")
        if r.ok:
            compiled.append(key)
            assert r.kernels, key
        else:
            failed[key[len("hipify_"):]] = {d.explain for d in r.diagnostics if d.severity == "error"}
    # the four that cannot compile here fail for the recorded reason (library not in Debian 12, API not in HIP 5.2)
    assert set(failed) == set(examples.HIPIFY_NOT_COMPILING), failed
    for name, why in examples.HIPIFY_NOT_COMPILING.items():
        assert why in failed[name], (name, failed[name])
    assert len(compiled) == 4


# --- resources and occupancy ------------------------------------------------------------------------------------

def _sweep_source() -> str:
    """Kernels over block size x LDS and over register pressure, plus MFMA ones (AGPRs on CDNA)."""
    out = ["#include <hip/hip_runtime.h>"]
    for b in (64, 256, 1024):
        for lds in (0, 6000, 12000, 32768, 65536):
            n = max(lds // 4, 1)
            body = (f"__shared__ float s[{n}]; s[threadIdx.x % {n}] = x[threadIdx.x]; __syncthreads(); "
                    f"x[threadIdx.x] = s[(threadIdx.x + 1) % {n}];") if lds else "x[threadIdx.x] += 1.0f;"
            out.append(f"__global__ void __launch_bounds__({b}) l_{b}_{lds}(float* x) {{ {body} }}")
    for k in (16, 40, 64, 96, 160, 256):
        loads = " ".join(f"float a{i} = x[threadIdx.x + {i} * 1024];" for i in range(k))
        total = " + ".join(f"a{i} * a{(i * 7 + 3) % k}" for i in range(k))
        out.append(f"__global__ void __launch_bounds__(256) v_{k}(float* x) {{ {loads} __syncthreads(); "
                   f"x[threadIdx.x] = {total}; }}")
    out.append("""
typedef float f16v __attribute__((ext_vector_type(16)));
__global__ void __launch_bounds__(256) m_8(float* x) {
#if defined(__gfx908__) || defined(__gfx90a__)
  f16v a[8] = {};
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 8; ++j) a[j] = __builtin_amdgcn_mfma_f32_32x32x2f32(x[i + j], x[i + 1], a[j], 0, 0, 0);
  for (int i = 0; i < 16; ++i) { float s = 0; for (int j = 0; j < 8; ++j) s += a[j][i] * (j + 1); x[threadIdx.x * 16 + i] = s; }
#endif
}""")
    return "\n".join(out) + "\n"


@needs_hipcc
@pytest.mark.parametrize("name,wave", [("gfx90a", 64), ("gfx908", 64), ("gfx1030", 32), ("gfx1100", 32),
                                       ("gfx1100", 64)])
def test_occupancy_equals_the_compilers_own_figure(name, wave):
    r = compile_code(_sweep_source(), name, wave)
    assert r.ok, [d.message for d in r.diagnostics]
    assert len(r.kernels) == 22
    t = target(name)
    for k in r.kernels:
        assert k.compiler_occupancy is not None, k.name
        mine = occupancy(t, vgprs=k.vgprs, agprs=k.agprs, sgprs=k.sgprs, lds_bytes=k.lds_bytes,
                         block_size=k.max_block, wave=k.wave)
        assert mine.waves_per_simd == k.compiler_occupancy, (k.display, k)
        assert k.occupancy["waves_per_simd"] == k.compiler_occupancy
    limits = {tuple(k.occupancy["binding"]) for k in r.kernels}
    assert ("lds",) in limits and ("vgprs",) in limits  # the sweep exercises both limits
    if name in ("gfx90a", "gfx908"):
        assert any(k.agprs >= 64 for k in r.kernels)


@needs_hipcc
def test_resources_gfx90a_and_gfx1100():
    code = examples.source("saxpy_bounds")
    a = compile_code(code, "gfx90a")
    b = compile_code(code, "gfx1100")
    (ka,), (kb,) = a.kernels, b.kernels
    assert (ka.display, ka.wave, ka.lds_bytes, ka.max_block, ka.scratch_bytes) == ("saxpy_lds", 64, 1024, 256, 0)
    assert (kb.display, kb.wave, kb.lds_bytes, kb.max_block) == ("saxpy_lds", 32, 1024, 256)
    assert 0 < ka.vgprs < 32 and 0 < kb.vgprs < 32 and ka.sgprs > 0 and kb.sgprs > 0
    heavy = compile_code(examples.source("register_heavy"), "gfx90a").kernels[0]
    assert heavy.vgprs > 64 and heavy.occupancy["binding"] == ["vgprs"] and heavy.compiler_occupancy < 8


@needs_hipcc
def test_isa_has_the_instruction_classes_and_differs_by_wave():
    mfma = compile_code(examples.source("mfma_tile"), "gfx90a").kernel_asm()[0].counts()
    assert mfma.get("mfma", 0) > 0 and mfma.get("global", 0) > 0 and mfma.get("wait", 0) > 0
    a = compile_code(examples.source("wave_reduce"), "gfx90a").kernel_asm()[0]
    b = compile_code(examples.source("wave_reduce"), "gfx1100").kernel_asm()[0]
    assert a.counts().get("cross_lane", 0) > 0 and a.counts().get("lds", 0) > 0
    assert "s_and_saveexec_b64" in a.text() and "_b32" in b.text() and "exec_lo" in b.text()


@needs_hipcc
def test_launch_bounds_what_if_moves_registers():
    code = examples.source("register_heavy")
    wide = compile_code(with_launch_bounds(code, 1024), "gfx90a").kernels[0]
    narrow = compile_code(with_launch_bounds(code, 64), "gfx90a").kernels[0]
    assert wide.max_block == 1024 and narrow.max_block == 64
    # 1024 threads = 16 waves per CU = 4 per SIMD: at most 512 / 4 = 128 VGPRs, so the compiler spills to scratch
    assert wide.vgprs <= 128 < narrow.vgprs
    assert wide.vgpr_spills > 0 and wide.scratch_bytes > 0 and narrow.vgpr_spills == 0


# --- safety ------------------------------------------------------------------------------------------------

SECRET_FILES = ("/etc/hostname", "/etc/passwd")
ATTACKS = {
    "abs_include": '#include "/etc/passwd"\n',
    "dotdot": '#include "../../../../../../etc/passwd"\n',
    "dev_zero": "#include </dev/zero>\n",
    "has_include": '#if __has_include("/etc/hostname")\nint leak = 1;\n#endif\n',
    "incbin": 'asm(".incbin \\"/etc/hostname\\"");\n',
    "incbin_split": 'asm(".inc" "bin \\"/etc/hostname\\"");\n',
    "embed": '#embed "/etc/hostname"\n',
    "macro_include": '#define F "/etc/passwd"\n#include F\n',
    "digraph": '%:include "/etc/passwd"\n',
    "splice": '#inc\\\nlude "/etc/passwd"\n',
    "pragma": '#pragma GCC dependency "/etc/passwd"\n',
    "proc": '#include "/proc/self/environ"\n',
}


def _secrets() -> list[str]:
    out = [socket.gethostname()]
    for f in SECRET_FILES:
        with suppress(OSError):
            out += [ln for ln in Path(f).read_text().splitlines() if len(ln) > 6]
    return [s for s in out if s]


def _leaks(result) -> list[str]:
    blob = json.dumps(result.to_dict())
    return [s for s in _secrets() if s in blob]


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_policy_refuses_file_reads(name):
    assert policy.check(ATTACKS[name]), name


def test_policy_allows_ordinary_code():
    for key in examples.all_keys():
        assert policy.check(examples.source(key)) == [], key
    assert policy.check('asm volatile("s_nop 0" ::: "memory");\n#include "local.h"\n') == []


@needs_hipcc
@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_attacks_reveal_nothing(name):
    r = compile_code(ATTACKS[name], "gfx90a")
    assert r.refused and not r.ok and not _leaks(r)


@needs_hipcc
@pytest.mark.skipif(not sandbox.sandbox_works(), reason="bubblewrap cannot start here (.ci/run installs it)")
@pytest.mark.parametrize("name", ["abs_include", "incbin", "has_include", "proc", "dev_zero"])
def test_sandbox_alone_reveals_nothing(name):
    """The second wall: with the policy switched off, the sandboxed compiler still cannot see /etc or /proc."""
    code = ATTACKS[name] + "__global__ void k(int* x) { x[0] = 1; }\n"
    r = compile_code(code, "gfx90a", check_policy=False, use_cache=False)
    assert r.sandboxed and not _leaks(r)
    if name == "has_include":  # the file does not exist in the sandbox
        assert r.ok and "leak" not in r.asm
    elif name == "dev_zero":  # the sandbox's /dev/zero reads as an empty file: no hang, no memory blow-up
        assert r.ok and r.seconds < sandbox.WALL_S
    elif name != "incbin":
        assert not r.ok and any("file not found" in d.message for d in r.diagnostics)


@needs_hipcc
@pytest.mark.skipif(not sandbox.sandbox_works(), reason="bubblewrap cannot start here")
def test_sandbox_has_no_network_home_or_server_files():
    r = sandbox.run(["/usr/bin/sh", "-c", "ls / ; cat /etc/hostname; ls /root /home /work; "
                     "cat /proc/self/status; echo x > /usr/x; echo net; cat < /dev/tcp/127.0.0.1/22"],
                    Path(__import__("tempfile").mkdtemp()), env={"PATH": "/usr/bin"})
    listing = r.stderr
    assert "etc" not in listing.split("net")[0].split() and "root" not in listing.split()
    assert not any(s in listing for s in _secrets())
    assert "Read-only file system" in listing


@needs_hipcc
def test_one_compile_at_a_time_the_next_waits_its_turn():
    import threading
    positions: list[int] = []
    out: list[object] = []
    with sandbox.compile_lock("held by the test"):
        th = threading.Thread(target=lambda: out.append(compile_code("__global__ void k() {}\n", "gfx90a",
                                                                     use_cache=False, session="s1",
                                                                     on_wait=positions.append)))
        th.start()
        th.join(1.0)
        assert th.is_alive() and positions == [1] and not out  # waiting, told its place in line
        with pytest.raises(CompileQueued):  # the same session cannot queue a second compile
            compile_code("__global__ void k2() {}\n", "gfx90a", use_cache=False, session="s1")
    th.join(120)
    assert out and out[0].ok and not sandbox.is_busy()


@needs_hipcc
def test_timeout_kills_the_compiler(monkeypatch):
    monkeypatch.setattr(sandbox, "WALL_S", 0.05)
    from rocm_bridge.compile.errors import CompileTimedOut
    with pytest.raises(CompileTimedOut):
        compile_code(examples.source("saxpy_bounds") + "\n// t\n", "gfx90a", use_cache=False)


# --- CLI ---------------------------------------------------------------------------------------------------

@needs_hipcc
def test_cli_json_and_text(tmp_path):
    src = tmp_path / "k.hip"
    src.write_text(examples.source("saxpy_bounds"))
    out = subprocess.run([sys.executable, "-m", "rocm_bridge", "compile", str(src), "--offload-arch", "gfx1100",
                          "--json", "--isa"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["target"] == "gfx1100" and d["wave"] == 32 and d["kernels"][0]["display"] == "saxpy_lds"
    assert "s_endpgm" in d["asm"]
    bad = tmp_path / "b.hip"
    bad.write_text(examples.source("broken_lane_mask"))
    out = subprocess.run([sys.executable, "-m", "rocm_bridge", "compile", str(bad)], capture_output=True, text=True,
                         cwd=ROOT, timeout=120, env={**__import__("os").environ, "ROCM_BRIDGE_LANG": "zh"})
    assert out.returncode == 1 and "b.hip:5:" in out.stdout and "32 位通道掩码" in out.stdout
