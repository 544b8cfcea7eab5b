"""The hardware page in AppTest: chart values equal the CSV, sources, per-GCD, 'not published', your machine."""

from __future__ import annotations

import csv
import re

import numpy as np
import plotly.graph_objects as go
import pytest

from rocm_bridge import hardware as hw
from rocm_bridge import i18n
from rocm_bridge.data import data_path
from rocm_bridge.hardware.measured import SESSION_KEY, HostMeasurement
from tests.app import plotly_spec as ps

PAGE = "views/hardware.py"
COLUMNS = [col for col, _ in hw.PRECISIONS.values()]


def _spec_rows() -> dict[str, dict[str, str]]:
    with data_path("gpu_specs.csv").open(encoding="utf-8") as fh:
        return {r["model"]: r for r in csv.DictReader(fh)}


def _csv_value(cell: str) -> float | None:
    return float(cell) if cell.strip() else None


def _peaks(at, lang="en"):
    return ps.by_title(at, i18n.t("hardware.peaks_title", lang))


def test_decoder_reads_plotly_binary_arrays():
    spec = go.Figure(go.Bar(x=np.array([1.5, 2.25, 1e3]), y=np.array([1, 2, 3], dtype="int32"))).to_plotly_json()
    assert ps.decode(spec["data"][0]["x"]) == [1.5, 2.25, 1000.0]
    assert ps.decode(spec["data"][0]["y"]) == [1, 2, 3]


def test_default_view_is_mi250_vs_a100_and_bars_equal_the_csv(app_test):
    at = app_test(PAGE)
    assert not at.exception
    rows = _spec_rows()
    fig = _peaks(at)
    names = [t["name"] for t in fig["data"]]
    assert names == ["Instinct MI250", "A100 80GB SXM4"]
    for name in names:
        got = ps.decode(ps.trace(fig, name)["y"])
        assert got == [_csv_value(rows[name][c]) for c in COLUMNS], name
    # memory and bandwidth charts
    mem = ps.by_title(at, i18n.t("hardware.mem_title", "en"))["data"][0]
    bw = ps.by_title(at, i18n.t("hardware.bw_title", "en"))["data"][0]
    assert ps.decode(mem["y"]) == [float(rows[n]["memory_gb"]) for n in names]
    assert ps.decode(bw["y"]) == [float(rows[n]["memory_bandwidth_tbs"]) for n in names]
    assert at.query_params["hw_gpus"] in ("instinct-mi250,a100-80gb-sxm4", ["instinct-mi250,a100-80gb-sxm4"])
    assert any("A100 80GB SXM4" in c.value and "SXM" in c.value for c in at.caption)  # which A100, said


def test_every_chart_has_a_title_and_a_source_line(app_test):
    at = app_test(PAGE, lang="zh")
    assert not at.exception
    figs = ps.figures(at)
    assert len(figs) == 5
    for fig in figs:
        assert ps.titles(fig)
        assert fig["layout"]["xaxis"]["title"]["text"] and fig["layout"]["yaxis"]["title"]["text"]
    source = i18n.t("common.source", "zh")
    source_lines = [c.value for c in at.caption if c.value.startswith(source)]
    assert len(source_lines) >= len(figs)
    # the peak chart's footnote names the sources of every GPU shown, and each bar carries one on hover
    assert any("mi250.md" in s and "glennklockwood" in s for s in source_lines)
    for trace in _peaks(at, "zh")["data"]:
        assert all(cd[2] for cd in trace["customdata"])


def test_added_gpu_with_missing_figures_shows_not_published(app_test):
    at = app_test(PAGE, hw_gpus="instinct-mi250,a100-80gb-sxm4,instinct-mi325x")
    assert not at.exception
    fig = _peaks(at)
    mi325x = ps.decode(ps.trace(fig, "Instinct MI325X")["y"])
    row = _spec_rows()["Instinct MI325X"]
    assert mi325x == [_csv_value(row[c]) for c in COLUMNS]
    assert mi325x[0] is None and mi325x[4] == 1307.4  # FP64 empty, FP16 published; never 0
    assert 0 not in mi325x
    marks = [a for a in fig["layout"].get("annotations", []) if a["text"] == "not published"]
    assert len(marks) == sum(v is None for v in mi325x) == 6  # written in the chart where a bar is missing
    na = i18n.t("hardware.not_published", "en")
    assert any(na in c.value.lower() and "Instinct MI325X FP64 (vector)" in c.value for c in at.caption)
    ratio_table = at.dataframe[0].value
    fp64 = ratio_table[ratio_table.iloc[:, 0] == "FP64 (vector)"].iloc[0]
    assert fp64["Instinct MI325X"] == na
    assert fp64["Instinct MI250"] == f"{45.3 / 9.7:.2f}x"
    roof = ps.by_title(at, "Roofline")
    names = [t["name"] for t in roof["data"]]
    assert any(n.startswith("Instinct MI325X · ") for n in names)  # FP16 and bandwidth are published: it has a roof
    at.selectbox(key="hw_prec").set_value("fp64").run()
    roof = ps.by_title(at, "Roofline")
    assert not any(t["name"].startswith("Instinct MI325X") for t in roof["data"])
    assert any("Instinct MI325X" in c.value for c in at.caption if "roofline" in c.value.lower())


