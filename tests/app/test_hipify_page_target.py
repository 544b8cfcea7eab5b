"""AppTest of the hipify page's Target ROCm picker and wavefront toggle: they change the HIP, live in the link, fall
back from bad link values without a traceback, and the report, flow and lint list what they rewrote."""

from __future__ import annotations

from rocm_bridge.hipify import page_model as pm

PAGE = "views/hipify.py"
SHFL = ("__global__ void k(float* p) {\n  float v = p[threadIdx.x];\n"
        "  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);\n  p[threadIdx.x] = v;\n}\n")


def _paste(at, code: str):
    next(t for t in at.toggle if t.key == "hp_plain").set_value(True).run()
    at.text_area(key="hp_text").set_value(code).run()
    return at


def _hip(at) -> str:
    return next(c.value for c in at.code if "__global__ void k" in c.value and "cuda" not in c.value.lower())


def _param(at, key: str):
    value = at.query_params.get(key)
    return value[0] if isinstance(value, list) else value


def test_the_picker_offers_the_tables_releases_newest_first():
    releases = pm.target_releases()
    assert releases[0] == "7.0" and {"6.2", "6.1", "5.6", "5.2"} <= set(releases)  # 7.0: __syncwarp's rule
    keys = [tuple(int(x) for x in r.split(".")) for r in releases]
    assert keys == sorted(keys, reverse=True) and len(set(releases)) == len(releases)
    assert pm.target_release("") == "7.0" and pm.target_release("5.2.0") == "5.2"
    assert pm.target_release("6.4") == "6.3"  # not in the tables: translates like the release before it
    assert pm.target_release("five") is None and pm.target_release("1.0") is None


def test_the_target_changes_the_hip_and_rides_in_the_link(app_test):
    at = _paste(app_test(PAGE, hp_rocm="5.2"), SHFL)
    assert not at.exception
    assert at.selectbox(key="hp_rocm").value == "5.2"
    hip = _hip(at)
    assert "__shfl_down(v, o) /* hipify: __shfl_down_sync before ROCm 6.2; the mask named all lanes */" in hip
    assert "__shfl_down_sync" not in hip.replace("/* hipify: __shfl_down_sync", "")
    assert _param(at, "hp_rocm") == "5.2"
    at.selectbox(key="hp_rocm").set_value(pm.target_releases()[0]).run()
    assert "__shfl_down_sync(0xffffffff, v, o)" in _hip(at)  # HIP has it from 6.2
    assert _param(at, "hp_rocm") == pm.target_releases()[0]
    # the link made above opens the same view in a fresh session, the code and the option included
    fresh = app_test(PAGE, hp_src=_param(at, "hp_src"), hp_ex="mine", hp_rocm="6.1", hp_wave="true")
    assert not fresh.exception
    assert fresh.selectbox(key="hp_rocm").value == "6.1"
    assert next(t for t in fresh.toggle if t.key == "hp_wave").value is True
    hip = _hip(fresh)
    assert "o = warpSize / 2;" in hip and "__shfl_down(v, o)" in hip  # 6.1 lacks the _sync shuffles too


def test_the_wavefront_toggle_rewrites_and_is_in_the_link(app_test):
    at = _paste(app_test(PAGE), SHFL)
    assert "int o = 16;" in _hip(at)
    next(t for t in at.toggle if t.key == "hp_wave").set_value(True).run()
    hip = _hip(at)
    assert "int o = warpSize / 2;" in hip and "__shfl_down_sync(~0ull, v, o)" in hip
    assert _param(at, "hp_wave") == "True"
    assert any("hp_wave=True" in c.value for c in at.code)  # the share link


def test_bad_link_values_fall_back_without_a_traceback(app_test):
    newest = pm.target_releases()[0]
    for value in ("99.x", "<b>5.2</b>", "1.0", "5.2.0.1"):
        at = app_test(PAGE, hp_rocm=value, hp_wave="banana", hp_view="report")
        assert not at.exception, value
        assert at.selectbox(key="hp_rocm").value == newest, value
        assert next(t for t in at.toggle if t.key == "hp_wave").value is False
        assert any("hp_rocm" in t.value for t in at.toast) and any("hp_wave" in t.value for t in at.toast), value
    at = app_test(PAGE, hp_rocm="", hp_view="report")  # the old free-text box wrote an empty value
    assert at.selectbox(key="hp_rocm").value == newest and not at.toast
    at = app_test(PAGE, hp_rocm="6.4", hp_view="report")  # a release the tables do not list
    assert at.selectbox(key="hp_rocm").value == "6.3" and not at.toast


