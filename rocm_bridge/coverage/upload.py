"""Uploaded models: a Keras `.keras` file or a zipped SavedModel, checked before TensorFlow sees them.

Both are zip archives, checked by rocm_bridge.archive (shared with the hipify lab) before anything is loaded:
entry names must be plain relative paths (no '..', absolute or drive paths, backslashes), no entry may be a link
or a device, entry count and uncompressed size are capped, and an entry (or the whole archive) that expands far
more than real model data does is refused as a zip bomb. Nothing is extracted to disk: the one entry needed
(saved_model.pb) is read in memory, counting bytes as it goes. A SavedModel is never loaded or run: its graph is
read as a protobuf (loading one would run its restore and initializer functions, and TensorFlow's security guide
says models are programs).

A `.keras` file is loaded with `safe_mode=True` (no Lambda layers, no arbitrary code); its config is also
checked first for Lambda layers, non-Keras modules and file paths (defence in depth).

Resources (docs/security.md, "upload takes gigabytes" and "tracebacks"): a config's nesting depth and layer
count are bounded before json parses it; a saved_model.pb is capped in bytes, and its nodes and functions are
counted from the protobuf wire format (stopping at the cap) before anything parses it; it is then parsed in a
child process with an address-space limit (graph_worker.py), which hands back each distinct op once with a
count. One upload analysis runs at a time per server (others get a "busy" message), and results are cached
by size in bytes, not by number of entries.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import re
import subprocess
import sys
import tempfile
import threading
from collections import OrderedDict
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path, PurePosixPath

from rocm_bridge import archive, limits
from rocm_bridge.errors import Busy, FileTooLarge, OutOfMemory, TimedOut, UnsafeArchive, UnsupportedFile
from rocm_bridge.exclusive import OneAtATime

MAX_UPLOAD_BYTES = limits.server_upload_mb() * limits.MB  # server.maxUploadSize, as the browser counts it
MAX_EXTRACTED_BYTES = 256 * 1024 * 1024  # all entries together, uncompressed
MAX_ENTRIES = 2000  # a SavedModel has a handful of files; a Keras file three
MAX_RATIO = 100  # uncompressed / compressed, per entry and overall, above BOMB_MIN_BYTES
BOMB_MIN_BYTES = 1024 * 1024  # small entries (configs of zeros) may compress well; ignore them for the ratio
KERAS_CONFIG_MAX_BYTES = 8 * 1024 * 1024
KERAS_CONFIG_MAX_DEPTH = 100  # json nesting; real Keras configs nest ~20 deep
KERAS_MAX_LAYERS = 5_000  # objects with a class_name in the config
MAX_GRAPH_BYTES = 48 * 1024 * 1024  # saved_model.pb, uncompressed
MAX_GRAPH_NODES = 300_000  # top-level nodes and function-body nodes together (ResNet-50 has ~30k)
MAX_GRAPH_FUNCTIONS = 10_000
GRAPH_WORKER_MEMORY = 1024**3  # address space of the parsing child (a 299k-node graph peaks at ~215 MB)
GRAPH_WORKER_TIMEOUT_S = 120
KERAS_MAX_PARAMS = 120_000_000  # weights a config may declare (480 MB in fp32); BERT-base has 110 M
KERAS_TRAINING_MAX_PARAMS = 40_000_000  # above this only inference is traced (Adam's slots triple the weights)
KERAS_WORKER_MEMORY = 4 * 1024**3  # address space of the loading child: TensorFlow itself maps ~2 GB
KERAS_WORKER_CPU_S = 120
KERAS_WORKER_TIMEOUT_S = 180
RESULT_CACHE_BYTES = 32 * 1024 * 1024  # traced uploads kept, by pickled size
SUFFIXES = (".keras", ".zip")


@dataclass(frozen=True)
class ArchiveInfo:
    entries: int
    total_bytes: int  # uncompressed, as declared
    names: tuple[str, ...]


def check_size(data: bytes, name: str) -> None:
    if len(data) > MAX_UPLOAD_BYTES:
        raise FileTooLarge(
            "coverage.err.too_large", name=name, size_mb=limits.size_mb(len(data)), limit_mb=MAX_UPLOAD_BYTES // limits.MB
        )


LIMITS = archive.ZipLimits(max_entries=MAX_ENTRIES, max_total_bytes=MAX_EXTRACTED_BYTES, max_ratio=MAX_RATIO,
                           bomb_min_bytes=BOMB_MIN_BYTES)
# rocm_bridge.archive's reasons -> (error class, this lab's message)
_PROBLEMS: dict[str, tuple[type, str]] = {
    "not_zip": (UnsupportedFile, "coverage.err.not_zip"),
    "too_many": (UnsafeArchive, "coverage.err.too_many_files"),
    "bad_path": (UnsafeArchive, "coverage.err.bad_path"),
    "link": (UnsafeArchive, "coverage.err.link"),
    "encrypted": (UnsupportedFile, "coverage.err.encrypted"),
    "duplicate": (UnsafeArchive, "coverage.err.duplicate"),
    "bomb": (UnsafeArchive, "coverage.err.bomb"),
    "too_big": (UnsafeArchive, "coverage.err.too_big_extracted"),
    "size_mismatch": (UnsafeArchive, "coverage.err.size_mismatch"),
}


def _error(problem: archive.ArchiveProblem, name: str) -> Exception:
    cls, key = _PROBLEMS[problem.reason]
    return cls(key, name=name, entry=problem.entry, **problem.params)


def inspect_zip(data: bytes, name: str) -> ArchiveInfo:
    """Check an archive's directory without extracting anything; raise on anything unsafe."""
    check_size(data, name)
    try:
        zf = archive.open_zip(data, MAX_ENTRIES)
        members = archive.check_members(zf, LIMITS)
    except archive.ArchiveProblem as problem:
        raise _error(problem, name) from None
    total = sum(info.file_size for _, info in members)
    return ArchiveInfo(len(zf.infolist()), total, tuple(i.filename for i in zf.infolist()))


