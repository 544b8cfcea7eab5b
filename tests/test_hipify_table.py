"""Generated from data/hipify_mappings.csv: every row with a HIP name is applied in a call or type context,
for its own target (default HIP rows; roc rows with --roc / --miopen)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from rocm_bridge.hipify.args import pick, rewrite
from rocm_bridge.hipify.index import MIOPEN_GROUPS, ROC_GROUPS
from rocm_bridge.hipify.translator import OVERLOADS, SYMBOL_ARGS, Options, translate

CSV = Path(__file__).resolve().parent.parent / "data" / "hipify_mappings.csv"


def _rows() -> list[dict[str, str]]:
    with CSV.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _expected_tables():
    """(options, {cuda_name: row}) for each target, following the documented choice rules: the first row of a
    name with a translation wins inside a variant; roc rows replace hip rows only for their groups."""
    hip: dict[str, dict] = {}
    roc: dict[str, dict] = {}
    for row in _rows():
        table = hip if row["variant"] == "hip" else roc
        old = table.get(row["cuda_name"])
        if old is None or (row["hip_name"] and not old["hip_name"]):
            table[row["cuda_name"]] = row
    default = dict(hip)
    rocmiopen = dict(hip)
    rocmiopen.update({k: v for k, v in roc.items() if v["api_group"] in ROC_GROUPS + MIOPEN_GROUPS})
    return [(Options(experimental=True), default), (Options(roc=True, miopen=True, experimental=True), rocmiopen)]


TABLES = _expected_tables()


@pytest.mark.parametrize("which", [0, 1], ids=["hip", "roc+miopen"])
def test_every_row_with_a_hip_name_is_applied(which):
    opts, table = TABLES[which]
    names = [n for n, row in table.items() if row["hip_name"] and n not in OVERLOADS]
    assert len(names) > 4000 if which == 0 else len(names) > 3500
    # one statement per name: a call for functions, a declaration for everything else
    lines = []
    for name in names:
        kind = table[name]["kind"]
        lines.append(f"  {name}(x, y);" if kind in ("function", "device_function") else f"  {name} v_{len(lines)};")
    source = "void f() {\n" + "\n".join(lines) + "\n}\n"
    out = translate(source, opts).output.splitlines()
    body = [line for line in out if line.startswith("  ")]
    assert len(body) == len(names)
    wrong = []
    for name, line in zip(names, body, strict=True):
        hip = table[name]["hip_name"]
        kind = table[name]["kind"]
        lib = table[name]["target_library"]
        rule = pick(name, "miopen" if lib == "MIOpen" else "roc" if lib.startswith("roc") else "hip", 2)
        if rule is not None:  # an argument rule of rocm_bridge.hipify.args applies to this 2-argument call
            expected = f"  {hip}({rewrite(['x', 'y'], [', '], rule)});"
        elif SYMBOL_ARGS.get(name, 9) < 2:  # the symbol argument gets HIP_SYMBOL(...)
            args = ["x", "y"]
            args[SYMBOL_ARGS[name]] = f"HIP_SYMBOL({args[SYMBOL_ARGS[name]]})"
            expected = f"  {hip}({', '.join(args)});"
        elif kind in ("function", "device_function"):
            expected = f"  {hip}(x, y);"
        else:
            expected = f"  {hip} v_"
        if not line.startswith(expected):
            wrong.append((name, hip, line))
    assert wrong == []


def test_unsupported_rows_are_left_and_reported():
    opts, table = TABLES[0]
    names = [n for n, row in table.items() if not row["hip_name"]][:300]
    source = "\n".join(f"{n}();" for n in names) + "\n"
    result = translate(source, opts)
    assert result.output.splitlines()[1:] == [f"{n}();" for n in names]  # after the hip_runtime.h include
    assert [r.name for r in result.unconverted] == names
    assert all(r.status == "unsupported" for r in result.unconverted)


def test_overloads_follow_the_argument_count():
    out = translate("cudaEventCreate(&e);\ncudaEventCreate(&e, 0);\n").output
    assert out.splitlines()[-2:] == ["hipEventCreate(&e);", "hipEventCreateWithFlags(&e, 0);"]
