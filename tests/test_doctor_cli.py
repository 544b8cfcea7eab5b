"""`python -m rocm_bridge doctor`: exit codes, JSON and Markdown on recorded systems (--root fixture)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rocm_bridge.cli import main

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "data" / "doctor_examples"


@pytest.mark.parametrize(
    ("name", "code", "verdict"),
    [("rocm_healthy", 0, None), ("gfx1032_override", 0, "gfx_supported"), ("not_in_render_group", 1, "groups"),
     ("tf_import_hang", 1, "tf_import"), ("nvidia_healthy", 0, None), ("cpu_only", 1, "no_gpu")],
)
def test_exit_codes_and_json(name, code, verdict, capsys):
    assert main(["doctor", "--json", "--root", str(FIXTURES / name)]) == code
    data = json.loads(capsys.readouterr().out)
    assert data["exit_code"] == code
    assert (data["verdict"] or {}).get("id") == verdict
    assert {c["status"] for c in data["checks"]} <= {"ok", "warn", "fail", "skipped"}
    assert "formula" in data and "facts" in data


def test_text_and_markdown_output(capsys):
    assert main(["doctor", "--root", str(FIXTURES / "gfx1032_no_override"), "--lang", "zh"]) == 1
    text = capsys.readouterr().out
    assert "gfx1032" in text and "结论" in text
    assert main(["doctor", "--markdown", "--root", str(FIXTURES / "wheel_rocm_mismatch")]) == 1
    md = capsys.readouterr().out
    assert md.startswith("# ROCm Bridge doctor report") and "| ROCm | 5.7.1-74 |" in md
    assert "Compatible = 0" in md


def test_bad_arguments(capsys):
    assert main(["doctor", "--root", str(FIXTURES / "does_not_exist")]) == 2
    assert "not a directory" in capsys.readouterr().err
    with pytest.raises(SystemExit) as err:
        main(["doctor", "--lang", "fr"])
    assert err.value.code == 2


def test_module_entry_point_on_this_host():
    """The real command in a subprocess, TensorFlow skipped: valid JSON and an exit code that matches it."""
    proc = subprocess.run([sys.executable, "-m", "rocm_bridge", "doctor", "--json", "--no-tensorflow"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    data = json.loads(proc.stdout)
    assert proc.returncode == data["exit_code"] in (0, 1)
    assert data["verdict"] is None or data["verdict"]["status"] in ("fail", "warn")
