"""The models behind the mechanism pictures (chapters 2-7 and 9): each picture's numbers are the app's own
formulas and data, and each step shows what its sentence says."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest

from rocm_bridge import coverage, formulas, wavefront
from rocm_bridge import hardware as hw
from rocm_bridge.compile.occupancy import occupancy as lab_occupancy
from rocm_bridge.compile.targets import target, targets
from rocm_bridge.coverage import picture as cov_pic
from rocm_bridge.formulas import lab as fl
from rocm_bridge.formulas import pictures as fp
from rocm_bridge.hardware import picture as roof
from rocm_bridge.hardware.measured import HostMeasurement
from rocm_bridge.visual import pictures
from rocm_bridge.wavefront import pictures as wp

NS = "{http://www.w3.org/2000/svg}"


def _texts(frame) -> list[str]:
    return [el.text or "" for el in ET.fromstring(frame.svg).iter(NS + "text")]


# --- the wavefront -------------------------------------------------------------------------------------------


def test_a_32_bit_mask_leaves_the_upper_half_of_a_wave64_dark():
    assert wavefront.dark_lanes(0xFFFFFFFF, 64) == tuple(range(32, 64))
    assert wavefront.dark_lanes(0xFFFFFFFF, 32) == ()
    assert wavefront.dark_lanes(2**64 - 1, 64) == ()
    assert wavefront.mask_lanes(0b1010, 64) == (1, 3)


def test_ballot_kept_in_32_bits_loses_the_votes_of_lanes_32_to_63():
    votes = tuple(lane % 3 == 0 for lane in range(64))
    full = wavefront.ballot(votes)
    assert bin(full).count("1") == sum(votes) == 22
    kept = wavefront.truncate(full, 32)
    assert set(wavefront.mask_lanes(kept)) == {lane for lane in range(32) if votes[lane]}


def test_a_reduction_from_offset_16_sums_half_a_wave64():
    assert wavefront.shuffle_down_reach(wavefront.halving_offsets(32), 64) == tuple(range(32))
    assert wavefront.shuffle_down_reach(wavefront.halving_offsets(64), 64) == tuple(range(64))
    assert wavefront.halving_offsets(64) == (32, 16, 8, 4, 2, 1)


@pytest.mark.parametrize("step", range(len(wp.WAVE_STEPS)))
def test_wavefront_step_lights_the_lanes_the_model_gives(step):
    name = wp.WAVE_STEPS[step]
    state = wp.wave_state(name)
    dark = {lane for lane, s in enumerate(state.wave) if s == "dark"}
    expected = {"warp": set(), "wave": set(range(32, 64)),
                "ballot": {lane for lane in range(32, 64) if lane % 3 == 0},
                "reduce": set(range(32, 64)), "fix": set()}[name]
    if name != "warp":  # the first step shows the warp alone
        assert dark == expected
    svg_doc = pictures.frame("wavefront", step, "en").svg
    assert svg_doc.count("<line") >= len(dark) + (len([s for s in state.warp if s == "dark"]))


# --- LDS banks -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("stride", "degree"), [(1, 1), (2, 2), (32, 32), (33, 1), (64, 32), (65, 1), (0, 1)])
def test_bank_conflict_degree_per_stride(stride, degree):
    acc = wavefront.lds_access(stride)
    assert acc.degree == (degree, degree)  # lanes 0-31 and 32-63: one pass each
    assert acc.passes == 2 * degree
    assert max(acc.turn) == degree - 1


def test_stride_2_pairs_lane_i_with_lane_i_plus_16():
    acc = wavefront.lds_access(2)
    for lane in range(16):
        assert acc.bank[lane] == acc.bank[lane + 16] and acc.turn[lane] != acc.turn[lane + 16]


def test_lds_picture_says_the_degree():
    for step, stride in enumerate(wp.LDS_STRIDES):
        degree = wavefront.lds_access(stride).degree[0]
        texts = _texts(pictures.frame("lds_banks", step, "en"))
        assert any((f"{degree}-way" in t) if degree > 1 else ("No conflict" in t) for t in texts)


# --- occupancy -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(targets()))
@pytest.mark.parametrize(("vgprs", "lds", "block"), [(32, 0, 256), (96, 0, 256), (136, 0, 256), (256, 0, 64),
                                                      (64, 16384, 256), (8, 32768, 64)])
def test_slots_are_the_compile_labs_figure(name, vgprs, lds, block):
    t = target(name)
    if vgprs > t.vgprs[t.default_wave] or lds > t.lds_per_workgroup_bytes:
        pytest.skip(f"{name} cannot hold {vgprs} VGPRs / {lds} B of LDS per workgroup")
    sl = wp.slots(name, vgprs, lds, block)
    spread = lab_occupancy(t, vgprs=vgprs, lds_bytes=lds, block_size=block, wave=t.default_wave, spread_lds=bool(lds))
    clang = lab_occupancy(t, vgprs=vgprs, lds_bytes=lds, block_size=block, wave=t.default_wave)
    assert (sl.waves, sl.slots, sl.llvm15_waves) == (spread.waves_per_simd, t.max_waves_per_simd, clang.waves_per_simd)
    if lds == 0:  # without LDS the picture and the compile lab's remark agree
        assert sl.waves == clang.waves_per_simd


@pytest.mark.parametrize(("vgprs", "lds"), wp.OCC_TOUR)
def test_occupancy_tour_equals_the_chapter_formula_on_gfx90a(vgprs, lds):
    sl = wp.slots(wp.OCC_TARGET, vgprs, lds, wp.OCC_BLOCK)
    assert sl.waves == formulas.occupancy(vgprs=vgprs, lds_bytes_per_block=lds, block_threads=wp.OCC_BLOCK).waves_per_simd


def test_occupancy_picture_fills_as_many_slots_as_waves():
    for step, (vgprs, lds) in enumerate(wp.OCC_TOUR):
        sl = wp.slots(wp.OCC_TARGET, vgprs, lds)
        doc = pictures.frame("occupancy", step, "en").svg
        filled = sum(1 for el in ET.fromstring(doc).iter(NS + "rect")
                     if el.find(NS + "title") is not None and "wave slot" in el.find(NS + "title").text
                     and el.attrib.get("stroke") is None)
        assert filled == sl.waves * sl.simds


# --- Compatible ----------------------------------------------------------------------------------------------


def test_compatible_is_zero_unless_every_gate_is_open():
    opened = 0
    for step in range(len(fp.COMPAT_PICKS)):
        check = fp.compat_state(step)
        oks = [i.ok for i in check.result.indicators]
        assert check.result.value == int(all(oks))
        texts = _texts(pictures.frame("compatible", step, "en"))
        assert f"= {int(all(oks))}" in " ".join(texts)
        opened += all(oks)
    assert opened == 1  # one pick opens every gate, each other pick closes exactly one
    assert [len(fp.compat_state(s).result.failing) for s in range(1, 4)] == [1, 1, 1]


def test_compatible_grid_agrees_with_the_product():
    grid = fl.compat_grid(fp.COMPAT_PICKS[0][0])
    for rocm, row in zip(grid.rocm, grid.values, strict=True):
        for tf, value in zip(grid.tensorflow, row, strict=True):
            if value is not None:
                assert value == math.prod(i.value for i in fl.compat_check(fp.COMPAT_PICKS[0][0], rocm, tf).result.indicators)


# --- per-op time, throughput, speedup ------------------------------------------------------------------------


def test_per_op_timeline_is_the_labs_op_list():
    rec = fl.recorded_ops()
    tl = fp.op_timeline(fp.OP_STEPS.index("fused"))
    (_, plain), (_, fused) = tl.rows
    assert plain.total_s == fl.op_list_times(rec.op_lists["mlp_64"].ops, rec.dispatch_us, rec.sync_us).total_s
    assert fused.launches < plain.launches
    saved = (plain.launches - fused.launches) * (rec.dispatch_us + rec.sync_us) * 1e-6
    assert fused.saved_s == pytest.approx(saved)


@pytest.mark.parametrize(("prefetch", "parallel"), fp.TP_STEPS)
def test_throughput_read_off_the_timeline_is_the_formula(prefetch, parallel):
    pl = fp.pipeline(prefetch, parallel)
    transfer = pl.t_cpu_s + pl.t_copy_s
    if prefetch:  # the CPU prepares the next batch while the GPU computes this one
        assert pl.step_s == pytest.approx(max(pl.t_cpu_s, pl.t_copy_s + pl.t_compute_s))
    else:
        assert pl.step_s == pytest.approx(pl.t_compute_s + transfer)
        assert pl.throughput == pytest.approx(formulas.throughput(pl.batch, pl.t_compute_s, transfer))
    assert pl.workers == (fp.PARALLEL_CALLS if parallel else 1)


def test_throughput_grows_with_each_step():
    rates = [fp.pipeline(*flags).throughput for flags in fp.TP_STEPS]
    assert rates[0] < rates[1] and rates[0] < rates[2] < rates[3]


def test_speedup_bars_end_at_amdahls_ceiling():
    rows = fp.speedup_rows(len(fp.SPEEDUP_STEPS) - 1)
    d = fp.DEFAULTS["speedup"]
    view = fl.amdahl_view(d["before"], d["after"], d["part"] / 100)
    before = rows[0][1] + rows[0][2]
    assert before == pytest.approx(d["before"]) and rows[1][1] + rows[1][2] == pytest.approx(d["after"])
    assert before / (rows[2][1] + rows[2][2]) == pytest.approx(formulas.amdahl_speedup(view.fraction_optimised, 10))
    assert before / (rows[3][1] + rows[3][2]) == pytest.approx(view.ceiling)


# --- coverage ------------------------------------------------------------------------------------------------


def test_coverage_dots_are_the_registry_verdicts():
    rocm = cov_pic.view(cov_pic.STEPS.index("rocm"))
    gap = [n for n, s in zip(rocm.nodes, rocm.status, strict=True) if s == "dtype_gap"]
    assert {n.op for n in gap} == {r.op for r in rocm.report.rows if r.status == "dtype_gap"}
    assert all("bfloat16" in n.dtypes for n in gap)
    assert len(rocm.nodes) == rocm.report.n_nodes
    cuda = cov_pic.view(cov_pic.STEPS.index("cuda"))
    assert cuda.report.r_ops == 1.0 and set(cuda.status) <= {"gpu", "default"}
    pipe = cov_pic.view(cov_pic.STEPS.index("pipeline"))
    assert {n.op for n, s in zip(pipe.nodes, pipe.status, strict=True) if s == "no_gpu_kernel"} == set(cov_pic.PIPELINE_OPS)
    assert pipe.report.r_ops < rocm.report.r_ops < cuda.report.r_ops
    assert cov_pic.view(0).report is None and set(cov_pic.view(0).status) == {""}
    assert len(cov_pic.view(0).nodes) == len(coverage.example_nodes(cov_pic.MODEL))


# --- roofline ------------------------------------------------------------------------------------------------


def test_roofline_ridges_are_the_datasheets():
    texts = " ".join(_texts(pictures.frame("roofline", 1, "en")))
    for gid in hw.DEFAULT_GPUS:
        g = hw.gpu(gid)
        ridge = hw.ridge_point(g.value(roof.PRECISION), g.value("memory_bandwidth_tbs"))
        assert f"{g.model}: ridge {ridge:.0f} FLOP/B" in texts


def test_roofline_puts_the_visitors_own_point():
    m = HostMeasurement("Radeon Test GPU", "AMD", "torch", "2.5", "2026-12-01T00:00:00", matmul_tflops={"fp16": 100.0},
                        d2d_gbs=1000.0)
    frame = roof.roofline_frame(roof.STEPS.index("you"), "en", "dark", measurement=m)
    texts = " ".join(_texts(frame))
    assert "your Radeon Test GPU: 100 TFLOP/s, ridge 100 FLOP/B" in texts
    assert "recorded" in " ".join(_texts(pictures.frame("roofline", roof.STEPS.index("you"), "en")))


# --- the command line ----------------------------------------------------------------------------------------


def test_wavefront_command_prints_the_dark_lanes_and_conflicts(capsys):
    import json

    from rocm_bridge import cli

    assert cli.main(["wavefront", "--mask", "0xffffffff", "--stride", "2", "--stride", "33", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["dark"] == list(range(32, 64)) and out["lds_conflict_degree"] == {"2": 2, "33": 1}
    assert cli.main(["wavefront", "--mask", "not-hex"]) == cli.EXIT_ERROR
    assert "--mask" in capsys.readouterr().err


# --- the back row: no two labels of a mechanism picture overlap ---------------------------------------------

MECHANISMS = ("compatible", "per_op_time", "throughput", "coverage", "speedup", "roofline", "wavefront", "occupancy",
              "lds_banks")


@pytest.mark.parametrize("pid", MECHANISMS)
def test_no_two_labels_overlap(pid):
    from rocm_bridge.visual import svg

    for step in range(pictures.PICTURES[pid].steps):
        for lang in ("en", "zh"):
            boxes = []
            for el in ET.fromstring(pictures.frame(pid, step, lang, "light").svg).iter(NS + "text"):
                size, x, y = (float(el.attrib[k]) for k in ("font-size", "x", "y"))
                w = svg.text_width(el.text or "", size)
                left = {"start": x, "middle": x - w / 2, "end": x - w}[el.attrib.get("text-anchor", "start")]
                boxes.append((left, y - 0.8 * size, left + w, y + 0.2 * size, el.text))
            for i, a in enumerate(boxes):
                for b in boxes[i + 1:]:
                    apart = a[2] <= b[0] + 1 or b[2] <= a[0] + 1 or a[3] <= b[1] + 1 or b[3] <= a[1] + 1
                    assert apart, (pid, step, lang, a[4], b[4])
