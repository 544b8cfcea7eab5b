"""The Doctor page in AppTest: verdict on this machine, recorded examples, log doctor (escaped), report."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from rocm_bridge import i18n

PAGE = "views/doctor.py"


def _host_has_gpu() -> bool:
    from rocm_bridge.doctor.facts_host import pci_gpus

    return Path("/dev/kfd").exists() or Path("/proc/driver/nvidia/version").exists() or bool(pci_gpus(Path("/")))


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_this_machine_gets_a_verdict_never_an_error(app_test, lang):
    at = app_test(PAGE, lang=lang)
    assert not at.exception, [e.value for e in at.exception]
    banners = [e.value for e in at.error] + [w.value for w in at.warning] + [s.value for s in at.success]
    assert banners
    if not _host_has_gpu():
        # the verdict names the missing GPU and what to install
        no_gpu = i18n.t("doctor.check.no_gpu.title", lang)
        assert any(no_gpu in b for b in at.error[0].value.split("\n")), at.error[0].value
        assert "tensorflow-rocm" in at.error[0].value
        assert at.expander[0].label.startswith(no_gpu)
    # the report is there to copy (st.code has a copy button) and to download
    md = [c.value for c in at.code if c.language == "markdown"]
    assert md and md[0].startswith("# " + i18n.t("doctor.report.heading", lang))
    assert at.get("download_button")


def test_recorded_example_from_a_deep_link(app_test):
    at = app_test(PAGE, doc_sys="gfx1032_no_override")
    assert not at.exception
    assert "gfx1032" in at.error[0].value
    assert any(i18n.t("doctor.system.recorded_note", "en", name="")[:20] in i.value for i in at.info)
    labels = [x.label for x in at.expander]
    assert any(":red[" in lab for lab in labels) and any(":green[" in lab for lab in labels)
    # the formula card with the factor table
    assert at.get("arrow_data_frame") or at.dataframe
    # the TensorFlow stderr of that system was diagnosed
    assert any("gfx1032" in c.value and "Ignoring visible gpu device" in c.value for c in at.code)


def test_healthy_example_is_green(app_test):
    at = app_test(PAGE)
    at.selectbox(key="doc_sys").set_value("rocm_healthy").run()
    assert not at.exception and not at.error
    assert i18n.t("doctor.verdict.ok", "en") in at.success[0].value.replace("\\", "")


def test_log_doctor_finds_problems_and_never_renders_pasted_html(app_test):
    at = app_test(PAGE)
    pasted = ("<script>alert('x')</script><b>bold</b>\n"
              "ImportError: libamdhip64.so.5: cannot open shared object file: No such file or directory")
    at.text_area(key="doc_log").input(pasted)
    at.button(key="doc_log_go").click().run()
    assert not at.exception
    assert any("1" in s.value for s in at.success)
    # the matched line comes back only inside a code block
    assert any("libamdhip64.so.5" in c.value for c in at.code)
    for m in at.markdown:
        assert "<script>" not in m.value and "<b>" not in m.value


def test_log_doctor_empty_and_unknown_text(app_test):
    at = app_test(PAGE, lang="zh")
    at.button(key="doc_log_go").click().run()
    assert i18n.t("doctor.log.empty", "zh") in [i.value for i in at.info]
    at.text_area(key="doc_log").input("Epoch 1/3 - loss: 0.5")
    at.button(key="doc_log_go").click().run()
    assert not at.exception
    assert any("没有发现已知问题" in i.value for i in at.info)


@pytest.mark.tf
@pytest.mark.skipif(importlib.util.find_spec("tensorflow") is None, reason="TensorFlow is not installed")
def test_tensorflow_checks_run_in_a_subprocess(app_test):
    at = app_test(PAGE)
    at.button(key="doc_run_tf").click()
    at.run(timeout=180)
    assert not at.exception
    labels = [x.label for x in at.expander]
    tf_import = i18n.t("doctor.check.tf_import.title", "en")
    assert any(lab.startswith(tf_import) and ":green[" in lab for lab in labels), labels


def test_every_recorded_system_renders_with_its_source(app_test):
    """Each example system on the page: a verdict banner, no exception, its own source line, no literal backslash."""
    from rocm_bridge.doctor import example_systems

    at = app_test(PAGE)
    for name in example_systems()[14:]:  # the first 14 are covered above and in test_smoke
        at.selectbox(key="doc_sys").set_value(name).run()
        assert not at.exception, (name, [e.value for e in at.exception])
        assert at.error or at.warning or at.success, name
        captions = " ".join(c.value for c in at.caption)
        assert "\\\\|" not in captions and "https\\\\:" not in captions, name
        assert "github.com" in captions or "rocm.docs.amd.com" in captions, name  # the system's own source line


def test_wsl_gpu_without_a_stack_is_not_called_no_gpu(app_test):
    at = app_test(PAGE, doc_sys="wsl2_no_rocm")
    assert not at.exception
    captions = [c.value for c in at.caption]
    assert i18n.t("doctor.platform.wsl_unknown", "en") in captions
    assert i18n.t("doctor.platform.none", "en") not in captions


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_fix_steps_and_a_person_are_shown_in_the_users_world(app_test, lang):
    """Secure Boot: the page shows the MOK steps (each with what it does), never "install amdgpu-dkms"; a check that
    needs a person says so in a warning, in both languages."""
    at = app_test(PAGE, doc_sys="secure_boot_dkms_unsigned", lang=lang)
    assert not at.exception
    bash = "\n".join(c.value for c in at.code if c.language == "bash")
    assert "sudo mokutil --import /var/lib/dkms/mok.pub" in bash
    assert "apt install" not in bash and "amdgpu-dkms" not in bash
    captions = [c.value.replace("\\", "") for c in at.caption]  # shown through md_escape
    assert i18n.t("doctor.action.mok_enroll", lang) in captions
    assert i18n.t("doctor.fix_then_check", lang) in captions
    person = i18n.t("doctor.fix_person", lang)
    assert any(person in w.value.replace("\\", "") for w in at.warning), [w.value for w in at.warning]
    at = app_test(PAGE, doc_sys="podman_rootless_nogroup", lang=lang)
    bash = "\n".join(c.value for c in at.code if c.language == "bash")
    assert "--group-add keep-groups" in bash and "docker run" not in bash
