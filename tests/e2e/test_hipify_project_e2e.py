"""The hipify page's project report in a real browser: a zip with sources and build files in, one report with
the minimum ROCm and the converted CMakeLists.txt out, and the migrated project as a download."""

from __future__ import annotations

import io
import zipfile

from tests.e2e.browser import EXCEPTION, screenshot, wait_for_app

CMAKE = ("cmake_minimum_required(VERSION 3.18)\nproject(demo LANGUAGES CXX CUDA)\n"
         "find_package(CUDAToolkit REQUIRED)\nadd_executable(demo main.cu)\n"
         "target_link_libraries(demo PRIVATE CUDA::cudart CUDA::cublas)\n")
MAIN = ("#include <cuda_runtime.h>\nint main() { int* d; cudaMalloc(&d, 4); cudaDataType t; cudaFree(d); }\n")


def test_zip_project_report_with_build_files_and_download(app_server, page, tmp_path):
    path = tmp_path / "proj.zip"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("proj/CMakeLists.txt", CMAKE)
        z.writestr("proj/main.cu", MAIN)
        z.writestr("proj/util.cuh", "#include <cublas_v2.h>\ncublasHandle_t h;\n")
    page.goto(f"{app_server}/hipify?lang=en&hp_rocm=5.2")
    wait_for_app(page, 60_000)
    page.locator('input[type="file"]').set_input_files(str(path))
    page.wait_for_function("() => document.body.innerText.includes('Project report')", timeout=30_000)
    page.wait_for_function("() => document.body.innerText.includes('newer than ROCm 5.2')", timeout=30_000)
    assert page.get_by_text("proj/CMakeLists.txt: ").count() >= 1
    page.get_by_text("proj/CMakeLists.txt: ").first.click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=\"stCode\"]')].some(e => e.innerText.includes('roc::hipblas'))",
        timeout=30_000)
    with page.expect_download() as info:
        page.get_by_text("Download the migrated project with its report (.zip)").click()
    data = info.value.path().read_bytes()
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        names = zf.namelist()
        cmake = zf.read("proj/CMakeLists.txt").decode()
    assert "HIPIFY_REPORT.md" in names and "proj/main.cu" in names
    assert "project(demo LANGUAGES CXX HIP)" in cmake and "find_package(hipblas REQUIRED)" in cmake
    screenshot(page, "hipify_project")
    assert page.locator(EXCEPTION).count() == 0
