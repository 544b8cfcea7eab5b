"""Parse an uploaded saved_model.pb in a child process with a memory limit (docs/security.md, threat "upload
takes gigabytes").

    python -m rocm_bridge.coverage.graph_worker < saved_model.pb > result.json

The child caps its own address space first (RLIMIT_AS), then parses the protobuf with the SavedModel message
classes alone: `tensorflow` is registered as a bare namespace package, so `tensorflow.core.protobuf` loads
without TensorFlow's runtime (0.1 s and ~20 MB instead of ~5 s and ~1 GB). It walks the nodes reachable from the
serving signatures (trace.saved_model_nodes) and writes each distinct (op, dtype attributes) once with its count,
so the parent never holds a parsed graph. A graph past the caps, a memory error or a parse error becomes a
reason code; the parent turns it into a translated message.

Output: {"ok": true, "nodes": [[op, [[attr, kind, value], ...], count], ...], "total": n}
        or {"ok": false, "reason": "not_saved_model" | "no_signature" | "too_many_nodes" | "memory" | "failed"}
"""

from __future__ import annotations

import json
import os
import sys

# Set by the parent (rocm_bridge.coverage.upload); the defaults are for a manual run.
MEMORY_ENV, NODES_ENV, FUNCTIONS_ENV = "RB_GRAPH_MEMORY", "RB_GRAPH_MAX_NODES", "RB_GRAPH_MAX_FUNCTIONS"


def _limit_memory(limit: int) -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _saved_model_class():
    import importlib.util
    import types

    if "tensorflow" not in sys.modules:
        spec = importlib.util.find_spec("tensorflow")
        if spec is None or not spec.submodule_search_locations:
            raise ImportError("tensorflow")
        pkg = types.ModuleType("tensorflow")
        pkg.__path__ = list(spec.submodule_search_locations)
        sys.modules["tensorflow"] = pkg
    from tensorflow.core.protobuf import saved_model_pb2

    return saved_model_pb2.SavedModel


def _attrs(node) -> tuple:
    """The node's type attributes as raw enums: (name, "type", int) | (name, "list", [int]) | (name, "s", str)."""
    out = []
    for key, value in node.attr.items():
        kind = value.WhichOneof("value")
        if kind == "type":
            out.append((key, "type", int(value.type)))
        elif kind == "list":
            out.append((key, "list", tuple(int(t) for t in value.list.type)))
        elif key == "_kernel" and kind == "s":
            out.append((key, "s", value.s.decode("utf-8", "replace")[:200]))
    return tuple(sorted(out, key=lambda a: a[0]))


def parse(pb: bytes, max_nodes: int, max_functions: int) -> dict:
    from google.protobuf.message import DecodeError

    from rocm_bridge.coverage.trace import saved_model_nodes

    saved = _saved_model_class()()
    try:
        saved.ParseFromString(pb)
    except (DecodeError, ValueError, RuntimeError):
        # upb reports running out of memory as a DecodeError: if 8x the message no longer fits, say memory
        try:
            bytearray(len(pb) * 8)
        except MemoryError:
            return {"ok": False, "reason": "memory"}
        return {"ok": False, "reason": "not_saved_model"}
    del pb
    if not saved.meta_graphs:
        return {"ok": False, "reason": "not_saved_model"}
    meta = saved.meta_graphs[0]
    graph = meta.graph_def
    total = len(graph.node) + sum(len(f.node_def) for f in graph.library.function)
    if total > max_nodes or len(graph.library.function) > max_functions:
        return {"ok": False, "reason": "too_many_nodes"}
    outputs = [t.name for sig in meta.signature_def.values() for t in sig.outputs.values()]
    if not outputs:
        return {"ok": False, "reason": "no_signature"}
    counts: dict[tuple, int] = {}
    n = 0
    for node in saved_model_nodes(graph, outputs):
        key = (node.op[:300], _attrs(node))
        counts[key] = counts.get(key, 0) + 1
        n += 1
    nodes = [[op, [[k, kind, list(v) if kind == "list" else v] for k, kind, v in attrs], c]
             for (op, attrs), c in counts.items()]
    return {"ok": True, "nodes": nodes, "total": n}


def main() -> int:
    _limit_memory(int(os.environ.get(MEMORY_ENV, str(1 << 30))))
    try:
        pb = sys.stdin.buffer.read()
        result = parse(pb, int(os.environ.get(NODES_ENV, "300000")), int(os.environ.get(FUNCTIONS_ENV, "10000")))
    except MemoryError:
        result = {"ok": False, "reason": "memory"}
    except RecursionError:
        result = {"ok": False, "reason": "not_saved_model"}
    except Exception:  # noqa: BLE001 - the parent shows a message; a traceback would quote server paths
        result = {"ok": False, "reason": "failed"}
    sys.stdout.write(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
