"""Hostile files, built in memory so a reviewer can read exactly what each one is.

SavedModel protobufs are written straight in the protobuf wire format (no TensorFlow needed, and a 2M-node
graph takes a fraction of a second to build): field numbers from tensorflow/core/protobuf/saved_model.proto,
meta_graph.proto and tensorflow/core/framework/{graph,node_def,attr_value,function}.proto.
"""

from __future__ import annotations

import io
import json
import stat
import zipfile


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _msg(field: int, payload: bytes) -> bytes:
    return _varint(field << 3 | 2) + _varint(len(payload)) + payload


def _str(field: int, text: str) -> bytes:
    return _msg(field, text.encode())


def node(name: str, op: str, inputs: tuple[str, ...] = (), dtype: int | None = None) -> bytes:
    """NodeDef: name = 1, op = 2, input = 3, attr = 5 (map<string, AttrValue>; AttrValue.type = 6)."""
    body = _str(1, name) + _str(2, op) + b"".join(_str(3, i) for i in inputs)
    if dtype is not None:
        body += _msg(5, _str(1, "T") + _msg(2, _varint(6 << 3) + _varint(dtype)))
    return _msg(1, body)


def saved_model(nodes: bytes, output: str = "y:0", functions: bytes = b"") -> bytes:
    """SavedModel.meta_graphs = 2 -> MetaGraphDef {graph_def = 2, signature_def = 5}."""
    graph = nodes + (_msg(2, functions) if functions else b"")
    tensor_info = _str(1, output)
    signature = _msg(2, _str(1, "y") + _msg(2, tensor_info))  # SignatureDef.outputs = 2
    meta = _msg(2, graph) + _msg(5, _str(1, "serving_default") + _msg(2, signature))
    return _msg(2, meta)


def zip_of(entries: dict[str, bytes], compression: int = zipfile.ZIP_DEFLATED, level: int | None = None) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression, compresslevel=level) as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
    return buf.getvalue()


# --- the files ------------------------------------------------------------------------------------------


def keras_nested(depth: int = 200_000) -> bytes:
    """A .keras whose config.json nests `depth` lists: 1.4 KB zipped, RecursionError in json before the fix."""
    config = b"[" * depth + b"]" * depth
    return zip_of({"metadata.json": b"{}", "config.json": config, "model.weights.h5": b""})


def saved_model_bad_dtype(enum: int = 999) -> bytes:
    """A zipped SavedModel whose one node has dtype enum 999: TypeError in dtypes.as_dtype before the fix."""
    return zip_of({"saved_model.pb": saved_model(node("x", "Placeholder", dtype=1) + node("y", "Relu", ("x",), enum))})


def saved_model_huge(n_nodes: int = 2_000_000, reachable: bool = False) -> bytes:
    """A zipped SavedModel with an n-node graph (2M: ~5 MB zipped, 51 MB of graph; the issue's took 62 s and
    +1.9 GB before the fix). reachable: the output depends on every node, so all of them are traced."""
    template = node("#######", "Const", dtype=1)  # every node the same length: only the name differs
    head, tail = template.split(b"#######")
    nodes = b"".join(head + b"%07d" % i + tail for i in range(n_nodes))
    inputs = tuple(f"{i:07d}" for i in range(n_nodes)) if reachable else ("0000000",)
    return zip_of({"saved_model.pb": saved_model(nodes + node("y", "AddN", inputs, 1))}, level=1)


def saved_model_functions(n_functions: int) -> bytes:
    """A SavedModel whose library holds n tiny functions (FunctionDefLibrary.function = 1, node_def = 3)."""
    fn = _msg(1, _msg(3, _str(1, "a") + _str(2, "Const")))
    return zip_of({"saved_model.pb": saved_model(node("y", "Const", dtype=1), functions=fn * n_functions)})


def saved_model_small() -> bytes:
    """A valid three-node graph: Placeholder -> MatMul -> Relu, all float32."""
    nodes = node("x", "Placeholder", dtype=1) + node("m", "MatMul", ("x", "x"), 1) + node("y", "Relu", ("m",), 1)
    return zip_of({"saved_model.pb": saved_model(nodes)})


# --- archives a visitor might try on any uploader ----------------------------------------------------------------


def traversal_zips() -> dict[str, bytes]:
    """Entries that point outside the archive, or are links."""
    link = zipfile.ZipInfo("variables/link")
    link.external_attr = (stat.S_IFLNK | 0o777) << 16
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("saved_model.pb", b"x")
        zf.writestr(link, b"/etc/passwd")
    out = {name: zip_of({"saved_model.pb": b"x", name: b"x"}) for name in
           ("../evil.cu", "a/../../evil.cu", "/etc/passwd", "C:/evil.cu", "..\\evil.cu")}
    out["symlink"] = buf.getvalue()
    return out


def zip_bomb(size: int = 200 * 1024 * 1024) -> bytes:
    """One entry of zeros that inflates ~1000x (200 MB from ~200 KB)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf, zf.open("saved_model.pb", "w") as fh:
        chunk = b"\0" * (1024 * 1024)
        for _ in range(size // len(chunk)):
            fh.write(chunk)
    return buf.getvalue()


def keras_config(config: object) -> bytes:
    return zip_of({"metadata.json": b"{}", "config.json": json.dumps(config).encode(), "model.weights.h5": b""})


def keras_config_bomb(layer: dict, input_shape: list | None = None) -> bytes:
    """A .keras archive of a few hundred bytes whose config declares one huge layer (no weights file: Keras builds
    every layer before it reads a weight, so the declared size alone is what it allocates)."""
    entry = {"module": "keras.layers", "registered_name": None, **layer}
    if input_shape is not None:
        entry["build_config"] = {"input_shape": input_shape}
    config = {"module": "keras", "class_name": "Sequential", "registered_name": None,
              "config": {"name": "s", "trainable": True, "layers": [
                  {"module": "keras.layers", "class_name": "InputLayer", "registered_name": None,
                   "config": {"batch_shape": [None, 10], "dtype": "int32", "name": "in"}}, entry]}}
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("metadata.json", json.dumps({"keras_version": "3.15.0"}))
        z.writestr("config.json", json.dumps(config))
    return buf.getvalue()
