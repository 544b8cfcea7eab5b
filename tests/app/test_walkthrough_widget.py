"""Chapter 9's transpose walkthrough widget in the app: chart, step picker, lesson, compile table, tabs."""

from rocm_bridge import i18n, kernels
from rocm_bridge.kernels import lessons, recorded
from rocm_bridge.text import md_escape


def _markdown(at) -> str:
    return "\n".join(m.value for m in at.markdown)


def test_walkthrough_steps_through_the_recorded_results(app_test):
    at = app_test("views/ch9_hip_kernels.py")
    assert not at.exception
    from tests.app.plotly_spec import figures

    title = i18n.t("walkthrough.chart.title", "en", rows=8192, cols=8192, gpu=recorded.run_record().gpu)
    title = title.replace(" | ", "<br>")  # two lines on the page
    assert any(f["layout"]["title"]["text"] == title for f in figures(at))
    # step 1 first: its lesson, its recorded gfx942 instructions, its measured time
    assert lessons.lesson(kernels.STEPS[0], "en") in [i.value for i in at.info]
    assert md_escape("global_store_dword ×1") in _markdown(at)
    control = next(c for c in at.get("button_group") if c.label == i18n.t("walkthrough.pick", "en"))
    control.set_value("lds_padded").run()
    assert not at.exception
    text = _markdown(at)
    t = recorded.run_record().timing("lds_padded")
    assert md_escape(f"{t.median_ms:.3f} ms") in text and "| 4224 |" in text
    assert lessons.lesson(kernels.step("lds_padded"), "en") in [i.value for i in at.info]
    codes = [c.value.rstrip("\n") for c in at.code]  # st.code drops the final newline
    assert kernels.diff(kernels.step("lds_padded")).rstrip("\n") in codes
    assert kernels.cuda_source(kernels.step("lds_padded")).rstrip("\n") in codes
    # the gfx90a record, with its compiler named
    radio = next(r for r in at.radio if r.label == i18n.t("walkthrough.target", "en"))
    radio.set_value("gfx90a").run()
    assert not at.exception
    assert recorded.compile_record("gfx90a").steps["lds_padded"].isa in [c.value.rstrip("\n") for c in at.code]


def test_walkthrough_in_chinese_names_the_gpu_and_sources(app_test):
    at = app_test("views/ch9_hip_kernels.py", lang="zh")
    assert not at.exception
    run = recorded.run_record()
    captions = "\n".join(c.value for c in at.caption)
    assert run.gpu in captions and "录制于" in captions and md_escape("run_h100.json") in captions
    assert lessons.lesson(kernels.STEPS[0], "zh") in [i.value for i in at.info]
    assert i18n.t("walkthrough.published.title", "zh") in _markdown(at)


def test_recompiling_here_is_labelled_live(app_test):
    """Where the compile lab builds the target (gfx90a with hipcc 5.2), the button recompiles the step on this
    server; the table then says so, and the numbers equal the recorded ones for the same compiler."""
    import pytest

    from rocm_bridge.kernels import live

    if not live.supports("gfx90a"):
        pytest.skip("the compile lab cannot build gfx90a here (hipcc 5.2 is not installed)")
    at = app_test("views/ch9_hip_kernels.py")
    next(r for r in at.radio if r.label == i18n.t("walkthrough.target", "en")).set_value("gfx90a").run()
    label = i18n.t("walkthrough.live.button", "en", target="gfx90a")
    next(b for b in at.button if b.label == label).click().run(timeout=120)
    assert not at.exception
    assert any(s.value.startswith("Live result: compiled on this server") for s in at.success)
    text = _markdown(at)
    assert md_escape("gfx90a, compiled here just now") in text
    assert md_escape("global_load_dword ×1") in text
