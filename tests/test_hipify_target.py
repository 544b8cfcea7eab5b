"""Target-aware translation (issue 28, item 1): `--rocm-version X` writes what release X has.

The rules are data/hipify_target_rules.csv (rocm_bridge/hipify/target.py); the helpers they write come from
rocm_bridge/hipify/hipify_compat.h. The translated programs compile with Debian's ROCm 5.2 hipcc.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import compilers
import pytest

from rocm_bridge.hipify import target as tg
from rocm_bridge.hipify import target_rewrites as tw
from rocm_bridge.hipify.minrocm import minimum_rocm
from rocm_bridge.hipify.report import warning_lines
from rocm_bridge.hipify.translator import Options, translate
from rocm_bridge.i18n import LANGS, catalog

SAMPLE = """#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cstdio>
#define FULL_MASK 0xffffffff
__global__ void k(float* out, const __nv_bfloat16* b) {
  float v = out[threadIdx.x] + __bfloat162float(b[threadIdx.x]);
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
  v += __shfl_xor_sync(FULL_MASK, v, 1);
  unsigned long long m = __ballot_sync(0x0000ffffu, v > 0);
  float w = __shfl_sync(m, v, 0, 16);
  unsigned long long a = __activemask();
  __syncwarp();
  __syncwarp(m);
  if (__any_sync(~0u, v > 1) && __all_sync(0xFFFFFFFF, v < 9)) out[threadIdx.x] = v + w + a;
}
int main() {
  float* h;
  if (cudaHostAlloc(&h, 64, cudaHostAllocDefault) != cudaSuccess) printf("cudaHostAlloc failed\\n");
  return 0;
}
"""


def _hipcc() -> str:
    return compilers.hipcc()


def _compile(path) -> subprocess.CompletedProcess:
    return subprocess.run([_hipcc(), "--offload-arch=gfx90a", "-fsyntax-only", "-std=c++17", "-x", "hip", str(path)],
                          capture_output=True, text=True, env={**os.environ, "HIP_PLATFORM": "amd"}, timeout=300)


def test_rules_table_is_complete_and_sourced():
    rules = tg.rules()
    assert set(tw.TARGET_NAMES) == {n for n, r in rules.items() if r.kind != "header" and r.until}
    assert set(tw.HELPER_CALLS) == {n for n, r in rules.items() if not r.until}
    cat = catalog()
    for name, rule in rules.items():
        assert rule.kind in ("drop_mask", "call_text", "helper", "rename", "header", "manual"), name
        assert (not rule.until or tg.version_key(rule.until) > (5,)) and rule.source.strip(), name
        for lang in LANGS:
            assert cat[rule.note][lang], (name, lang)
        if rule.kind == "helper":
            assert rule.replacement in tg.helper_sections(), name
        if rule.kind == "manual":
            assert not rule.replacement, name


def test_newest_target_keeps_the_current_api():
    out = translate(SAMPLE, Options()).output
    assert "__shfl_down_sync(0xffffffff, v, o)" in out and "__syncwarp();" in out
    assert "hipHostAlloc(" in out and "__hip_bfloat16" in out and "<hip/hip_bf16.h>" in out
    assert "hipify_" not in out
    assert translate(SAMPLE, Options(rocm_version="7.0")).output == out  # 7.0 has every API the sample uses


def test_rocm_5_2_gets_what_5_2_has():
    r = translate(SAMPLE, Options(rocm_version="5.2"))
    out = r.output
    assert "v += __shfl_down(v, o) /* hipify: __shfl_down_sync before ROCm 6.2; the mask named all lanes */;" in out
    assert "v += __shfl_xor(v, 1)" in out  # FULL_MASK is defined as 0xffffffff
    assert "m = (hipify_check_lanes(0x0000ffffu), __ballot(v > 0))" in out
    assert "w = (hipify_check_lanes(m), __shfl(v, 0, 16))" in out
    assert "a = __ballot(1) /* hipify: __activemask() before ROCm 6.2 */;" in out
    assert "hipify_syncwarp() /*" in out and "hipify_syncwarp(m) /*" in out
    assert "if (__any(v > 1) /*" in out and "__all(v < 9) /*" in out
    assert "hipHostMalloc(reinterpret_cast<void**>(&h), 64, hipHostMallocDefault) /* hipify: cudaHostAlloc" in out
    assert "const hip_bfloat16* b" in out and "#include <hip/hip_bfloat16.h>" in out
    assert '"cudaHostAlloc failed\\n"' in out  # user-visible strings are left alone
    # the helpers once each, after the last top-level include
    assert out.count("#define HIPIFY_SYNCWARP") == 1 and out.count("#define HIPIFY_CHECK_LANES") == 1
    assert "SIMD" not in out  # only the sections the file uses
    assert out.index("#include <cstdio>") < out.index("HIPIFY_CHECK_LANES") < out.index("__global__")
    # every use is listed, with the release that makes it unnecessary
    used = [(w.cuda_name, w.written, w.until) for w in r.target_rewrites]
    assert ("__shfl_down_sync", "__shfl_down", "6.2") in used and ("cudaHostAlloc", "hipHostMalloc", "6.3") in used
    assert ("cuda_bf16.h", "hip/hip_bfloat16.h", "5.6") in used and used.count(("__syncwarp", "hipify_syncwarp", "7.0")) == 2
    lines = warning_lines(r, [], "k.cu", "en")
    assert any(line.startswith("k.cu:12:3: target ROCm 5.2: __syncwarp written as hipify_syncwarp") for line in lines)
    # nothing newer than 5.2 is left in the output
    mr = minimum_rocm(r, "5.2")
    assert mr.too_new == () and mr.version == "3.5"


def test_no_faithful_equivalent_is_left_with_the_reason():
    r = translate("__global__ void k(unsigned* o, __nv_bfloat162* p) { o[0] = __match_any_sync(~0u, o[1]); }\n",
                  Options(rocm_version="5.2"))
    assert "__match_any_sync(~0u, o[1])" in r.output and "__nv_bfloat162" in r.output
    left = {w.cuda_name: w.note for w in r.target_rewrites if not w.written}
    assert left == {"__nv_bfloat162": "hipify.target.bfloat162", "__match_any_sync": "hipify.target.match_sync"}
    assert {i.name for i in r.references.infos if i.status != "converted"} == {"__nv_bfloat162", "__match_any_sync"}


def test_full_mask_spellings():
    for mask in ("0xffffffff", "0xFFFFFFFFu", "~0", "~0u", "-1", "(0xffffffffU)", "0xffffffffffffffffull",
                 "__activemask()", "FULL"):
        assert tg.full_mask(mask, {"FULL"}), mask
    for mask in ("0xffff", "m", "0x7fffffff", "1u << lane"):
        assert not tg.full_mask(mask, {"FULL"}), mask


def test_translated_sample_compiles_with_rocm_5_2(tmp_path):
    hip = tmp_path / "sample.hip"
    hip.write_text(translate(SAMPLE, Options(rocm_version="5.2")).output)
    proc = _compile(hip)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "deprecated" not in proc.stderr  # not the deprecated hipHostAlloc
    newest = tmp_path / "newest.hip"
    newest.write_text(translate(SAMPLE, Options()).output)
    failed = _compile(newest)  # the default (newest) target's output uses what 5.2 lacks
    assert failed.returncode != 0 and "hip_bf16.h" in failed.stderr


def test_helper_header_compiles_with_rocm_5_2(tmp_path):
    src = tmp_path / "compat.hip"
    src.write_text('#include <hip/hip_runtime.h>\n#include "' + tg.COMPAT_H + '"\n'
                   "__global__ void k(int* o) { hipify_syncwarp(); hipify_syncwarp(0xffffffffu);\n"
                   "  hipify_check_lanes(1); o[0] = 1; }\n")
    proc = _compile(src)
    assert proc.returncode == 0, proc.stderr[-3000:]


# --- SIMD-in-a-word helpers (issue 28, item 4) --------------------------------------------------------------------

def _lanes(word: int, bits: int, signed: bool) -> list[int]:
    out = []
    for i in range(0, 32, bits):
        v = (word >> i) & ((1 << bits) - 1)
        if signed and v >= 1 << (bits - 1):
            v -= 1 << bits
        out.append(v)
    return out


def _pack(values: list[int], bits: int) -> int:
    return sum((v & ((1 << bits) - 1)) << (i * bits) for i, v in enumerate(values))


def _lanewise(bits: int, signed: bool, op):
    return lambda a, b: _pack([op(x, y) for x, y in zip(_lanes(a, bits, signed), _lanes(b, bits, signed),
                                                        strict=True)], bits)


# The results CUDA's Math API documents for each intrinsic (SIMD Intrinsics), written from the descriptions
REFERENCE = {
    "vadd2": _lanewise(16, False, lambda x, y: x + y), "vsub2": _lanewise(16, False, lambda x, y: x - y),
    "vmaxs2": _lanewise(16, True, max), "vmins2": _lanewise(16, True, min),
    "vmaxu2": _lanewise(16, False, max), "vminu2": _lanewise(16, False, min),
    "vabsdiffu2": _lanewise(16, False, lambda x, y: abs(x - y)),
    "vadd4": _lanewise(8, False, lambda x, y: x + y), "vsub4": _lanewise(8, False, lambda x, y: x - y),
    "vmaxs4": _lanewise(8, True, max), "vmins4": _lanewise(8, True, min),
    "vmaxu4": _lanewise(8, False, max), "vminu4": _lanewise(8, False, min),
    "vabsdiffu4": _lanewise(8, False, lambda x, y: abs(x - y)),
    "vabsdiffs4": _lanewise(8, True, lambda x, y: abs(x - y)),
    "vavgu4": _lanewise(8, False, lambda x, y: (x + y + 1) // 2),
    "vcmpeq4": _lanewise(8, False, lambda x, y: 0xFF if x == y else 0),
    "vcmpgtu4": _lanewise(8, False, lambda x, y: 0xFF if x > y else 0),
    "vcmpges4": _lanewise(8, True, lambda x, y: 0xFF if x >= y else 0),
    "vsadu4": lambda a, b: sum(abs(x - y) for x, y in zip(_lanes(a, 8, False), _lanes(b, 8, False), strict=True)),
}


def test_every_simd_helper_has_a_rule_a_section_and_a_reference():
    simd = {n.removeprefix("__") for n, r in tg.rules().items() if r.note == "hipify.target.simd"}
    assert simd == set(REFERENCE) == {n.removeprefix("__") for n in tw.HELPER_CALLS}
    assert {f"hipify_{n}" for n in simd} <= set(tg.helper_sections())


def test_simd_helpers_give_the_documented_results(tmp_path):
    """The helpers of hipify_compat.h, compiled host-side with g++ (__host__ __device__ defined away), against the
    reference on edge and random words."""
    gxx = shutil.which("g++")
    if gxx is None:
        pytest.skip("g++ is not installed here")
    import random

    rng = random.Random(28)
    words = [0, 1, 0x7F7F7F7F, 0x80808080, 0xFFFFFFFF, 0x7FFF8000, 0x01FF80FE, 0xFF00FF00]
    words += [rng.getrandbits(32) for _ in range(40)]
    pairs = [(a, b) for a in words[:8] for b in words[:8]] + [(rng.choice(words), rng.choice(words)) for _ in range(200)]
    sections = tg.helper_sections()
    calls = "".join(f'  for (auto& p : pairs) printf("{n} %u\\n", hipify_{n}(p[0], p[1]));\n' for n in REFERENCE)
    src = ("#include <cstdio>\n#define __host__\n#define __device__\n"
           + "".join(sections[f"hipify_{n}"] for n in REFERENCE)
           + "static const unsigned pairs[][2] = {" + ",".join(f"{{{a}u,{b}u}}" for a, b in pairs) + "};\n"
           + "int main() {\n" + calls + "  return 0;\n}\n")
    (tmp_path / "simd.cpp").write_text(src)
    exe = tmp_path / "simd"
    subprocess.run([gxx, "-std=c++17", "-O1", "-o", str(exe), str(tmp_path / "simd.cpp")], check=True, timeout=120)
    got = subprocess.run([str(exe)], capture_output=True, text=True, check=True, timeout=60).stdout.split("\n")
    want = [f"{n} {REFERENCE[n](a, b)}" for n in REFERENCE for a, b in pairs]
    assert got[:-1] == want


def test_simd_calls_get_their_helpers_and_compile_with_rocm_5_2(tmp_path):
    src = "__global__ void k(unsigned* o) {\n" + "".join(
        f"  o[{i}] = __{n}(o[1], o[2]);\n" for i, n in enumerate(REFERENCE)) + "}\n"
    r = translate(src, Options())
    assert "__v" not in r.output.split("__global__")[1]
    assert len(r.helpers) == len(REFERENCE) and r.output.count("#define HIPIFY_VMAXS4") == 1
    assert all(i.status == "converted" for i in r.references.infos)
    hip = tmp_path / "simd.hip"
    hip.write_text(r.output)
    proc = _compile(hip)
    assert proc.returncode == 0, proc.stderr[-3000:]


# --- __half / __half2 shuffles before ROCm 5.6 (issue 28, item 5) -------------------------------------------------

HALF_SHUFFLES = """#include <cuda_fp16.h>
__global__ void k(__half* h, half2* h2, unsigned m) {
  half2 v = h2[threadIdx.x];
  for (int o = 16; o > 0; o /= 2) v = __hadd2(v, __shfl_down_sync(0xffffffff, v, o));
  h2[0] = __shfl_xor_sync(m, v, 1);
  h[0] = __shfl_sync(0xffffffff, h[1], 0);
  h[1] = __shfl_up_sync(0xffffffff, h[2], 1, 16);
}
"""


def test_half_shuffles_before_5_6_get_the_overloads_5_6_has(tmp_path):
    """CUDA overloads the shuffles for __half / __half2; ROCm 5.2's plain __shfl* do not take them (hipcc: the
    __half2 assignment has no matching function, the __half one is ambiguous). For a target before 5.6 the file gets
    5.6's overloads (hipify_compat.h); the output compiles with hipcc 5.2, and without the section it does not."""
    r = translate(HALF_SHUFFLES, Options(rocm_version="5.2"))
    assert set(r.helpers) == {"hipify_shfl_half", "hipify_check_lanes"}
    assert r.output.count("#define HIPIFY_SHFL_HALF\n") == 1
    assert "h2[0] = (hipify_check_lanes(m), __shfl_xor(v, 1))" in r.output
    hip = tmp_path / "half.hip"
    hip.write_text(r.output)
    proc = _compile(hip)
    assert proc.returncode == 0, proc.stderr[-3000:]
    section = tg.helper_sections()["hipify_shfl_half"]
    without = tmp_path / "without.hip"
    without.write_text(r.output.replace(section.rstrip("\n"), ""))
    failed = _compile(without)
    assert failed.returncode != 0
    assert "no matching function for call to '__shfl_xor'" in failed.stderr
    assert "call to '__shfl' is ambiguous" in failed.stderr
    # 5.6 has the overloads, newer targets keep the _sync calls, and a file without a half type needs nothing
    assert "hipify_shfl_half" not in translate(HALF_SHUFFLES, Options(rocm_version="5.6")).helpers
    assert "__shfl_down(v, o)" in translate(HALF_SHUFFLES, Options(rocm_version="5.6")).output
    assert not translate(HALF_SHUFFLES, Options()).helpers
    plain = "__global__ void k(float* p) { p[0] = __shfl_xor_sync(0xffffffff, p[1], 1); } // __half in a comment\n"
    assert translate(plain, Options(rocm_version="5.2")).helpers == []


def test_half_shuffle_section_stands_down_where_the_headers_have_them():
    section = tg.helper_sections()["hipify_shfl_half"]
    assert "HIP_VERSION_MAJOR == 5 && HIP_VERSION_MINOR < 6" in section and tg.HALF_SHUFFLES_UNTIL == "5.6"
    assert section.count("__device__ inline") == 8  # __shfl, _up, _down, _xor for __half and __half2


@pytest.mark.parametrize("version", ["¹", "5.²", "٥.٢", "6.1x", ""])
def test_a_release_in_other_digits_is_no_release(version):
    """Unicode digits pass str.isdigit() but not always int(): a target written so is no target, never a crash
    (found by the fuzz test: Options(rocm_version='¹'))."""
    from rocm_bridge.hipify.minrocm import valid_version

    assert not valid_version(version)
    key = tg.version_key(version)
    assert all(isinstance(p, int) for p in key)
    out = translate("__global__ void k(float* x) { x[0] = __shfl_down_sync(0xffffffff, x[0], 1); }\n",
                    Options(rocm_version=version, wavefront=True)).output
    assert "__shfl_down" in out