def test_report_and_flow_list_each_rewrite_with_source_and_release(app_test):
    at = app_test(PAGE, hp_ex="warp_reduce", hp_view="report", hp_rocm="5.2", hp_wave="true")
    assert not at.exception
    assert any(h.value == "Rewritten for ROCm 5.2 and the wavefront" for h in at.subheader)
    table = next(df.value for df in at.dataframe if "Unnecessary from" in df.value.columns)
    rows = {(r["Line"], r["CUDA"]): r for _, r in table.iterrows()}
    shfl = rows[(10, "__shfl_down_sync")]
    assert shfl["Written"] == "__shfl_down" and shfl["Unnecessary from"] == "ROCm 6.2"
    wave = rows[(9, "16")]
    assert wave["Written"] == "warpSize / 2" and wave["Rewritten for"] == "wavefront"
    assert wave["Unnecessary from"] == "none: the wavefront size belongs to the GPU"
    assert len(table) == 5  # two _sync calls, the loop's 16, % 32 and / 32
    # why and the source once per rule, under the table ("as __shfl_sync" read through to the row it names)
    reasons = [m.value for m in at.markdown if m.value.startswith("- **")]
    assert len(reasons) == 4  # __shfl_down_sync, __ballot_sync, the reduction, the lane arithmetic (twice: once)
    shfl_reason = next(r for r in reasons if r.startswith("- **\\_\\_shfl\\_down\\_sync → "))
    assert "ROCm before 6.2 has only the mask-less shuffles" in shfl_reason
    assert "amd\\_warp\\_sync\\_functions.h" in shfl_reason and "(ROCm 6.2)" in shfl_reason
    at = app_test(PAGE, hp_ex="warp_reduce", hp_view="flow", hp_rocm="5.2", hp_wave="true")
    assert any("5 rewrites for ROCm 5.2 and the wavefront" in m.value for m in at.markdown)
    flow = next(df.value for df in at.dataframe if "Written" in df.value.columns)
    assert list(flow["Written"]) == ["warpSize / 2", "__shfl_down", "% warpSize", "/ warpSize", "__ballot"]
    at = app_test(PAGE, hp_ex="vector_add", hp_view="report", hp_rocm="5.2")
    assert any("Nothing needed rewriting for this ROCm release" in c.value for c in at.caption)


def test_lint_marks_what_a_rewrite_settled(app_test):
    at = app_test(PAGE, hp_ex="warp_reduce", hp_view="lint", hp_wave="true")
    assert not at.exception
    assert any("Settled by a rewrite for the target ROCm or the wavefront: 4 findings" in i.value for i in at.info)
    settled = [s.value for s in at.success if s.value.startswith("Settled by the wavefront rewrite")]
    assert len(settled) == 4 and any("~0ull" in s for s in settled)
    at = app_test(PAGE, hp_ex="warp_reduce", hp_view="report", hp_wave="true")
    assert {m.label: m.value for m in at.metric}["Left for you"] == "2"  # 3 errors, the mask on line 28 settled


def test_target_and_rewrites_in_chinese(app_test):
    at = app_test(PAGE, lang="zh", hp_ex="warp_reduce", hp_view="report", hp_rocm="5.2", hp_wave="true")
    assert not at.exception
    assert any(h.value == "为 ROCm 5.2 与波前所做的改写" for h in at.subheader)
    table = next(df.value for df in at.dataframe if "写作" in df.value.columns)
    assert "自此版本起不再需要" in table.columns and any("warpSize / 2" in r for r in table["写作"])
    assert any(m.value == "**原因，以及每条规则的来源：**" for m in at.markdown)
    assert any(m.value.startswith("- **16 → warpSize / 2**") and "整个波前" in m.value for m in at.markdown)