def read_member(data: bytes, name: str, member_name: str, limit: int = MAX_EXTRACTED_BYTES) -> bytes:
    """One entry's bytes, read in memory (nothing is written to disk), stopping as soon as it exceeds its
    declared size or the limit: the sizes in a zip header can lie."""
    try:
        with archive.open_zip(data, MAX_ENTRIES) as zf:
            return archive.read_member(zf, zf.getinfo(member_name), limit)
    except archive.ArchiveProblem as problem:
        raise _error(problem, name) from None


def saved_model_entry(info: ArchiveInfo) -> str:
    """The archive's saved_model.pb: at the top level or in a folder (the shallowest one wins)."""
    candidates = [n for n in info.names if PurePosixPath(n).name == "saved_model.pb"]
    if not candidates:
        raise UnsupportedFile("coverage.err.not_saved_model")
    return min(candidates, key=lambda n: len(PurePosixPath(n).parts))


# --- .keras config checks -------------------------------------------------------------------------------------

_PATH_KEYS = {"vocabulary", "filepath", "file_path", "path", "filename", "vocabulary_file"}


_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
_NOT_BRACKET = re.compile(rb"[^\[\]{}]")


def json_depth(raw: bytes) -> int:
    """How deep the arrays and objects of a JSON text nest, without parsing it (strings are skipped)."""
    brackets = _NOT_BRACKET.sub(b"", _JSON_STRING.sub(b"", raw))
    return max(accumulate(1 if c in b"[{" else -1 for c in brackets), default=0)


