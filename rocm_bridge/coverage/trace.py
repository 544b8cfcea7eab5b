"""Trace Keras models with TensorFlow and collect every graph node (nested function bodies included).

Tracing builds the graph without running it, so tensorflow-cpu is enough and no data is needed. Two phases are
traced: inference (`model(x, training=False)`) and one training step (forward, a generic loss, gradients and an
optimizer update), since the backward pass brings its own ops (Conv2DBackpropFilter, ReluGrad, ...).

TensorFlow and Keras are imported inside the functions that need them (import takes ~5 s).
"""

from __future__ import annotations

import os
import re
import threading
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from rocm_bridge.errors import BackendUnavailable, RocmBridgeError, UnsupportedFile
from rocm_bridge.errors import OutOfMemory as OutOfMemoryUpload

INFERENCE = "inference"
TRAINING = "training"
PHASES: tuple[str, ...] = (INFERENCE, TRAINING)

# Keras' global state (layer-name counters, dtype policy) is not thread-safe: one trace at a time.
_trace_lock = threading.Lock()


@dataclass(frozen=True)
class OpNode:
    """One graph node, reduced to what kernel lookup needs: op type and dtype attributes."""

    op: str
    attrs: tuple[tuple[str, str | tuple[str, ...]], ...] = ()  # (attr, dtype) or (attr, (dtype, ...)), sorted
    phase: str = INFERENCE

    @property
    def attr_dict(self) -> dict[str, str | tuple[str, ...]]:
        return dict(self.attrs)

    @property
    def dtypes(self) -> tuple[str, ...]:
        out: list[str] = []
        for key, value in self.attrs:
            if key == "_kernel":  # a kernel label, not a dtype
                continue
            for v in (value,) if isinstance(value, str) else value:
                if v not in out:
                    out.append(v)
        return tuple(out)


@dataclass(frozen=True)
class TracedModel:
    name: str  # example key or uploaded file name (user text: escape when showing it)
    nodes: tuple[OpNode, ...]
    phases: tuple[str, ...]
    n_params: int = 0
    tf_version: str = ""
    keras_version: str = ""
    notes: tuple[str, ...] = field(default=())  # catalog keys of things the user should know about this trace

    @property
    def op_types(self) -> list[str]:
        return sorted({n.op for n in self.nodes})

    def counts(self) -> Counter:
        return Counter(n.op for n in self.nodes)


_SAFE_OP = re.compile(r"^[A-Za-z0-9_.>\-]{1,200}$")


def display_name(name: str, limit: int = 80) -> str:
    """A user-supplied name (file name) reduced to letters, digits and . - _ space, safe in Markdown, Plotly
    titles and CSV; the file name is user text, never markup."""
    cleaned = re.sub(r"[^\w.\- ]", "_", name.replace("\\", "/").rsplit("/", 1)[-1]).strip() or "model"
    return cleaned[:limit]


def plain_text(text: str, limit: int = 300) -> str:
    """Error details that may quote user data (a Keras config), stripped of Markdown/HTML syntax."""
    return re.sub(r"[\[\]()<>`*_|#!\\]", " ", text)[:limit]


def safe_op_name(op: str) -> str:
    """Op types from an uploaded graph are user data: anything that is not an op-like name is neutralised."""
    return op if _SAFE_OP.match(op) else re.sub(r"[^A-Za-z0-9_.>\-]", "_", op)[:200] or "_"


def tensorflow_installed() -> bool:
    """Whether TensorFlow can be found, without importing it (importing takes ~5 s)."""
    import importlib.util

    try:
        return importlib.util.find_spec("tensorflow") is not None and importlib.util.find_spec("keras") is not None
    except (ImportError, ValueError):
        return False


