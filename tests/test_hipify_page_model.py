"""The page's core: examples, uploads, diff rows and the migration flow (no Streamlit needed)."""

from __future__ import annotations

import io
import zipfile

import pytest

from rocm_bridge.errors import FileTooLarge, NotText, UnsupportedFile
from rocm_bridge.hipify import page_model as pm
from rocm_bridge.hipify.translator import Options


@pytest.mark.parametrize("key", pm.EXAMPLES)
def test_every_example_translates_completely_or_explains_why(key):
    [fr] = pm.translate_files([pm.SourceFile(f"{key}.cu", pm.example_source(key))], Options())
    assert fr.result.changed
    assert "cuda" not in "".join(r.hip_name for r in fr.result.converted).lower()
    # only the warp example has unconverted names, and the lint explains that example
    if fr.result.unconverted:
        assert key == "warp_reduce" and {f.rule for f in fr.findings} >= {"lane_mask_32", "warp_size_32"}


def test_upload_single_file_and_zip_project():
    [single] = pm.load_upload("dir/kernel.cu", b"cudaFree(p);")
    assert single.path == "kernel.cu" and single.text == "cudaFree(p);"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("p/a.cu", "cudaFree(p);")
        z.writestr("p/b.h", "int x;")
    files = pm.load_upload("p.zip", buf.getvalue())
    assert [f.path for f in files] == ["p/a.cu", "p/b.h"]


def test_upload_refusals():
    with pytest.raises(UnsupportedFile):
        pm.load_upload("notes.txt", b"hello")
    with pytest.raises(NotText):
        pm.load_upload("a.cu", b"\x00\x01binary")
    with pytest.raises(FileTooLarge):
        pm.load_upload("a.cu", b"x" * 20, max_bytes=10)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("readme.md", "no sources")
    with pytest.raises(UnsupportedFile):
        pm.load_upload("empty.zip", buf.getvalue())


def test_diff_rows_pair_changed_lines():
    rows = pm.diff_rows("a\ncudaFree(p);\nb\n", "a\nhipFree(p);\nb\n")
    assert rows == [{"cuda_line": 2, "cuda": "cudaFree(p);", "hip_line": 2, "hip": "hipFree(p);"}]
    rows = pm.diff_rows("x\n", "#include <hip/hip_runtime.h>\nx\n")
    assert rows == [{"cuda_line": None, "cuda": "", "hip_line": 1, "hip": "#include <hip/hip_runtime.h>"}]


def test_migration_flow_counts():
    src = "// cudaFree\n#include <cuda_runtime.h>\n__global__ void k() {}\nvoid f(int* p) { k<<<1,1>>>(); " \
          "cudaFree(p); __syncthreads(); cudaFree(p); }\n"
    [fr] = pm.translate_files([pm.SourceFile("a.cu", src)], Options(kernel_syntax=True))
    flow = pm.migration_flow(fr.result, fr.findings)
    assert flow.scan == {"lines": 4, "comments": 1, "literals": 0, "includes": 1, "launches": 1, "references": 3}
    assert flow.mapping[0] == {"cuda": "cudaFree", "hip": "hipFree", "api_group": "runtime", "status": "converted",
                               "count": 2}
    assert flow.rewrite == {"renamed": 2, "kept": 1, "headers": 1, "launches_rewritten": 1, "lines_changed": 2}
    assert flow.report["percentage"] == 100.0


def test_non_utf8_upload_is_shown_decoded_and_downloads_the_cli_bytes(tmp_path, capsysbinary):
    from rocm_bridge.cli import main
    from rocm_bridge.hipify import page_model as pm
    from rocm_bridge.hipify.translator import Options

    src = "// 共享内存示例\n__global__ void k(float* p) { p[threadIdx.x] = 0; }\nvoid f() { cudaDeviceSynchronize(); }\n"
    for encoding, expected in (("gbk", "gb18030"), ("cp1252", "cp1252"), ("latin-1", "cp1252")):
        text = src if encoding == "gbk" else src.replace("共享内存示例", "mémoire partagée")
        data = text.encode(encoding)
        [f] = pm.load_upload("k.cu", data)
        assert f.bad_utf8_at is not None and f.text == data.decode(f.encoding)
        [fr] = pm.translate_files([f], Options())
        path = tmp_path / "k.cu"
        path.write_bytes(data)
        assert main(["hipify", str(path)]) == 0
        cli_bytes = capsysbinary.readouterr().out
        assert fr.output_bytes() == cli_bytes
        assert "hipDeviceSynchronize();" in fr.result.output
        assert f.encoding == expected
        assert ("共享内存示例" if encoding == "gbk" else "mémoire partagée") in fr.result.output