def check_keras_config(config: object) -> None:
    """Refuse what safe mode should refuse anyway, before Keras parses it: Lambda layers, objects from
    modules outside Keras, references to the unsafe-deserialization switch, file paths and URLs. Iterative:
    no recursion however deep the config."""
    stack = [config]
    layers = 0
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "class_name" in node:
                layers += 1
                if layers > KERAS_MAX_LAYERS:
                    raise UnsupportedFile("security.cov_too_many_layers", limit=KERAS_MAX_LAYERS)
            if node.get("class_name") in ("Lambda", "__lambda__") or node.get("function_type") == "lambda":
                raise UnsupportedFile("coverage.err.lambda")
            module = node.get("module")
            if (
                isinstance(module, str)
                and module
                and not (module == "keras" or module.startswith("keras.") or module == "builtins")
            ):
                raise UnsupportedFile("coverage.err.custom_object", module=module[:80])
            for key, value in node.items():
                if isinstance(value, str):
                    if "enable_unsafe_deserialization" in value:
                        raise UnsupportedFile("coverage.err.lambda")
                    if key in _PATH_KEYS and ("/" in value or "\\" in value or "://" in value):
                        raise UnsupportedFile("coverage.err.file_reference", key=key)
                    if "://" in value:
                        raise UnsupportedFile("coverage.err.file_reference", key=key)
                stack.append(value)
        elif isinstance(node, list):
            stack.extend(node)


def _keras_config(data: bytes, name: str) -> dict:
    try:
        with archive.open_zip(data, MAX_ENTRIES) as zf:
            member = zf.getinfo("config.json")
            if member.file_size > KERAS_CONFIG_MAX_BYTES:
                raise FileTooLarge(
                    "coverage.err.too_large",
                    name="config.json",
                    size_mb=member.file_size // 2**20,
                    limit_mb=KERAS_CONFIG_MAX_BYTES // 2**20,
                )
            raw = archive.read_member(zf, member, KERAS_CONFIG_MAX_BYTES)
    except KeyError:
        raise UnsupportedFile("coverage.err.not_keras", name=name) from None
    except archive.ArchiveProblem as problem:
        raise _error(problem, name) from None
    if json_depth(raw) > KERAS_CONFIG_MAX_DEPTH:
        raise UnsupportedFile("security.cov_too_deep", name=name, limit=KERAS_CONFIG_MAX_DEPTH)
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise UnsupportedFile("coverage.err.not_keras", name=name) from None


# The config fields that size a layer's weights (Keras 3 layer configs), and the input width each layer was built
# with (its build_config.input_shape, which Keras 3 saves for every built layer).
_SIZE_KEYS = ("input_dim", "output_dim", "units", "filters", "num_heads", "key_dim", "value_dim",
              "depth_multiplier", "max_tokens", "num_tokens", "vocabulary_size", "output_sequence_length")


def _ints(value: object) -> list[int]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, list | tuple):
        return [v for v in value if isinstance(v, int) and not isinstance(v, bool)]
    return []


def _prod(values: list[int]) -> int:
    out = 1
    for v in values:
        out *= max(int(v), 1)
    return out


def layer_params(class_name: str, config: dict, in_dim: int) -> int:
    """An estimate of the weights a layer config declares, from its size fields and input width (0 if none).
    Known layers get their formula; any other layer the product of its two largest size fields, so a size
    hidden in an unknown layer still counts."""
    get = lambda key: _ints(config.get(key))  # noqa: E731
    size = {key: _prod(get(key)) for key in _SIZE_KEYS if get(key)}
    kernel = _prod(get("kernel_size")) if get("kernel_size") else 1
    if class_name == "Embedding":
        return size.get("input_dim", 0) * size.get("output_dim", 0)
    if class_name in ("Dense", "EinsumDense"):
        return size.get("units", _prod(get("output_shape"))) * (in_dim + 1)
    if class_name.startswith(("Conv", "SeparableConv", "DepthwiseConv")):
        return kernel * in_dim * size.get("filters", size.get("depth_multiplier", 1)) + size.get("filters", 0)
    units = size.get("units", 0)
    if class_name in ("LSTM", "GRU", "SimpleRNN", "LSTMCell", "GRUCell", "SimpleRNNCell"):
        gates = {"LSTM": 4, "LSTMCell": 4, "GRU": 3, "GRUCell": 3}.get(class_name, 1)
        return gates * units * (in_dim + units + 2)
    if class_name == "MultiHeadAttention":
        heads, key = size.get("num_heads", 1), size.get("key_dim", 0)
        return 4 * heads * max(key, size.get("value_dim", 0)) * max(in_dim, 1)
    top = sorted(size.values(), reverse=True)[:2]
    return _prod(top) if len(top) == 2 else 0


