"""The live lab page in AppTest: renders without a GPU, shows the recorded H200 results labelled as recorded,
and a real (tiny, CPU) TensorFlow run writes "your machine" for the other pages."""

from __future__ import annotations

import pytest

from rocm_bridge import i18n
from rocm_bridge.hardware.measured import SESSION_KEY, HostMeasurement
from rocm_bridge.live import available_backends
from rocm_bridge.live.results import recorded_results
from tests.app import plotly_spec as ps

PAGE = "views/live.py"


def _texts(at) -> str:
    parts = [e.value for kind in (at.markdown, at.caption, at.info, at.warning, at.success) for e in kind]
    return "\n".join(str(p) for p in parts)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_renders_without_a_gpu(app_test, lang):
    at = app_test(PAGE, lang)
    assert not at.exception
    assert at.title[0].value == i18n.t("live.title", lang)
    # No GPU on this machine: the monitor says so instead of drawing empty charts.
    assert i18n.t("live.monitor.no_gpu", lang) in _texts(at)
    if available_backends():
        assert at.selectbox(key="lv_backend").options  # only installed frameworks are offered
        assert set(at.selectbox(key="lv_backend").options) <= {"TensorFlow", "PyTorch", "JAX"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_recorded_mode_shows_h200_results_labelled_as_recorded(app_test, lang):
    at = app_test(PAGE, lang, lv_mode="recorded")
    assert not at.exception
    doc = recorded_results()[at.selectbox(key="lv_rec").value]
    texts = _texts(at)
    assert i18n.t("live.res.recorded_banner", lang, device="NVIDIA H200", date=doc["date"][:10]) in texts
    assert "H200 SXM" in texts  # the datasheet row it matched
    fig = ps.by_title(at, i18n.t("live.chart.matmul", lang))
    bf16 = ps.trace(fig, "bf16")
    rows = [r for r in doc["benchmarks"]["matmul"]["rows"] if r["dtype"] == "bf16"]
    assert ps.decode(bf16["y"]) == pytest.approx([r["tflops"] for r in rows])
    assert fig["layout"]["yaxis"]["title"]["text"] == i18n.t("live.axis.tflops", lang)
    # Every chart's source line says recorded, never "measured on this machine".
    recorded_word = i18n.t(
        "live.res.source_recorded", lang, device="X", date="D", backend="B", version="V", software="S"
    ).split("X")[0]
    sources = [c.value for c in at.caption if c.value.startswith(i18n.t("common.source", lang))]
    assert sources and all(recorded_word in s for s in sources)
    assert SESSION_KEY not in at.session_state  # recorded numbers never pose as "your machine"


def test_switching_recorded_runs_changes_the_numbers(app_test):
    at = app_test(PAGE, "en", lv_mode="recorded")
    docs = recorded_results()
    seen = set()
    for i in range(len(docs)):
        at.selectbox(key="lv_rec").set_value(i).run()
        assert not at.exception
        peak = max(ps.decode(ps.trace(ps.by_title(at, "Matmul"), "bf16")["y"]))
        seen.add(round(peak, 3))
        assert docs[i]["backend"] in ("torch", "jax")
    assert len(seen) == len(docs)


@pytest.mark.tf
def test_tiny_cpu_run_writes_your_machine(app_test):
    pytest.importorskip("tensorflow", reason="TensorFlow is not installed")
    at = app_test(PAGE, "en", lv_mode="live", lv_backend="tensorflow")
    at.button(key="lv_check_run").click().run(timeout=120)
    assert not at.exception
    # The honest check: asked for /GPU:0, says where the matmul really ran.
    assert any("/GPU:0" in w.value and "CPU" in w.value for w in at.warning), [w.value for w in at.warning]
    at.multiselect(key="lv_pick").set_value(["matmul", "consistency"])
    at.slider(key="lv_budget").set_value(20)
    at.button(key="lv_start").click().run(timeout=120)
    assert not at.exception
    host = at.session_state[SESSION_KEY]
    assert isinstance(host, HostMeasurement)
    assert host.backend == "tensorflow" and not host.recorded and host.vendor == "CPU"
    assert host.matmul_tflops.get("fp32", 0) > 0
    assert i18n.t("live.run.saved", "en") in _texts(at)
    fig = ps.by_title(at, "Matmul")
    assert {t["name"] for t in fig["data"]} == {"fp32", "bf16"}  # CPU: no tf32/fp16 rows, no peak lines
    assert "measured on this machine" in _texts(at)
    assert "recorded on" not in _texts(at)


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_missing_frameworks_get_their_install_commands(app_test, monkeypatch, lang):
    import rocm_bridge.live as live
    from rocm_bridge.live.install import install_hints

    monkeypatch.setattr(live, "is_installed", lambda name: name == "tensorflow")  # as if torch and JAX were absent
    at = app_test("views/live.py", lang=lang)
    assert not at.exception
    codes = [c.value for c in at.code]
    for name in ("torch", "jax"):
        for hint in install_hints(name):
            assert hint.command in codes, hint.command
    assert not any(h.command in codes for h in install_hints("tensorflow"))  # installed: nothing to say
    assert i18n.t("live.install.title", lang) in [e.label for e in at.expander]


def test_every_install_command_names_a_real_package_and_a_source():
    from rocm_bridge.live.install import PLATFORMS, install_hints

    for name in ("tensorflow", "torch", "jax"):
        hints = install_hints(name)
        assert [h.platform for h in hints] == list(PLATFORMS)
        for h in hints:
            assert h.command.startswith("pip install") and h.source and h.as_of
            # the package named is the framework's own (tensorflow-*, torch, jax), never a guess
            assert {"tensorflow": "tensorflow", "torch": "torch", "jax": "jax"}[name] in h.command


def _published_chart(at, lang, dtype="bf16"):
    return ps.by_title(at, i18n.t("live.chart.published", lang, dtype=dtype))


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_recorded_h200_sits_beside_published_amd_figures(app_test, lang):
    from rocm_bridge.live import published as pub

    at = app_test(PAGE, lang, lv_mode="recorded")
    assert not at.exception
    doc = recorded_results()[at.selectbox(key="lv_rec").value]
    fig = _published_chart(at, lang)
    ours = ps.trace(fig, i18n.t("live.pub.ours_recorded", lang))
    theirs = ps.trace(fig, i18n.t("live.pub.legend_published", lang))
    bars = pub.comparison(doc, "bf16")
    assert ps.decode(ours["x"]) == pytest.approx([b.tflops for b in bars if b.origin == "recorded"])
    assert ps.decode(theirs["x"]) == pytest.approx([p.tflops for p in pub.for_dtype("bf16")])
    # every bar says who measured it: here (recorded), or published by whom and when
    assert all(i18n.t("live.pub.ours_recorded", lang) in y for y in ours["y"])
    for y, p in zip(theirs["y"], pub.for_dtype("bf16"), strict=True):
        assert i18n.t("live.pub.published_by", lang, who=p.publisher, date=p.date) in y
        assert p.gpu.removeprefix("Instinct ") in y
    # the datasheet peaks are marks on the chart, and measured / peak is written beside each bar
    peaks = ps.decode(ps.trace(fig, i18n.t("live.pub.legend_peak", lang))["x"])
    assert 989.4 in peaks and 1307.4 in peaks and pytest.approx(191.5) in peaks
    notes = [a["text"] for a in fig["layout"]["annotations"]]
    mi300x = next(b for b in bars if b.row_id == "amd-maf-mi300x-bf16")
    assert any(i18n.t("live.pub.pct_of_peak", lang, pct=f"{100 * mi300x.ratio:.0f}") in n for n in notes)
    assert any(i18n.t("live.pub.no_peak", lang) in n for n in notes)  # MI325X BF16: no peak in the table
    assert fig["layout"]["xaxis"]["title"]["text"] == i18n.t("live.axis.tflops", lang)
    # its source line names the recorded run, the published sources and the datasheet table
    source = next(c.value for c in at.caption if "rocm.blogs.amd.com" in c.value)
    assert "ml-engineering" in source and "gpu\\_specs.csv" in source
    assert "H200" in source
    texts = _texts(at)
    assert i18n.t("live.pub.why", lang).splitlines()[0] in texts
    assert i18n.t("live.pub.ratio_note", lang) in texts
    assert i18n.t("live.pub.quotes", lang) in [e.label for e in at.expander]


def test_published_figures_follow_the_chosen_dtype(app_test):
    at = app_test(PAGE, "en", lv_mode="recorded")
    key = f"lv_pub_{recorded_results()[at.selectbox(key='lv_rec').value]['file']}"
    assert at.selectbox(key=key).options == ["fp32", "fp16", "bf16"]
    at.selectbox(key=key).set_value("fp32").run()
    assert not at.exception
    theirs = ps.trace(_published_chart(at, "en", "fp32"), "published (not measured here)")
    assert all("MI210" in y and "published by AMD" in y for y in theirs["y"])
    assert ps.decode(theirs["x"]) == pytest.approx([30.1, 34.6, 32.3, 37.9])


def test_your_machine_is_labelled_as_measured_here(app_test, monkeypatch):
    import rocm_bridge.live as live
    from rocm_bridge.ui.live_view import RESULT_KEY

    monkeypatch.setattr(live, "is_installed", lambda name: name == "tensorflow")  # live mode without a real run
    doc = recorded_results()[0]
    doc["source"] = "measured"  # as if this machine were the GPU that made the document
    at = app_test()
    at.session_state[RESULT_KEY] = doc
    at.query_params["lv_mode"] = "live"
    at.switch_page(PAGE)
    at.run()
    assert not at.exception
    fig = _published_chart(at, "en")
    ours = ps.trace(fig, "measured here (this machine)")
    assert ours["y"] and all("measured here (this machine)" in y for y in ours["y"])
    assert not any(t.get("name") == "measured here (recorded)" for t in fig["data"])


def test_the_dispatch_chart_adds_up_to_its_metric():
    """On a CPU, back-to-back dispatch (183 µs measured here with TensorFlow) can exceed one synced tiny op
    (36 µs): the chart's bars must sum to the metric shown above them, never run past it."""
    from rocm_bridge.ui.live_view import dispatch_parts

    total, dispatch, rest = dispatch_parts({"tiny_synced_us": 35.6, "dispatch_us": 183.2, "sync_us": 0.0})
    assert (total, dispatch, rest) == (35.6, 35.6, 0.0)
    total, dispatch, rest = dispatch_parts({"tiny_synced_us": 30.0, "dispatch_us": 8.0, "sync_us": 22.0})
    assert dispatch + rest == total == 30.0 and dispatch == 8.0


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_results_come_first_and_the_install_help_is_folded_and_translated(app_test, monkeypatch, lang):
    import rocm_bridge.live as live

    monkeypatch.setattr(live, "is_installed", lambda name: False)  # nothing installed: recorded results
    at = app_test("views/live.py", lang=lang, lv_mode="recorded")
    assert not at.exception
    install = next(e for e in at.expander if e.label == i18n.t("live.install.title", lang))
    assert not install.proto.expanded
    order = []

    def walk(node):
        order.append(node)
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at.main)
    first_chart = next(i for i, e in enumerate(order) if getattr(e, "type", "") == "plotly_chart")
    assert first_chart < order.index(install)  # the recorded results above the install help
    notes = " ".join(c.value for c in at.caption)
    if lang == "zh":
        assert "仅 CPU" in notes and "CPU only" not in notes
    else:
        assert "CPU only" in notes
