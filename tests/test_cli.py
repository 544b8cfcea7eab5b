"""The command line: dispatch, help, unknown commands, and every command documented in the README."""

import subprocess
import sys
from pathlib import Path

import pytest

from rocm_bridge import cli

ROOT = Path(__file__).resolve().parent.parent


def run(*args):
    return subprocess.run([sys.executable, "-m", "rocm_bridge", *args], cwd=ROOT, capture_output=True, text=True)


def test_overview_lists_every_command():
    out = run("--help")
    assert out.returncode == 0
    for name in cli.COMMANDS:
        assert name in out.stdout


def test_unknown_command_is_a_usage_error():
    out = run("frobnicate")
    assert out.returncode == cli.EXIT_USAGE
    assert "unknown command" in out.stderr


@pytest.mark.parametrize("name", list(cli.COMMANDS))
def test_each_command_has_help_and_is_documented(name):
    out = run(name, "--help")
    assert out.returncode == 0, out.stderr
    assert f"python -m rocm_bridge {name}" in out.stdout
    assert f"python -m rocm_bridge {name}" in (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("columns", [50, 120])
def test_help_wraps_at_the_terminal_width_measured_once(columns, monkeypatch):
    import os

    env = dict(os.environ, COLUMNS=str(columns))
    out = subprocess.run([sys.executable, "-m", "rocm_bridge", "hipify", "--help"], cwd=ROOT, capture_output=True,
                         text=True, env=env)
    # prose wraps at the width (a single option name longer than the line cannot, as in argparse itself)
    prose = [line for line in out.stdout.splitlines() if not line.strip().startswith(("-", "["))]
    assert out.returncode == 0 and max(map(len, prose)) <= columns
    assert max(map(len, prose)) > columns - 15  # it does use the width it is given
    monkeypatch.setenv("COLUMNS", "not a number")
    assert cli.terminal_columns() > 0
    monkeypatch.setenv("COLUMNS", "77")
    assert cli.terminal_columns() == 77