def declared_params(config: object) -> int:
    """The weights a Keras config declares, summed over every layer object in it (iterative, any nesting)."""
    total = 0
    stack = [config]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            inner = node.get("config")
            if isinstance(node.get("class_name"), str) and isinstance(inner, dict):
                shape = (node.get("build_config") or {}).get("input_shape") if isinstance(
                    node.get("build_config"), dict) else None
                dims = _ints(shape[-1:] if isinstance(shape, list) and shape and not isinstance(shape[0], list)
                             else [])
                total += layer_params(node["class_name"], inner, dims[0] if dims else 0)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return total


def check_declared_weights(config: object, name: str) -> int:
    """Refuse a config whose layers declare more weights than one upload may build; the count otherwise."""
    n = declared_params(config)
    if n > KERAS_MAX_PARAMS:
        raise FileTooLarge("security.cov_too_many_params", name=name, params=f"{n:,}", limit=f"{KERAS_MAX_PARAMS:,}")
    return n


def _safe_keras_config(data: bytes, name: str) -> dict:
    inspect_zip(data, name)
    config = _keras_config(data, name)
    check_keras_config(config)
    return config


def precheck_keras(data: bytes, name: str) -> int:
    """Everything checkable about a .keras file without TensorFlow: the archive, its config and the weights it
    declares (returned)."""
    return check_declared_weights(_safe_keras_config(data, name), name)


def run_worker(module: str, data: bytes, env: dict[str, str], timeout_s: int, name: str) -> dict:
    """Run rocm_bridge.coverage.<module> as a child on `data` (stdin) and return its JSON answer; a child killed by
    one of its own limits before it could answer reads as {"ok": false, "reason": "memory" | "failed"}."""
    try:
        proc = subprocess.run([sys.executable, "-m", f"rocm_bridge.coverage.{module}"], input=data,
                              capture_output=True, timeout=timeout_s, env=env,
                              cwd=str(Path(__file__).resolve().parent.parent.parent))
    except subprocess.TimeoutExpired:
        raise TimedOut(what=name, seconds=timeout_s) from None
    try:
        return json.loads(proc.stdout)
    except ValueError:
        return {"ok": False, "reason": "memory" if proc.returncode < 0 else "failed"}


