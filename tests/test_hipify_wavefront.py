"""Wavefront-correct code (issue 28, item 3): `--wavefront` rewrites the warp-32 idioms the lint can prove.

The rewritten reductions are run on the CPU by simulating one wavefront of 32 and of 64 lanes (the loop header is
read from the translated text), and the translated kernel compiles with ROCm 5.2's hipcc.
"""

from __future__ import annotations

import os
import random
import re
import subprocess

import compilers
import pytest

from rocm_bridge.hipify.lint import lint
from rocm_bridge.hipify.report import warning_lines
from rocm_bridge.hipify.translator import Options, translate
from rocm_bridge.hipify.wavefront import simulate_reduction

KERNEL = """__global__ void k(float* out, int tid) {
  float v = out[threadIdx.x];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32, w2 = threadIdx.x >> 5, l2 = threadIdx.x & 31;
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  for (int i = 16; i > 0; i /= 2) out[i] = 0;
  for (int m = 1; m < 32; m *= 2) { v += __shfl_xor_sync(0xFFFFFFFFu, v, m); }
  for (unsigned s = 16; s >= 1; s >>= 1) v += __shfl_xor_sync(0xffffffff, v, s, 32);
  if (lane == 0) out[warp + w2 + l2] = v + (tid % 32);
}
"""

_HEADER = re.compile(r"for \((?:int|unsigned) (\w+) = ([^;]+); ([^;]+); ([^)]+)\)\s*\{?\s*v \+= __shfl_(down|xor)")


def _loops(text: str) -> list[tuple[str, str, str, str]]:
    """(start, condition, step, kind) of each shuffle loop, with the loop variable renamed o."""
    out = []
    for m in _HEADER.finditer(text):
        var = m.group(1)
        ren = [re.sub(rf"\b{var}\b", "o", m.group(k)) for k in (2, 3, 4)]
        out.append((*ren, m.group(5)))
    return out


def test_provable_idioms_are_rewritten_line_by_line():
    r = translate(KERNEL, Options(wavefront=True))
    out = r.output
    assert "lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize, w2 = threadIdx.x / warpSize" in out
    assert "l2 = threadIdx.x & (warpSize - 1)" in out
    assert "for (int offset = warpSize / 2; offset > 0; offset /= 2)" in out
    assert "__shfl_down_sync(~0ull, v, offset)" in out and "__shfl_xor_sync(~0ull, v, m)" in out
    assert "for (int m = 1; m < warpSize; m *= 2)" in out and "for (unsigned s = warpSize / 2; s >= 1; s >>= 1)" in out
    # not provable: a loop without a shuffle, a variable merely named tid
    assert "for (int i = 16; i > 0; i /= 2) out[i] = 0;" in out and "(tid % 32)" in out
    assert [(w.line, w.rule) for w in r.wave_rewrites] == [
        (3, "lane"), (3, "lane"), (3, "lane"), (3, "lane"), (4, "reduction"), (5, "mask"), (7, "butterfly"),
        (7, "mask"), (8, "reduction"), (8, "mask")]
    lines = warning_lines(r, [], "k.cu", "en")
    assert "k.cu:4:21: wavefront: 16 -> warpSize / 2: " in "\n".join(lines)
    # what was not rewritten stays a lint finding with its exact line
    assert ("warp_size_32", 9) in {(f.rule, f.line) for f in lint(KERNEL)}
    assert translate(KERNEL, Options()).output.count("warpSize") == 0  # only with the option


@pytest.mark.parametrize("lanes", [32, 64])
def test_rewritten_reductions_sum_the_whole_wavefront(lanes):
    rng = random.Random(lanes)
    values = [rng.randrange(-1000, 1000) for _ in range(lanes)]
    loops = _loops(translate(KERNEL, Options(wavefront=True)).output)
    assert [lp[3] for lp in loops] == ["down", "xor", "xor"]
    down, up, xor_down = loops
    assert simulate_reduction(*down[:3], "down", lanes, values)[0] == sum(values)  # lane 0 holds the sum
    assert set(simulate_reduction(*up[:3], "xor", lanes, values)) == {sum(values)}  # every lane does
    assert set(simulate_reduction(*xor_down[:3], "xor", lanes, values)) == {sum(values)}


def test_original_reduction_is_right_on_32_lanes_and_wrong_on_64():
    values = list(range(1, 65))
    down, up, _ = _loops(KERNEL)
    assert simulate_reduction(*down[:3], "down", 32, values[:32])[0] == sum(values[:32])
    on64 = simulate_reduction(*down[:3], "down", 64, values)
    assert on64[0] == sum(values[:32]) != sum(values)  # lanes 32..63 are never added to lane 0
    assert set(simulate_reduction(*up[:3], "xor", 64, values)) != {sum(values)}


def test_width_argument_limits_the_segment():
    values = list(range(64))
    assert simulate_reduction("warpSize / 2", "o > 0", "o /= 2", "down", 64, values, width=64)[0] == sum(values)
    # a source lane outside the segment gives the lane its own value back (CUDA and HIP): v += v
    doubled = simulate_reduction("warpSize / 2", "o > 0", "o /= 2", "down", 64, values, width=32)
    assert doubled[0] == 2 * sum(values[:32])
    seg = simulate_reduction("16", "o > 0", "o /= 2", "down", 64, values, width=32)
    assert seg[0] == sum(values[:32]) and seg[32] == sum(values[32:])


def test_rewritten_kernel_compiles_with_rocm_5_2(tmp_path):
    hipcc = compilers.hipcc()
    src = tmp_path / "k.hip"
    src.write_text(translate(KERNEL, Options(wavefront=True, rocm_version="5.2")).output)
    proc = subprocess.run([hipcc, "--offload-arch=gfx90a", "-fsyntax-only", "-std=c++17", "-x", "hip", str(src)],
                          capture_output=True, text=True, env={**os.environ, "HIP_PLATFORM": "amd"}, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
