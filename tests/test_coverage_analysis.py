"""Reports, R_coverage (by op types and by nodes), fallback lists, differences, CSV and the CLI (no TensorFlow)."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rocm_bridge import coverage
from rocm_bridge.coverage import chart
from rocm_bridge.coverage.registry import Registry
from rocm_bridge.coverage.trace import OpNode, nodes_from_records, records_from_nodes

ROOT = Path(__file__).resolve().parent.parent

REG = Registry(
    "toy",
    {"tensorflow_version": "2.14.0", "build_info": {"is_rocm_build": True}, "method": "hand-made"},
    {
        "Conv2D": {"GPU": {"dtypes": ["float32"], "defs": [{"c": {"T": ["float32"]}}]}},
        "Relu": {"GPU": {"dtypes": ["float32"], "defs": [{"c": {"T": ["float32"]}}]}},
        "NoOp": {"DEFAULT": {"dtypes": [], "defs": [{"c": {}}]}},
        "DecodeJpeg": {"CPU": {"dtypes": [], "defs": [{"c": {}}]}},
    },
    source="hand-made",
)


def node(op, phase="inference", **attrs):
    return OpNode(op, tuple(sorted(attrs.items())), phase)


NODES = [
    node("Conv2D", T="float32"),
    node("Conv2D", T="float32"),
    node("Relu", T="float32"),
    node("Relu", T="bfloat16"),  # one node of Relu is a dtype gap: the op type is not supported
    node("NoOp"),
    node("DecodeJpeg"),
    node("Mystery", "training"),
]


def test_r_coverage_by_op_types_and_by_nodes():
    rep = coverage.analyze(NODES, REG, "toy")
    # op types: Conv2D and NoOp supported; Relu (a bf16 node), DecodeJpeg, Mystery not -> 2/5
    assert (rep.n_ops_covered, rep.n_ops) == (2, 5)
    assert rep.r_ops == pytest.approx(0.4)
    # nodes: 2 Conv2D + 1 Relu fp32 + NoOp = 4 of 7
    assert (rep.n_nodes_covered, rep.n_nodes) == (4, 7)
    assert rep.r_nodes == pytest.approx(4 / 7)
    rows = {r.op: r for r in rep.rows}
    assert rows["Relu"].status == "dtype_gap" and rows["Relu"].missing_dtypes == ("bfloat16",)
    assert rows["Relu"].dtypes == ("float32", "bfloat16") and dict(rows["Relu"].status_counts) == {
        "gpu": 1,
        "dtype_gap": 1,
    }
    assert rows["NoOp"].status == "default" and rows["DecodeJpeg"].status == "no_gpu_kernel"
    assert rows["Mystery"].status == "unknown_op" and rows["Mystery"].phases == ("training",)
    assert [r.op for r in rep.fallback] == ["DecodeJpeg", "Relu"]
    assert [r.op for r in rep.unknown] == ["Mystery"]
    assert rep.status_nodes == {"gpu": 3, "default": 1, "dtype_gap": 1, "no_gpu_kernel": 1, "unknown_op": 1}


def test_phase_filter_and_empty_graph():
    rep = coverage.analyze(NODES, REG, "toy", phases=("training",))
    assert rep.n_nodes == 1 and rep.r_ops == 0.0
    empty = coverage.analyze([], REG, "toy")
    assert empty.r_ops is None and empty.r_nodes is None


def test_a_build_without_gpu_support_covers_nothing():
    cpu = coverage.resolve("cpu-2.21")
    nodes = coverage.example_nodes("small_cnn")
    rep = coverage.analyze(nodes, cpu)
    assert not rep.gpu_build and rep.r_ops == 0.0 and rep.r_nodes == 0.0
    assert set(rep.status_ops) == {"no_gpu_build"}


def test_known_rocm_vs_cuda_difference_on_the_mixed_precision_example():
    nodes = coverage.example_nodes("cnn_mixed_bf16")
    rocm, cuda = (coverage.analyze(nodes, coverage.resolve(n), "cnn_mixed_bf16") for n in coverage.default_pair())
    diffs = {d.op: d.statuses for d in coverage.differences([rocm, cuda])}
    assert diffs == {"Relu": ("dtype_gap", "gpu"), "ReluGrad": ("dtype_gap", "gpu")}
    assert rocm.r_ops < 1.0 == cuda.r_ops
    assert {r.op for r in rocm.fallback} == {"Relu", "ReluGrad"}
    # the float32 CNN has no such gap
    plain = coverage.example_nodes("small_cnn")
    assert coverage.differences([coverage.analyze(plain, coverage.resolve(n)) for n in coverage.default_pair()]) == []


def test_csv_export_has_one_row_per_registry_and_op_and_neutralises_formulas():
    rep = coverage.analyze(NODES, REG, "=cmd|' /C calc'!A0")
    rows = list(csv.DictReader(io.StringIO(coverage.to_csv([rep, rep]))))
    assert len(rows) == 2 * rep.n_ops
    relu = next(r for r in rows if r["op"] == "Relu")
    assert (
        relu["status"] == "dtype_gap" and relu["dtypes"] == "float32 bfloat16" and relu["missing_dtypes"] == "bfloat16"
    )
    assert relu["model"].startswith("'=")


def test_combined_rows_put_problems_first_and_figure_is_stacked():
    rep = coverage.analyze(NODES, REG, "toy")
    rows = chart.combined_rows([rep])
    assert [r["op"] for r in rows][:3] == ["DecodeJpeg", "Mystery", "Relu"]
    fig = chart.status_figure([rep], str, by="nodes")
    assert {bar.name: list(bar.y) for bar in fig.data} == {s: [n] for s, n in rep.status_nodes.items()}
    assert fig.layout.barmode == "stack"


def test_records_round_trip():
    assert sorted(nodes_from_records(records_from_nodes(NODES)), key=repr) == sorted(NODES, key=repr)


def test_cli_json_uses_recorded_lists_and_finds_the_bf16_gap():
    out = subprocess.run(
        [sys.executable, "-m", "rocm_bridge", "coverage", "cnn_mixed_bf16", "--precomputed", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    doc = json.loads(out.stdout)
    assert [r["registry"] for r in doc["reports"]] == ["tensorflow-rocm-2.14.0.600", "tensorflow-2.14.0-cuda"]
    rocm = doc["reports"][0]
    assert rocm["n_op_types"] == rocm["n_op_types_supported"] + 2
    assert rocm["r_coverage_ops"] == pytest.approx(rocm["n_op_types_supported"] / rocm["n_op_types"])
    assert sorted(rocm["falls_back_to_cpu"]) == ["Relu", "ReluGrad"]
    assert {d["op"] for d in doc["differences"]} == {"Relu", "ReluGrad"}
    relu = next(o for o in rocm["ops"] if o["op"] == "Relu")
    assert relu["status"] == "dtype_gap" and relu["missing_dtypes"] == ["bfloat16"]


def test_cli_text_output_errors_and_registry_choice(capsys):
    from rocm_bridge.cli import main

    assert main(["coverage", "lstm", "--precomputed", "--registry", "cuda-2.21", "--table"]) == 0
    text = capsys.readouterr().out
    assert "TensorFlow 2.21.0 (CUDA)" in text and "While" in text and "100.0%" in text
    assert main(["coverage", "no_such_model.h5", "--precomputed"]) == 3
    assert "neither a bundled example" in capsys.readouterr().err
    assert main(["coverage", "lstm", "--precomputed", "--registry", "rocm-0.1"]) == 3
    assert main(["coverage", "--list"]) == 0
    assert "rocm-2.14" in capsys.readouterr().out
