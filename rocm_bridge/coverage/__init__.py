"""Operator coverage: which ops of a TensorFlow model have GPU kernels on a ROCm (or CUDA) build.

    from rocm_bridge import coverage
    model = coverage.trace_example("small_cnn")             # needs TensorFlow (~5 s to import)
    nodes = coverage.example_nodes("small_cnn")              # or the precomputed op list, no TensorFlow
    report = coverage.analyze(nodes, coverage.resolve("rocm-2.14"))
    report.r_ops, report.r_nodes, report.fallback

Modules: registry (snapshots, live registry, match_op), trace (Keras/SavedModel graphs -> OpNode),
models (bundled examples), analysis (reports, R_coverage, CSV), upload (safe checks of uploaded archives).
Importing this package imports neither TensorFlow nor pandas nor streamlit.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from rocm_bridge.coverage.analysis import CoverageReport, OpRow, analyze, differences, to_csv
from rocm_bridge.coverage.models import EXAMPLES
from rocm_bridge.coverage.registry import (
    LIVE,
    STATUSES,
    Registry,
    default_pair,
    list_snapshots,
    live_registry,
    match_op,
    resolve,
)
from rocm_bridge.coverage.trace import PHASES, OpNode, TracedModel, nodes_from_records, trace_upload
from rocm_bridge.errors import UnsupportedFile

# the example a first visit shows: one with a real gap on ROCm 2.14 (no bfloat16 Relu kernel), not a 100 % model
DEFAULT_EXAMPLE = "cnn_mixed_bf16"
EXAMPLE_OPS_PATH = Path(__file__).resolve().parent.parent.parent / "data" / "example_model_ops.json"

__all__ = [
    "DEFAULT_EXAMPLE",
    "EXAMPLES",
    "LIVE",
    "PHASES",
    "STATUSES",
    "CoverageReport",
    "OpNode",
    "OpRow",
    "Registry",
    "TracedModel",
    "analyze",
    "default_pair",
    "differences",
    "example_model",
    "example_nodes",
    "example_op_lists",
    "list_snapshots",
    "live_registry",
    "match_op",
    "resolve",
    "to_csv",
    "trace_example",
    "trace_upload",
]


@lru_cache(maxsize=1)
def _example_ops_file() -> dict:
    with EXAMPLE_OPS_PATH.open(encoding="utf-8") as fh:
        return json.load(fh)


def example_op_lists() -> dict[str, dict]:
    """The precomputed traces of the bundled examples (data/example_model_ops.json), read without TensorFlow.

    {model key: {"n_params", "phases", "ops": [{"phase", "op", "attrs", "count"}, ...]}}; the file's
    "generated_with" block says which TensorFlow/Keras made it (tools/export_model_ops.py).
    """
    return _example_ops_file()["models"]


def example_provenance() -> dict:
    return dict(_example_ops_file()["generated_with"])


def example_nodes(key: str) -> list[OpNode]:
    models = example_op_lists()
    if key not in models:
        raise UnsupportedFile("coverage.err.unknown_model", name=key[:120], known=", ".join(models))
    return nodes_from_records(models[key]["ops"])


def example_model(key: str) -> TracedModel:
    """A bundled example from the precomputed file, as a TracedModel (no TensorFlow)."""
    nodes = example_nodes(key)
    info = example_op_lists()[key]
    prov = example_provenance()
    return TracedModel(
        key,
        tuple(nodes),
        tuple(info["phases"]),
        n_params=int(info.get("n_params", 0)),
        tf_version=prov.get("tensorflow", ""),
        keras_version=prov.get("keras", ""),
        notes=("coverage.note.precomputed",),
    )


def trace_example(key: str, phases=PHASES) -> TracedModel:
    """Build and trace a bundled example with the installed TensorFlow."""
    from rocm_bridge.coverage.trace import trace_with

    if key not in EXAMPLES:
        raise UnsupportedFile("coverage.err.unknown_model", name=key[:120], known=", ".join(EXAMPLES))
    return trace_with(EXAMPLES[key].build, key, phases)