def import_tensorflow():
    """(tf, keras) or BackendUnavailable with a message a user can act on."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    os.environ.setdefault("KERAS_BACKEND", "tensorflow")
    try:
        import keras
        import tensorflow as tf
    except Exception as exc:  # noqa: BLE001 - ImportError, or a broken install raising anything
        raise BackendUnavailable("coverage.err.no_tensorflow", detail=plain_text(str(exc), 200)) from None
    if keras.backend.backend() != "tensorflow":
        raise BackendUnavailable("coverage.err.keras_backend", backend=keras.backend.backend())
    return tf, keras


def _node_attrs(node_def, op_def) -> tuple[tuple[str, str | tuple[str, ...]], ...]:
    """Type and list(type) attributes of a node, defaults from the op's definition filled in.

    Function bodies may omit attributes that equal their default; kernel lookup sees the defaults.
    """
    from tensorflow.python.framework import dtypes

    out = _default_dtype_attrs(op_def, dtypes)
    for key, value in node_def.attr.items():
        kind = value.WhichOneof("value")
        if kind == "type":
            out[key] = dtypes.as_dtype(value.type).name
        elif kind == "list" and value.list.type:
            out[key] = tuple(dtypes.as_dtype(t).name for t in value.list.type)
        elif key == "_kernel" and kind == "s":
            out[key] = value.s.decode("utf-8", "replace")
        elif (
            kind == "list" and op_def is not None and any(a.name == key and a.type == "list(type)" for a in op_def.attr)
        ):
            out[key] = ()
    return tuple(sorted(out.items()))


def graph_def_nodes(graph_def, phase: str) -> list[OpNode]:
    """Every node of a GraphDef: its top-level nodes and the bodies of every function in its library
    (tf.function calls, While/If bodies, gradient functions)."""
    from tensorflow.python.framework import op_def_registry

    defs: dict[str, object] = {}

    def op_def(op: str):
        if op not in defs:
            defs[op] = op_def_registry.get(op)
        return defs[op]

    node_defs = list(graph_def.node)
    for fn in graph_def.library.function:
        node_defs.extend(fn.node_def)
    return [OpNode(n.op, _node_attrs(n, op_def(n.op)), phase) for n in node_defs]


def _specs(tf, model) -> list:
    inputs = getattr(model, "inputs", None)
    if not inputs:
        raise UnsupportedFile("coverage.err.no_inputs")
    specs = []
    for tensor in inputs:
        shape = tuple(tensor.shape)
        specs.append(tf.TensorSpec(shape, tensor.dtype))
    return specs


def _count_params(model) -> int:
    try:
        return int(model.count_params())
    except Exception:  # noqa: BLE001 - an unbuilt model simply has no count
        return 0


def trace_keras_model(model, name: str, phases: Iterable[str] = PHASES) -> TracedModel:
    """Trace a built Keras model (functional or Sequential with known inputs)."""
    tf, keras = import_tensorflow()
    phases = tuple(p for p in PHASES if p in set(phases))
    specs = _specs(tf, model)
    nodes: list[OpNode] = []
    single = len(specs) == 1

    def call(args, training):
        return model(args[0] if single else list(args), training=training)

    if INFERENCE in phases:
        fn = tf.function(lambda *args: call(args, False))
        graph = fn.get_concrete_function(*specs).graph.as_graph_def()
        nodes += graph_def_nodes(graph, INFERENCE)
    if TRAINING in phases:
        if not model.trainable_variables:
            phases = tuple(p for p in phases if p != TRAINING)
        else:
            optimizer = keras.optimizers.Adam(learning_rate=1e-3)
            optimizer.build(model.trainable_variables)

            def step(*args):
                with tf.GradientTape() as tape:
                    out = call(args, True)
                    outs = tf.nest.flatten(out)
                    # A generic loss: every output contributes, so every layer's backward pass is traced.
                    loss = tf.add_n([tf.reduce_mean(tf.square(tf.cast(o, tf.float32))) for o in outs])
                grads = tape.gradient(loss, model.trainable_variables)
                pairs = [(g, v) for g, v in zip(grads, model.trainable_variables, strict=True) if g is not None]
                optimizer.apply_gradients(pairs)
                return loss

            graph = tf.function(step).get_concrete_function(*specs).graph.as_graph_def()
            nodes += graph_def_nodes(graph, TRAINING)
    return TracedModel(
        name,
        tuple(nodes),
        phases,
        n_params=_count_params(model),
        tf_version=tf.__version__,
        keras_version=keras.__version__,
        notes=("coverage.note.traced_on_cpu",),
    )


def trace_with(builder: Callable, name: str, phases: Iterable[str] = PHASES) -> TracedModel:
    """Build a model with builder(keras) and trace it, holding the trace lock."""
    _, keras = import_tensorflow()
    with _trace_lock:
        model = builder(keras)
        return trace_keras_model(model, name, phases)


def nodes_from_records(records: Iterable[dict]) -> list[OpNode]:
    """OpNodes from the grouped JSON records of data/example_model_ops.json ({op, attrs, phase, count})."""
    out: list[OpNode] = []
    for rec in records:
        attrs = tuple(sorted((k, v if isinstance(v, str) else tuple(v)) for k, v in rec.get("attrs", {}).items()))
        out.extend([OpNode(rec["op"], attrs, rec.get("phase", INFERENCE))] * int(rec.get("count", 1)))
    return out


def records_from_nodes(nodes: Iterable[OpNode]) -> list[dict]:
    """Group nodes by (phase, op, attrs) with a count: the JSON form (deterministic order)."""
    counts = Counter(nodes)
    out = []
    for node in sorted(counts, key=lambda n: (PHASES.index(n.phase), n.op, repr(n.attrs))):
        attrs = {k: (v if isinstance(v, str) else list(v)) for k, v in node.attrs}
        out.append({"phase": node.phase, "op": node.op, "attrs": attrs, "count": counts[node]})
    return out


# --- SavedModel: read the graph, never load or run it ---------------------------------------------------------

_SAVER_FUNCTION_MARKERS = ("_traced_save", "_traced_restore")


def _function_refs(node_def) -> list[str]:
    """Names of the functions a node calls: func / list(func) attributes (f, body, cond, branches...)."""
    refs = []
    for value in node_def.attr.values():
        kind = value.WhichOneof("value")
        if kind == "func":
            refs.append(value.func.name)
        elif kind == "list":
            refs.extend(f.name for f in value.list.func)
    return refs


def saved_model_nodes(graph_def, signature_outputs: Iterable[str]) -> list:
    """NodeDefs reachable from the signature outputs: the top-level nodes they depend on and the bodies of the
    functions those call, recursively. Saver functions (checkpoint save/restore) are left out."""
    by_name = {n.name: n for n in graph_def.node}
    library = {f.signature.name: f for f in graph_def.library.function}
    seen_nodes: set[str] = set()
    seen_fns: set[str] = set()
    out = []
    stack = [t.split(":")[0].lstrip("^") for t in signature_outputs]
    fn_stack: list[str] = []
    while stack:
        name = stack.pop()
        if name in seen_nodes or name not in by_name:
            continue
        seen_nodes.add(name)
        node = by_name[name]
        out.append(node)
        stack.extend(i.split(":")[0].lstrip("^") for i in node.input)
        fn_stack.extend(_function_refs(node) + ([node.op] if node.op in library else []))
    while fn_stack:
        fname = fn_stack.pop()
        if fname in seen_fns or fname not in library or any(m in fname for m in _SAVER_FUNCTION_MARKERS):
            continue
        seen_fns.add(fname)
        for node in library[fname].node_def:
            out.append(node)
            fn_stack.extend(_function_refs(node) + ([node.op] if node.op in library else []))
    return out


def _default_dtype_attrs(op_def, dtypes) -> dict[str, str | tuple[str, ...]]:
    """The op's type attributes with defaults: function bodies may omit them, kernel lookup sees them."""
    out: dict[str, str | tuple[str, ...]] = {}
    if op_def is not None:
        for a in op_def.attr:
            if a.type == "type" and a.HasField("default_value"):
                out[a.name] = dtypes.as_dtype(a.default_value.type).name
            elif a.type == "list(type)" and a.HasField("default_value"):
                out[a.name] = tuple(dtypes.as_dtype(t).name for t in a.default_value.list.type)
    return out


