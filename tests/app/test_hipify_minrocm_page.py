"""AppTest of the hipify page's minimum-ROCm section (rocm_bridge.ui.hipify_project.render_minimum_rocm)."""

from __future__ import annotations

from rocm_bridge.hipify import page_model as pm

PAGE = "views/hipify.py"
CODE = "void f(void** p, cudaStream_t s) { cudaMallocAsync(p, 4, s); cudaDataType t; }\n"


def _paste(at, code: str):
    next(t for t in at.toggle if t.key == "hp_plain").set_value(True).run()
    at.text_area(key="hp_text").set_value(code).run()
    return at


def test_minimum_rocm_and_a_deep_linked_target(app_test):
    at = _paste(app_test(PAGE, hp_view="report", hp_rocm="5.2"), CODE)
    assert not at.exception
    assert at.selectbox(key="hp_rocm").value == "5.2"  # the target picker is the one box
    assert not [t for t in at.text_input if t.key == "hp_rocm"]
    text = " ".join(m.value for m in at.markdown)
    assert "The translated file needs ROCm 5.7 or later." in text
    assert any("1 API(s) are newer than ROCm 5.2" in w.value for w in at.warning)
    at.selectbox(key="hp_rocm").set_value("6.0").run()
    assert not any("newer than ROCm" in w.value for w in at.warning)
    assert at.query_params["hp_rocm"] in ("6.0", ["6.0"])


def test_bad_target_in_a_link_falls_back_to_the_newest(app_test):
    at = app_test(PAGE, hp_view="report", hp_rocm="five")
    assert not at.exception
    assert any("hp_rocm" in t.value and "five" in t.value for t in at.toast)  # said once, escaped
    assert at.selectbox(key="hp_rocm").value == pm.target_releases()[0]
    at = _paste(at, CODE)
    assert not at.exception
    assert not any("newer than ROCm" in w.value for w in at.warning)


def test_section_in_chinese(app_test):
    # AppTest cannot set widgets on a Chinese page with translated select labels: the example decides the code
    at = app_test(PAGE, lang="zh", hp_ex="streams_events", hp_view="report", hp_rocm="3.5")
    assert not at.exception
    assert any("结果所需的最低 ROCm 版本" in h.value for h in at.subheader)
    assert any("转换后的文件需要 ROCm" in m.value for m in at.markdown)
