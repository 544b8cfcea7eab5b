"""`python -m rocm_bridge hipify`: stdin/stdout, files, trees, in-place with backup, refused options, exit codes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rocm_bridge.cli import main

ROOT = Path(__file__).resolve().parent.parent
CUDA = "#include <cuda_runtime.h>\n__global__ void k(int* p) { p[0] = 1; }\nint main() { int* d; cudaMalloc(&d, 4);\n" \
       "  k<<<1, 1>>>(d);\n  cudaDeviceFlushGPUDirectRDMAWrites(a, b);\n}\n"


def run_cli(args, capsys, stdin: bytes | None = None, monkeypatch=None):
    if stdin is not None:
        import io

        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    code = main(["hipify", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_stdin_to_stdout_with_report_on_stderr(capsys, monkeypatch):
    code, out, err = run_cli(["--lang", "en"], capsys, CUDA.encode(), monkeypatch)
    assert code == 0
    assert "hipMalloc(&d, 4);" in out and "#include <hip/hip_runtime.h>" in out
    assert "k<<<1, 1>>>(d);" in out
    assert "<stdin>:5:3: warning: cudaDeviceFlushGPUDirectRDMAWrites not converted" in err
    assert "1 of 2 CUDA API references converted (50.0 %)" in err


def test_file_with_output_and_options(tmp_path, capsys):
    src = tmp_path / "a.cu"
    src.write_text(CUDA)
    dst = tmp_path / "out" / "a.hip"
    code, out, err = run_cli([str(src), "-o", str(dst), "--hip-kernel-execution-syntax", "--print-stats",
                              "--quiet-warnings", "--lang", "en"], capsys)
    assert code == 0 and out == ""
    text = dst.read_text()
    assert "hipLaunchKernelGGL(k, dim3(1), dim3(1), 0, 0, d);" in text
    assert "warning:" not in err
    assert "API group" in err and "runtime" in err and "1 rewritten as hipLaunchKernelGGL" in err


def test_perl_style_options(tmp_path, capsys):
    src = tmp_path / "a.cu"
    src.write_text("cublasCreate(&h);\n")
    dst = tmp_path / "b.cu"
    code, _, _ = run_cli([str(src), f"-o={dst}", "-roc"], capsys)
    assert code == 0 and dst.read_text() == "#include <hip/hip_runtime.h>\nrocblas_create_handle(&h);\n"


def test_inplace_keeps_a_prehip_backup(tmp_path, capsys):
    src = tmp_path / "a.cu"
    src.write_text(CUDA)
    code, out, _ = run_cli([str(src), "--inplace"], capsys)
    assert code == 0 and out == ""
    assert (tmp_path / "a.cu.prehip").read_text() == CUDA
    assert "hipMalloc" in src.read_text()
    # a second run keeps the original backup
    run_cli([str(src), "--inplace"], capsys)
    assert (tmp_path / "a.cu.prehip").read_text() == CUDA


def test_examine_writes_nothing(tmp_path, capsys):
    src = tmp_path / "a.cu"
    src.write_text(CUDA)
    code, out, err = run_cli([str(src), "--examine", "--lang", "zh"], capsys)
    assert code == 0 and out == "" and src.read_text() == CUDA
    assert "转换率" in err


def test_directory_tree_keeps_layout(tmp_path, capsys):
    tree = tmp_path / "proj"
    (tree / "src" / "kernels").mkdir(parents=True)
    (tree / "src" / "main.cu").write_text("cudaFree(p);\n")
    (tree / "src" / "kernels" / "k.cuh").write_text("__global__ void k();\n")
    (tree / "README.md").write_text("cudaFree stays in docs\n")
    out_dir = tmp_path / "hip"
    code, _, err = run_cli([str(tree), "-o", str(out_dir), "--lang", "en"], capsys)
    assert code == 0
    assert (out_dir / "src" / "main.cu").read_text() == "#include <hip/hip_runtime.h>\nhipFree(p);\n"
    assert (out_dir / "src" / "kernels" / "k.cuh").read_text().startswith("#include <hip/hip_runtime.h>\n")
    assert not (out_dir / "README.md").exists()
    assert "2 source files" in err


def test_directory_needs_o_and_o_not_inside(tmp_path, capsys):
    (tmp_path / "a.cu").write_text("x")
    assert run_cli([str(tmp_path)], capsys)[0] == 2
    assert run_cli([str(tmp_path), "-o", str(tmp_path / "out")], capsys)[0] == 2


@pytest.mark.parametrize("option", ["--save-temps", "--cuda-path=/usr/local/cuda", "-exclude-dirs=x", "--md"])
def test_known_but_unimplemented_options_are_refused(option, capsys):
    code, _, err = run_cli([option, "x.cu", "--lang", "en"], capsys)
    assert code == 2
    assert "does not implement" in err


def test_missing_and_binary_files_exit_1(tmp_path, capsys):
    binary = tmp_path / "b.cu"
    binary.write_bytes(b"\x00\x01\x02ELF")
    code, _, err = run_cli([str(tmp_path / "missing.cu"), "--lang", "en"], capsys)
    assert code == 1 and "cannot read" in err
    code, _, err = run_cli([str(binary), "--lang", "en"], capsys)
    assert code == 1 and "binary" in err


def test_non_utf8_file_is_translated_byte_exact(tmp_path, capsys):
    src = tmp_path / "latin.cu"
    src.write_bytes(b"// r\xe9sum\xe9\ncudaFree(p);\n")
    dst = tmp_path / "out.cu"
    code, _, err = run_cli([str(src), "-o", str(dst), "--lang", "en"], capsys)
    assert code == 0 and "not valid UTF-8" in err
    assert dst.read_bytes() == b"// r\xe9sum\xe9\n#include <hip/hip_runtime.h>\nhipFree(p);\n"


def test_whole_process_imports_neither_pandas_nor_streamlit(tmp_path):
    src = tmp_path / "a.cu"
    src.write_text(CUDA)
    probe = (
        "import sys, runpy\n"
        f"sys.argv = ['rocm_bridge', 'hipify', {str(src)!r}, '--print-stats']\n"
        "try:\n    runpy.run_module('rocm_bridge', run_name='__main__')\nexcept SystemExit:\n    pass\n"
        "print('HEAVY', sorted(m for m in ('pandas', 'streamlit', 'tensorflow', 'numpy') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert "HEAVY []" in out.stdout
    assert "hipMalloc" in out.stdout


def test_version_names_the_table_revision(capsys):
    code, out, _ = run_cli(["-version"], capsys)
    assert code == 0 and "014177bc" in out