def test_per_gcd_toggle_halves_mi250_only(app_test):
    at = app_test(PAGE)
    at.toggle(key="hw_gcd").set_value(True).run()
    assert not at.exception
    fig = _peaks(at)
    rows = _spec_rows()
    mi250 = ps.decode(ps.trace(fig, "Instinct MI250")["y"])
    a100 = ps.decode(ps.trace(fig, "A100 80GB SXM4")["y"])
    assert mi250 == pytest.approx([float(rows["Instinct MI250"][c]) / 2 for c in COLUMNS])
    assert a100 == [float(rows["A100 80GB SXM4"][c]) for c in COLUMNS]
    assert all(t.endswith("*") for t in ps.trace(fig, "Instinct MI250")["text"])  # per-GCD values are derived
    mem = ps.by_title(at, i18n.t("hardware.mem_title", "en"))["data"][0]
    assert ps.decode(mem["y"])[0] == 64
    assert at.query_params["hw_gcd"] in ("1", ["1"])


def test_roofline_ridge_points_match_peak_over_bandwidth(app_test):
    at = app_test(PAGE, hw_prec="fp64")
    roof = ps.by_title(at, "Roofline")
    ridges = {t["name"]: t for t in roof["data"] if t["name"].endswith(" ridge")}
    mi = ridges["Instinct MI250 ridge"]
    assert ps.decode(mi["x"])[0] == pytest.approx(45.3 / 3.2)
    assert ps.decode(mi["y"])[0] == 45.3
    a100 = ridges["A100 80GB SXM4 ridge"]
    assert ps.decode(a100["x"])[0] == pytest.approx(9.7 / 2.039)
    line = ps.trace(roof, f"A100 80GB SXM4 · {i18n.t('hardware.ridge', 'en', value=9.7 / 2.039)}")
    xs, ys = ps.decode(line["x"]), ps.decode(line["y"])
    for x, y in zip(xs, ys, strict=True):
        assert y == pytest.approx(min(9.7, 2.039 * x))
    assert roof["layout"]["xaxis"]["type"] == "log" and roof["layout"]["yaxis"]["type"] == "log"


def test_measured_results_are_apart_with_who_and_date(app_test):
    at = app_test(PAGE)
    fig = ps.by_title(at, i18n.t("hardware.measured_chart", "en"))
    bars = fig["data"][0]
    with data_path("benchmarks_mi250_vs_a100.csv").open(encoding="utf-8") as fh:
        ratios = [float(r["ratio_mi250_over_a100"]) for r in csv.DictReader(fh) if r["ratio_mi250_over_a100"]]
    assert ps.decode(bars["x"]) == ratios
    assert all(cd[0] and cd[1] for cd in bars["customdata"])  # who measured, date
    table = at.table[-1].value  # compact: short cells; the prose is in the details below
    assert {"Measured by", "Date", i18n.t("hardware.col.ratio", "en")} <= set(table.columns)
    assert "independent\\: Argonne National Laboratory" in set(table["Measured by"])  # Markdown-escaped
    assert all(len(str(v).replace("\\", "")) <= 45 for col in table.columns for v in table[col])
    # every row's own words, folded, in both languages (labelled as the sources' English on a Chinese page)
    assert any("Argonne National Laboratory" in m.value for m in at.markdown)
    assert any("databricks.com" in m.value for m in at.markdown)  # each row's source link
    zh = app_test(PAGE, lang="zh")
    assert i18n.t("hardware.english_source", "zh") in [c.value for c in zh.caption]
    labels = ps.by_title(at, i18n.t("hardware.measured_chart", "en"))["data"][0]
    assert labels["textposition"] == "inside" and labels["insidetextanchor"] == "end"  # never on the x = 1 line
    headers = [h.value for h in at.subheader]
    assert headers.index(i18n.t("hardware.measured_title", "en")) > 0  # its own section


def _host(recorded: bool = False) -> HostMeasurement:
    return HostMeasurement(
        device_name="NVIDIA H200",
        vendor="NVIDIA",
        backend="torch",
        backend_version="2.11",
        measured_at="2026-11-29T12:00:00",
        recorded=recorded,
        matmul_tflops={"fp32": 51.0, "tf32": 384.0, "fp16": 732.0, "bf16": 760.0},
        d2d_gbs=4250.0,
    )