def trace_keras_child(data: bytes, name: str, phases: tuple[str, ...]):
    """Load and trace a .keras file in keras_worker.py, a child process with KERAS_WORKER_MEMORY of address
    space, KERAS_WORKER_CPU_S of CPU and one thread; the server never builds a visitor's model itself."""
    from rocm_bridge.coverage.keras_worker import CPU_ENV, MEMORY_ENV, NAME_ENV, PHASES_ENV, THREAD_ENV
    from rocm_bridge.coverage.trace import TRAINING, TracedModel, nodes_from_records

    phases = tuple(phases)
    if precheck_keras(data, name) > KERAS_TRAINING_MAX_PARAMS:
        phases = tuple(p for p in phases if p != TRAINING)
    env = {**os.environ, **THREAD_ENV, MEMORY_ENV: str(KERAS_WORKER_MEMORY), CPU_ENV: str(KERAS_WORKER_CPU_S),
           NAME_ENV: name, PHASES_ENV: ",".join(phases)}
    result = run_worker("keras_worker", data, env, KERAS_WORKER_TIMEOUT_S, name)
    if result.get("ok"):
        return TracedModel(name, tuple(nodes_from_records(result["records"])), tuple(result["phases"]),
                           n_params=int(result["n_params"]), tf_version=result["tf_version"],
                           keras_version=result["keras_version"], notes=tuple(result.get("notes", ())))
    if result.get("key"):
        raise UnsupportedFile(result["key"], **result.get("params", {}))
    if result.get("reason") == "memory":
        raise OutOfMemory("security.cov_memory_build", name=name, limit_gb=KERAS_WORKER_MEMORY // 1024**3)
    raise UnsupportedFile("security.cov_failed_load", name=name, detail=str(result.get("detail", ""))[:200])


def load_keras_bytes(data: bytes, name: str):
    """A Keras model from the bytes of a .keras file (archive and config checked, then Keras safe mode). Needs
    TensorFlow; the server calls it only in keras_worker's limited child (the size check is the parent's)."""
    from rocm_bridge.coverage.trace import import_tensorflow, plain_text

    _safe_keras_config(data, name)
    _, keras = import_tensorflow()
    with tempfile.TemporaryDirectory(prefix="rb_keras_") as tmp:
        path = Path(tmp) / "upload.keras"  # never the user's file name on disk
        path.write_bytes(data)
        try:
            return keras.saving.load_model(path, compile=False, safe_mode=True)
        except ValueError as exc:
            if "lambda" in str(exc).lower() or "safe_mode" in str(exc):
                raise UnsupportedFile("coverage.err.lambda") from None
            raise UnsupportedFile("coverage.err.load_failed", name=name, detail=plain_text(str(exc))) from None
        except Exception as exc:  # noqa: BLE001 - any Keras failure becomes a message, never a traceback
            if type(exc).__name__ == "ResourceExhaustedError" or "OOM when allocating" in str(exc):
                raise OutOfMemory("security.cov_memory", name=name) from None
            raise UnsupportedFile("coverage.err.load_failed", name=name, detail=plain_text(str(exc))) from None


# --- SavedModel graphs: counted before parsing, parsed in a child process -----------------------------------


def _varint(buf: bytes, i: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        b = buf[i]
        i += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, i
        shift += 7
        if shift > 63:
            raise ValueError("varint")


def _messages(buf: bytes, start: int, end: int):
    """(field number, start, end) of each length-delimited field of the message buf[start:end]; other wire
    types are skipped. Raises ValueError / IndexError on a malformed message."""
    i = start
    while i < end:
        tag, i = _varint(buf, i)
        wire = tag & 7
        if wire == 0:
            _, i = _varint(buf, i)
        elif wire == 1:
            i += 8
        elif wire == 5:
            i += 4
        elif wire == 2:
            n, i = _varint(buf, i)
            if i + n > end:
                raise ValueError("truncated")
            yield tag >> 3, i, i + n
            i += n
        else:
            raise ValueError("wire type")


def count_graph(pb: bytes, max_nodes: int = MAX_GRAPH_NODES, max_functions: int = MAX_GRAPH_FUNCTIONS) -> int:
    """Nodes in a SavedModel's graphs (top level and function bodies), read from the wire format without
    building any message; stops and refuses as soon as a cap is passed. SavedModel.meta_graphs = 2,
    MetaGraphDef.graph_def = 2, GraphDef.node = 1 / library = 2, FunctionDefLibrary.function = 1,
    FunctionDef.node_def = 3 (tensorflow/core/protobuf/*.proto, framework/graph.proto, function.proto)."""
    nodes = functions = 0

    def over() -> None:
        if nodes > max_nodes or functions > max_functions:
            raise UnsafeArchive("security.cov_graph_too_big", nodes=max_nodes, functions=max_functions)

    try:
        for field, s, e in _messages(pb, 0, len(pb)):
            if field != 2:
                continue
            for f2, s2, e2 in _messages(pb, s, e):
                if f2 != 2:
                    continue
                for f3, s3, e3 in _messages(pb, s2, e2):
                    if f3 == 1:
                        nodes += 1
                        over()
                    elif f3 == 2:
                        for f4, s4, e4 in _messages(pb, s3, e3):
                            if f4 != 1:
                                continue
                            functions += 1
                            over()
                            for f5, _, _ in _messages(pb, s4, e4):
                                if f5 == 3:
                                    nodes += 1
                                    over()
    except UnsafeArchive:  # a ValueError too: the cap, not a malformed message
        raise
    except (ValueError, IndexError):
        raise UnsupportedFile("coverage.err.not_saved_model") from None
    return nodes


_WORKER_REASONS = {
    "not_saved_model": (UnsupportedFile, "coverage.err.not_saved_model"),
    "no_signature": (UnsupportedFile, "coverage.err.no_signature"),
    "too_many_nodes": (UnsafeArchive, "security.cov_graph_too_big"),
    "memory": (OutOfMemory, "security.cov_memory"),
    "failed": (UnsupportedFile, "security.cov_parse_failed"),
}


def parse_graph(pb: bytes, name: str) -> list[tuple[str, list, int]]:
    """[(op, raw dtype attributes, count)] of the nodes a SavedModel's signatures reach, parsed by
    graph_worker.py in a child process with GRAPH_WORKER_MEMORY of address space."""
    if len(pb) > MAX_GRAPH_BYTES:
        raise FileTooLarge("coverage.err.too_large", name="saved_model.pb", size_mb=limits.size_mb(len(pb)),
                           limit_mb=MAX_GRAPH_BYTES // limits.MB)
    count_graph(pb)
    env = dict(os.environ)
    env.update({"RB_GRAPH_MEMORY": str(GRAPH_WORKER_MEMORY), "RB_GRAPH_MAX_NODES": str(MAX_GRAPH_NODES),
                "RB_GRAPH_MAX_FUNCTIONS": str(MAX_GRAPH_FUNCTIONS)})
    result = run_worker("graph_worker", pb, env, GRAPH_WORKER_TIMEOUT_S, name)
    if not result.get("ok"):
        cls, key = _WORKER_REASONS.get(result.get("reason"), _WORKER_REASONS["failed"])
        raise cls(key, name=name, nodes=MAX_GRAPH_NODES, functions=MAX_GRAPH_FUNCTIONS)
    return [(op, attrs, int(count)) for op, attrs, count in result["nodes"]]


# --- one heavy analysis at a time, results cached by bytes ---------------------------------------------------

# one slot per server, taken by clients in turns while another is waiting (rocm_bridge/exclusive.py)
_HEAVY = OneAtATime(lambda held_s: Busy("security.cov_busy"), turn=lambda wait: Busy("security.slot_turn", wait=wait))


def heavy_slot():
    """Hold the server's one upload-analysis slot, or raise Busy at once (also while this caller's client had
    the last turn and another client is waiting for one)."""
    return _HEAVY.hold("upload")


class ByteCache:
    """A least-recently-used cache bounded by the pickled size of its values."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._items: OrderedDict[str, tuple[object, int]] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def bytes(self) -> int:
        return sum(size for _, size in self._items.values())

    def get(self, key: str):
        with self._lock:
            if key not in self._items:
                return None
            self._items.move_to_end(key)
            return self._items[key][0]

    def put(self, key: str, value: object) -> None:
        size = len(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
        if size > self.max_bytes:
            return
        with self._lock:
            self._items[key] = (value, size)
            self._items.move_to_end(key)
            while self.bytes > self.max_bytes:
                self._items.popitem(last=False)


RESULTS = ByteCache(RESULT_CACHE_BYTES)


def traced_upload(data: bytes, name: str):
    """trace.trace_upload with the byte-bounded cache (what the page calls): identical nodes share one object,
    so a 300k-node graph with 200 distinct ops costs a few MB."""
    from dataclasses import replace

    from rocm_bridge.coverage.trace import trace_upload

    key = hashlib.sha256(data).hexdigest() + ":" + name
    hit = RESULTS.get(key)
    if hit is not None:
        return hit
    model = trace_upload(data, name)
    shared: dict = {}
    model = replace(model, nodes=tuple(shared.setdefault(n, n) for n in model.nodes))
    RESULTS.put(key, model)
    return model
