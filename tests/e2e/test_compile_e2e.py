"""The compile lab in a real browser: compile a broken example, see the error under its line and its
explanation; the Chinese page shows the same in Chinese."""

from __future__ import annotations

import pytest

from rocm_bridge import i18n
from rocm_bridge.compile import toolchain
from tests.e2e.browser import EXCEPTION, screenshot, wait_for_app


@pytest.mark.skipif(toolchain.hipcc() is None, reason="hipcc not installed (.ci/run installs it)")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_compile_shows_the_error_on_its_line(app_server, page, lang):
    page.goto(f"{app_server}/compile?lang={lang}&cl_ex=broken_cuda_names")
    wait_for_app(page, 60_000)
    page.get_by_role("button", name=i18n.t("compile.page.compile", lang)).first.click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=\"stCode\"]')]"
        ".some(e => e.innerText.includes(\"^ error: use of undeclared identifier 'cudaMalloc'\"))",
        timeout=90_000,
    )
    code = "\n".join(page.locator('[data-testid="stCode"]').all_inner_texts())
    lines = code.splitlines()
    i = next(n for n, ln in enumerate(lines) if "cudaMalloc(&d" in ln)
    assert "^ error: use of undeclared identifier 'cudaMalloc'" in lines[i + 1]
    title = i18n.t("compile.explain.cuda_leftover.title", lang, name="cudaMalloc")
    page.get_by_text(title).first.wait_for(timeout=30_000)
    assert page.locator(EXCEPTION).count() == 0
    screenshot(page, f"compile-broken-{lang}")


def _triton_ready() -> bool:
    from rocm_bridge.compile import triton_lab
    return triton_lab.available()


@pytest.mark.skipif(not _triton_ready(), reason="triton not installed (requirements.txt pins it)")
def test_triton_tab_compiles_matmul_for_amd_and_nvidia(app_server, page):
    page.goto(f"{app_server}/compile?lang=en&tr_ex=matmul_bf16&tr_amd=gfx942&tr_nv=sm_90")
    wait_for_app(page, 60_000)
    page.get_by_role("tab", name=i18n.t("compile.page.tab_triton", "en")).click()
    page.get_by_role("button", name=i18n.t("compile.triton.compile", "en")).click()
    # the first match may be a cell of a dataframe, drawn on a canvas: attached, not visible (as the PTX line below)
    page.get_by_text("v_mfma_f32_32x32x8_bf16").first.wait_for(state="attached", timeout=180_000)
    # the NVIDIA column: wgmma in its PTX listing
    page.get_by_text("wgmma.mma_async.sync").first.wait_for(state="attached", timeout=30_000)
    assert page.locator('[data-testid="stCode"]', has_text="▶").count() >= 2  # matrix lines marked, both vendors
    assert page.locator(EXCEPTION).count() == 0
    screenshot(page, "compile-triton-matmul")
