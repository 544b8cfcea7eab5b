"""The core must not pull heavy or UI libraries in at import time (docs/architecture.md, rules of the house)."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("streamlit", "tensorflow", "torch", "jax", "pandas")

PROBE = """
import importlib, json, pkgutil, sys
import rocm_bridge
after_package = sorted(m for m in {heavy} if m in sys.modules)
failed = []
for info in pkgutil.walk_packages(rocm_bridge.__path__, "rocm_bridge."):
    if info.name.startswith("rocm_bridge.ui") or info.name == "rocm_bridge.__main__":
        continue
    try:
        importlib.import_module(info.name)
    except Exception as exc:
        failed.append(f"{{info.name}}: {{exc!r}}")
print(json.dumps({{"package": after_package, "core": sorted(m for m in {heavy} if m in sys.modules), "failed": failed,
                  "n": len(list(pkgutil.walk_packages(rocm_bridge.__path__, "rocm_bridge.")))}}))
"""


def test_core_imports_nothing_heavy():
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(heavy=HEAVY)], cwd=ROOT, capture_output=True, text=True, check=True
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["package"] == []
    assert result["core"] == [], f"importing core modules loaded {result['core']}"
    assert result["failed"] == []
    assert result["n"] >= 10


def test_cli_help_loads_nothing_heavy():
    probe = "import sys, runpy; sys.argv=['x','--help']\ntry:\n runpy.run_module('rocm_bridge', run_name='__main__')\nexcept SystemExit: pass\n"
    probe += f"print([m for m in {HEAVY!r} if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]"