def raw_node_attrs(op_def, raw: Iterable) -> tuple[tuple[str, str | tuple[str, ...]], ...]:
    """_node_attrs for a node that graph_worker.py described as [(attr, "type"|"list"|"s", value)]. An enum
    that is no TensorFlow dtype (999) raises TypeError; the caller turns it into a message."""
    from tensorflow.python.framework import dtypes

    out = _default_dtype_attrs(op_def, dtypes)
    for key, kind, value in raw:
        if kind == "type":
            out[key] = dtypes.as_dtype(int(value)).name
        elif kind == "list" and value:
            out[key] = tuple(dtypes.as_dtype(int(t)).name for t in value)
        elif kind == "s":
            out[key] = str(value)
        elif kind == "list" and op_def is not None and any(a.name == key and a.type == "list(type)" for a in op_def.attr):
            out[key] = ()
    return tuple(sorted(out.items()))


def trace_saved_model_pb(pb: bytes, name: str) -> TracedModel:
    """The ops of a SavedModel's serving signature(s), read from saved_model.pb as a protobuf: counted, then
    parsed in a child process with a memory limit (rocm_bridge.coverage.upload.parse_graph)."""
    from rocm_bridge.coverage import upload

    records = upload.parse_graph(pb, name)  # caps and the child process first: TensorFlow not needed yet
    tf, keras = import_tensorflow()
    from tensorflow.python.framework import op_def_registry

    nodes: list[OpNode] = []
    try:
        for op, raw, count in records:
            node = OpNode(safe_op_name(op), raw_node_attrs(op_def_registry.get(op), raw), INFERENCE)
            nodes.extend([node] * count)
    except (TypeError, ValueError, KeyError):
        raise UnsupportedFile("security.cov_bad_graph", name=name) from None
    return TracedModel(
        name,
        tuple(nodes),
        (INFERENCE,),
        tf_version=tf.__version__,
        keras_version=keras.__version__,
        notes=("coverage.note.saved_model",),
    )


