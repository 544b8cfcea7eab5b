"""Triton in the compile lab: the four examples compiled for gfx942 and sm_90 in the sandbox child (one child
process per example for both targets), matrix-core instructions per vendor, occupancy per vendor, the user's
Python never run in the server, bad files answered with a message, a timed-out source remembered."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rocm_bridge.compile import sandbox, triton_lab
from rocm_bridge.compile.errors import CompileTimedOut, CompileTimedOutBefore
from rocm_bridge.compile.occupancy import waves_by_lds
from rocm_bridge.compile.targets import target

CI = os.environ.get("CI") == "true"  # CI installs every part: a missing one fails there, never skips

ROOT = Path(__file__).resolve().parent.parent
needs_triton = pytest.mark.skipif(not triton_lab.available() and not CI, reason="triton not installed (requirements.txt pins it)")


@pytest.fixture(scope="module")
def results():
    return {key: triton_lab.compile_triton(triton_lab.example_source(key), "gfx942", "sm_90")
            for key in triton_lab.EXAMPLES}


@needs_triton
def test_every_example_compiles_for_gfx942_and_sm_90(results):
    for key, r in results.items():
        assert not r.error and r.sandboxed, (key, r.error)
        amd, nv = r.target("gfx942"), r.target("sm_90")
        assert amd.ok and nv.ok, (key, amd.error, nv.error)
        assert {"ttir", "ttgir", "llir", "amdgcn"} <= set(amd.stages) and {"ttir", "ttgir", "llir", "ptx"} <= set(
            nv.stages)
        assert "tt.func" in amd.stages["ttir"] and "ttg.num-warps" in amd.stages["ttgir"]
        assert amd.vgprs > 0 and amd.warp_size == 64 and nv.regs > 0 and nv.warp_size == 32
        assert 1 <= amd.occupancy <= 8 and 1 <= nv.occupancy <= 64 and nv.occupancy % nv.num_warps == 0
        # the compiler's figure does not know Triton's dynamic LDS: the lab's is that figure, capped by the LDS
        model = target("gfx942", "clang22")
        assert amd.occupancy == min(amd.compiler_occupancy,
                                    waves_by_lds(model, 64, amd.lds_bytes, amd.num_warps * 64)), key


@needs_triton
def test_matrix_cores_per_vendor(results):
    mm = results["matmul_bf16"]
    assert set(mm.target("gfx942").matrix) == {"v_mfma_f32_32x32x8_bf16"}
    nv = mm.target("sm_90")
    assert nv.matrix.get("wgmma.mma_async.sync", 0) > 0
    if triton_lab.nvdisasm():
        assert any(k.startswith("HGMMA") for k in nv.matrix) and "sass" in nv.stages
    for key in ("vector_add", "softmax", "layer_norm"):  # no tl.dot: no matrix-core instruction
        assert not results[key].target("gfx942").matrix and not results[key].target("sm_90").matrix


@needs_triton
def test_matmul_on_cdna4_and_rdna4():
    r = triton_lab.compile_triton(triton_lab.example_source("matmul_bf16"), "gfx950", None)
    assert set(r.target("gfx950").matrix) == {"v_mfma_f32_32x32x16_bf16"} and len(r.targets) == 1
    r = triton_lab.compile_triton(triton_lab.example_source("matmul_bf16"), "gfx1201", None)
    t = r.target("gfx1201")
    assert t.warp_size == 32 and any(k.startswith("v_wmma_f32_16x16x16_bf16") for k in t.matrix)


_SNOOP = '''
import os, socket, triton, triton.language as tl
SEEN = []
for p in ("/etc/hostname", "/root", "/work", "/home"):
    SEEN.append((p, os.path.exists(p)))
try:
    socket.create_connection(("127.0.0.1", 22), timeout=2)
    SEEN.append(("net", True))
except OSError:
    SEEN.append(("net", False))
open("/tmp/rocm_bridge_triton_marker", "w").write("x")
raise RuntimeError(repr(SEEN))
'''


@needs_triton
def test_user_python_runs_only_in_the_sandbox():
    marker = Path("/tmp/rocm_bridge_triton_marker")
    marker.unlink(missing_ok=True)
    r = triton_lab.compile_triton(_SNOOP, "gfx942", None, use_cache=False)
    assert r.error.startswith("RuntimeError") and not r.targets
    seen = dict(ast.literal_eval(r.error.split(": ", 1)[1]))  # what the file saw, inside the sandbox
    # /root exists there only as the path of the read-only Python interpreter the child runs on
    assert seen["/etc/hostname"] is False and seen["/work"] is False and seen["/home"] is False
    assert seen["net"] is False
    assert not marker.exists()  # its /tmp was private


@needs_triton
@pytest.mark.parametrize("code, expect", [
    ("import triton\nx = 1\nSIGNATURE = {}\n", "no @triton.jit function"),
    ("def broken(:\n", "SyntaxError"),
])
def test_bad_files_get_a_message(code, expect):
    r = triton_lab.compile_triton(code, "gfx942", None, use_cache=False)
    assert expect in r.error and not r.targets


@needs_triton
def test_timed_out_source_is_remembered(monkeypatch):
    code = triton_lab.example_source("vector_add") + "\n# timeout test\n"
    monkeypatch.setattr(sandbox, "WALL_S", 0.2)
    with pytest.raises(CompileTimedOut):
        triton_lab.compile_triton(code, "gfx942", None, use_cache=False)
    monkeypatch.setattr(sandbox, "WALL_S", 60.0)
    with pytest.raises(CompileTimedOutBefore):  # refused at once: it does not take the lab's turn again
        triton_lab.compile_triton(code, "gfx942", None, use_cache=False)


@needs_triton
def test_cli_triton_json(tmp_path):
    src = tmp_path / "mm.py"
    src.write_text(triton_lab.example_source("matmul_bf16"))
    out = subprocess.run([sys.executable, "-m", "rocm_bridge", "compile", str(src), "--offload-arch", "gfx942",
                          "--json"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    t = d["targets"][0]
    assert d["kernel"] == "matmul_kernel" and t["arch"] == "gfx942" and t["vgprs"] > 0 and t["occupancy"] >= 1
    # a 128x128 tile, K step 64, one 32x32x8 MFMA per 32x32x8 block, spread over the 4 waves of a program
    assert t["matrix"] == {"v_mfma_f32_32x32x8_bf16": (128 // 32) * (128 // 32) * (64 // 8) // 4}
    assert "stages" not in t