@pytest.mark.parametrize("recorded", [False, True])
def test_your_machine_appears_on_bars_and_roofline(app_test, recorded):
    from streamlit.testing.v1 import AppTest

    from tests.conftest import APP

    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["lang"] = "en"
    at.session_state[SESSION_KEY] = _host(recorded)
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception
    label = (
        i18n.t("hardware.your_machine_recorded", "en", device="NVIDIA H200")
        if recorded
        else i18n.t("hardware.your_machine", "en")
    )
    bars = ps.trace(_peaks(at), label)
    assert ps.decode(bars["y"]) == [None, None, 51.0, 384.0, 732.0, 760.0, None]
    roof = ps.by_title(at, "Roofline")  # FP16 by default
    point = ps.trace(roof, f"{label} point")
    assert ps.decode(point["x"])[0] == pytest.approx(732.0 / 4.25)
    assert ps.decode(point["y"])[0] == 732.0
    bw = ps.by_title(at, i18n.t("hardware.bw_title", "en"))["data"][0]
    assert label in bw["x"] and ps.decode(bw["y"])[-1] == pytest.approx(4.25)
    key = "hardware.host_note_recorded" if recorded else "hardware.host_note"
    assert any(
        c.value.startswith(i18n.t(key, "en", device="NVIDIA H200", backend="torch", version="2.11", date="x")[:20])
        for c in at.caption
    )


def test_bad_gpu_in_link_falls_back_with_a_notice(app_test):
    at = app_test(PAGE, hw_gpus="instinct-mi250,rtx-9090")
    assert not at.exception
    assert [t["name"] for t in _peaks(at)["data"]] == ["Instinct MI250", "A100 80GB SXM4"]
    assert any("rtx-9090" in t.value for t in at.toast)


def test_bad_flag_and_precision_in_link_fall_back(app_test):
    at = app_test(PAGE, hw_gcd="banana", hw_prec="fp4")
    assert not at.exception
    assert at.toggle(key="hw_gcd").value is False
    assert at.selectbox(key="hw_prec").value == "fp16"
    assert len(at.toast) == 2


def test_removing_the_baseline_gpu_moves_the_ratio_base(app_test):
    at = app_test(PAGE, hw_gpus="instinct-mi250,a100-80gb-sxm4,h100-sxm5")
    assert at.selectbox(key="hw_base").value == "a100-80gb-sxm4"
    at.multiselect(key="hw_gpus").unselect("a100-80gb-sxm4").run()
    assert not at.exception
    assert at.selectbox(key="hw_base").value == "instinct-mi250"
    table = at.dataframe[0].value
    fp64 = table[table.iloc[:, 0] == "FP64 (vector)"].iloc[0]
    assert fp64["Instinct MI250"] == "1.00x" and fp64["H100 SXM5"] == f"{34 / 45.3:.2f}x"


def test_empty_selection_asks_for_a_gpu(app_test):
    at = app_test(PAGE)
    at.multiselect(key="hw_gpus").set_value([]).run()
    assert not at.exception
    assert any(i.value == i18n.t("hardware.pick_one", "en") for i in at.info)
    assert ps.figures(at) == []


def test_twelve_gpus_in_a_link_are_capped_with_a_notice(app_test):
    from rocm_bridge.ui.hardware_view import MAX_GPUS

    at = app_test(PAGE, hw_gpus=",".join(g.id for g in hw.gpus()))
    assert not at.exception
    assert len(at.multiselect(key="hw_gpus").value) == MAX_GPUS < len(hw.gpus())
    assert i18n.t("hardware.capped", "en", n=MAX_GPUS) in [i.value for i in at.info]
    peaks = ps.figures(at)[0]
    assert len([t for t in peaks["data"] if t["type"] == "bar"]) == MAX_GPUS


def test_log_axes_label_powers_of_ten_only_and_ridges_do_not_overlap(app_test):
    at = app_test(PAGE, hw_gpus="instinct-mi250,instinct-mi250x,a100-80gb-sxm4,h100-sxm5")
    figs = ps.figures(at)
    logs = [ax for f in figs for name, ax in f["layout"].items() if name.startswith(("xaxis", "yaxis"))
            and ax.get("type") == "log"]
    assert logs and all(ax.get("dtick") == 1 for ax in logs)
    roof = next(f for f in figs if f["layout"]["xaxis"].get("type") == "log")
    # the ridge value is in the legend, not written at points that can sit on top of each other
    assert all(t.get("mode") != "markers+text" for t in roof["data"] if t["name"].endswith(" ridge"))
    assert any("FLOP/B" in t["name"] for t in roof["data"] if t.get("showlegend", True))


def test_sources_are_short_links_not_walls_of_urls(app_test):
    at = app_test(PAGE)
    source = i18n.t("common.source", "en")
    lines = [c.value for c in at.caption if c.value.startswith((source, i18n.t("common.sources", "en")))]
    assert lines
    for line in lines:
        visible = re.sub(r"\]\([^)]*\)", "]", line)  # what the reader sees: link labels, not their targets
        assert "https" not in visible, visible[:200]
    assert any("](https://github.com/ROCm/ROCm/blob/HEAD/" in line for line in lines)