def _stage(stage: str, name: str, fn: Callable, *args):
    """Run one stage of an upload's analysis: our own errors pass through; anything else (RecursionError,
    TypeError, MemoryError deep in a library) becomes a message naming the stage, never a traceback."""
    try:
        return fn(*args)
    except RocmBridgeError:
        raise
    except MemoryError:
        raise OutOfMemoryUpload("security.cov_memory", name=name) from None
    except Exception as exc:  # noqa: BLE001 - a visitor's file must never show a traceback
        raise UnsupportedFile(f"security.cov_failed_{stage}", name=name,
                              detail=plain_text(type(exc).__name__ + ": " + str(exc), 200)) from None


def trace_upload(data: bytes, name: str, phases: Iterable[str] = PHASES) -> TracedModel:
    """Trace an uploaded .keras file or zipped SavedModel (checked by rocm_bridge.coverage.upload first).
    One at a time per server: a second upload meanwhile gets Busy."""
    from rocm_bridge.coverage import upload

    suffix = name.lower().rsplit(".", 1)[-1] if "." in name else ""
    name = display_name(name)
    if f".{suffix}" not in upload.SUFFIXES:
        raise UnsupportedFile("coverage.err.suffix", name=name, allowed=", ".join(upload.SUFFIXES))
    upload.check_size(data, name)
    with upload.heavy_slot():
        info = _stage("archive", name, upload.inspect_zip, data, name)
        if suffix == "keras":
            # refuses bad archives, deep or huge configs and Lambda layers before TensorFlow loads
            _stage("config", name, upload.precheck_keras, data, name)
            import_tensorflow()  # a clear message where TensorFlow is missing; the child imports its own
            return _stage("load", name, upload.trace_keras_child, data, name, phases)
        entry = upload.saved_model_entry(info)
        pb = _stage("archive", name, upload.read_member, data, name, entry)
        return _stage("graph", name, trace_saved_model_pb, pb, name)
