"""Trace the bundled example models and write their op lists to data/example_model_ops.json.

Pages that must not import TensorFlow (the formula lab's coverage widget, the coverage page when TensorFlow is
missing) read that file through rocm_bridge.coverage.example_op_lists(). Re-run after changing an example in
rocm_bridge/coverage/models.py or upgrading TensorFlow/Keras; tests/test_coverage_trace.py checks the file
matches a fresh trace.

    python tools/export_model_ops.py [-o PATH]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def build_document() -> dict:
    from rocm_bridge.coverage import EXAMPLES, trace_example
    from rocm_bridge.coverage.trace import records_from_nodes

    models = {}
    versions = {}
    for key in EXAMPLES:
        traced = trace_example(key)
        versions = {"tensorflow": traced.tf_version, "keras": traced.keras_version}
        models[key] = {
            "n_params": traced.n_params,
            "phases": list(traced.phases),
            "n_nodes": len(traced.nodes),
            "ops": records_from_nodes(traced.nodes),
        }
    return {
        "generated_with": versions | {"tool": "tools/export_model_ops.py", "device": "CPU (tracing only)"},
        "models": models,
    }


def render(doc: dict) -> str:
    """JSON with one op record per line: small, and diffs read well after a TensorFlow upgrade."""
    lines = ["{", f' "generated_with": {json.dumps(doc["generated_with"])},', ' "models": {']
    items = list(doc["models"].items())
    for i, (key, model) in enumerate(items):
        head = {k: v for k, v in model.items() if k != "ops"}
        lines.append(f'  {json.dumps(key)}: {json.dumps(head)[:-1]}, "ops": [')
        records = [f"   {json.dumps(r)}" for r in model["ops"]]
        lines.append(",\n".join(records))
        lines.append("  ]}" + ("," if i < len(items) - 1 else ""))
    lines.append(" }")
    lines.append("}")
    text = "\n".join(lines) + "\n"
    assert json.loads(text) == doc
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", help="output path (default: data/example_model_ops.json)")
    args = parser.parse_args(argv)
    from rocm_bridge.coverage import EXAMPLE_OPS_PATH

    doc = build_document()
    out = Path(args.output) if args.output else EXAMPLE_OPS_PATH
    out.write_text(render(doc), encoding="utf-8")
    n = sum(m["n_nodes"] for m in doc["models"].values())
    print(f"wrote {out}: {len(doc['models'])} models, {n} nodes, TensorFlow {doc['generated_with']['tensorflow']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
