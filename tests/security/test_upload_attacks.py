"""Threats: one upload takes gigabytes (docs/security.md #2) and uploads that end in a traceback (#5).

Each hostile file gets a translated message (English and Chinese, no catalog key, no traceback, no server path),
and the expensive ones are refused before anything parses them.
"""

from __future__ import annotations

import json
import random
import threading
import time
import tracemalloc

import pytest

from rocm_bridge.coverage import upload
from rocm_bridge.coverage.trace import trace_upload
from rocm_bridge.errors import Busy, RocmBridgeError
from tests.security import bombs

tf = pytest.importorskip("tensorflow", reason="the SavedModel path needs TensorFlow (requirements-dev.txt has it)")
pytestmark = pytest.mark.tf


def refused(data: bytes, name: str, key: str | None = None) -> RocmBridgeError:
    with pytest.raises(RocmBridgeError) as err:
        trace_upload(data, name)
    if key:
        assert err.value.key == key, err.value.key
    for lang in ("en", "zh"):
        text = err.value.message(lang)
        assert text and not text.startswith(("coverage.", "security.")), text
        assert "Traceback" not in text and "/work/" not in text and ".py" not in text, text
    return err.value


def test_keras_config_nested_200k_deep_is_refused_before_json():
    data = bombs.keras_nested(200_000)
    assert len(data) < 2_000  # the 1.4 KB file
    err = refused(data, "deep.keras", "security.cov_too_deep")
    assert "100" in err.message("zh")


def test_keras_config_nested_just_under_the_limit_is_not_the_problem():
    upload.check_keras_config(json.loads("[" * 90 + "]" * 90))  # iterative: no recursion at any depth
    assert upload.json_depth(b'{"a": "[[[[[[", "b": [1, {"c": []}]}') == 4  # brackets in strings do not count


def test_too_many_layers():
    config = {"class_name": "Functional", "config": {"layers": [{"class_name": "Dense"}] * 6_000}}
    refused(bombs.keras_config(config), "wide.keras", "security.cov_too_many_layers")


def test_saved_model_dtype_999_gets_a_message_not_a_type_error():
    refused(bombs.saved_model_bad_dtype(999), "dtype.zip", "security.cov_bad_graph")


def test_a_hand_written_small_graph_is_read_in_the_child():
    model = trace_upload(bombs.saved_model_small(), "small.zip")
    assert sorted(n.op for n in model.nodes) == ["MatMul", "Placeholder", "Relu"]
    assert {n.attr_dict.get("T") for n in model.nodes} == {"float32"}


@pytest.mark.parametrize(("n_nodes", "key"), [(2_000_000, "coverage.err.too_large"),  # 51 MB of graph: bytes cap
                                              (400_000, "security.cov_graph_too_big")])  # 10 MB: node count
def test_huge_graphs_are_refused_before_parsing_in_bounded_time_and_memory(n_nodes, key):
    data = bombs.saved_model_huge(n_nodes)
    assert len(data) < 12 * 2**20  # the upload was ~10 MB
    tracemalloc.start()
    t0 = time.process_time()
    try:
        refused(data, "huge.zip", key)
        cpu = time.process_time() - t0
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert cpu < 10  # was 62 s; the count stops at the cap (300k nodes)
    assert peak < 200 * 2**20  # was +1.9 GB; what remains is the archive and its one entry, read once


def test_too_many_functions():
    refused(bombs.saved_model_functions(upload.MAX_GRAPH_FUNCTIONS + 1), "fns.zip", "security.cov_graph_too_big")


def test_graph_worker_memory_limit_turns_into_a_message(monkeypatch):
    # 250k nodes (under the node cap) need a few hundred MB parsed; give the child 64 MB of address space
    monkeypatch.setattr(upload, "GRAPH_WORKER_MEMORY", 64 * 2**20)
    refused(bombs.saved_model_huge(250_000), "big.zip", "security.cov_memory")


@pytest.mark.parametrize("name", sorted(bombs.traversal_zips()))
def test_traversal_and_link_archives(name):
    refused(bombs.traversal_zips()[name], "evil.zip")


def test_zip_bomb():
    refused(bombs.zip_bomb(), "bomb.zip", "coverage.err.bomb")


def test_one_heavy_analysis_at_a_time_with_a_busy_message():
    entered, release = threading.Event(), threading.Event()

    def hold():
        with upload.heavy_slot():
            entered.set()
            release.wait(10)

    t = threading.Thread(target=hold)
    t.start()
    try:
        entered.wait(5)
        err = refused(bombs.saved_model_small(), "small.zip", "security.cov_busy")
        assert isinstance(err, Busy) and "稍后再试" not in err.message("en")
    finally:
        release.set()
        t.join()
    assert trace_upload(bombs.saved_model_small(), "small.zip")  # free again


def test_result_cache_is_bounded_in_bytes():
    cache = upload.ByteCache(10_000)
    for i in range(50):
        cache.put(str(i), b"x" * 3_000)
    assert cache.bytes <= 10_000 and cache.get("49") is not None and cache.get("0") is None
    cache.put("big", b"x" * 20_000)  # larger than the whole cache: not kept
    assert cache.get("big") is None
    data = bombs.saved_model_small()  # built once: a zip made again seconds later carries another timestamp
    model = upload.traced_upload(data, "small.zip")
    assert upload.traced_upload(data, "small.zip") is model  # a hit, not a copy


def _mutations(data: bytes, rng: random.Random, n: int) -> list[bytes]:
    out = []
    for _ in range(n):
        b = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        if rng.random() < 0.3:
            b = b[: rng.randrange(1, len(b))]
        out.append(bytes(b))
    return out


def test_fuzz_nothing_uploaded_shows_a_traceback():
    """Random byte flips and truncations of a valid SavedModel zip, a valid .keras zip and its raw protobuf:
    each either traces or raises one of our errors with a message in both languages."""
    rng = random.Random(18)
    pb = bombs.saved_model(bombs.node("x", "Placeholder", dtype=1) + bombs.node("y", "Relu", ("x",), 1))
    seeds = [
        (bombs.saved_model_small(), "m.zip"),
        (bombs.keras_config({"module": "keras", "class_name": "Functional", "config": {"layers": []}}), "m.keras"),
        (bombs.zip_of({"saved_model.pb": pb}, compression=0), "stored.zip"),
    ]
    for seed, name in seeds:
        for data in _mutations(seed, rng, 25):
            try:
                trace_upload(data, name)
            except RocmBridgeError as err:
                for lang in ("en", "zh"):
                    assert err.message(lang) and "Traceback" not in err.message(lang)


# --- configs that declare more weights than one upload may build (issue: "a 1.8 KB .keras file takes GB") -----

EMBED_250M = {"class_name": "Embedding", "config": {"name": "e", "input_dim": 250_000_000, "output_dim": 8}}


@pytest.mark.parametrize("layer, shape", [
    (EMBED_250M, [None, 10]),
    ({"class_name": "Dense", "config": {"name": "d", "units": 60_000}}, [None, 60_000]),
    ({"class_name": "Conv2D", "config": {"name": "c", "filters": 4096, "kernel_size": [64, 64]}}, [None, 8, 8, 512]),
    ({"class_name": "LSTM", "config": {"name": "l", "units": 20_000}}, [None, 10, 20_000]),
    # a layer this check does not know still counts by its two largest size fields
    ({"class_name": "SomeFutureLayer", "config": {"name": "f", "units": 50_000, "num_tokens": 50_000}}, None),
])
def test_configs_declaring_huge_weights_are_refused_before_anything_is_built(layer, shape):
    data = bombs.keras_config_bomb(layer, shape)
    assert len(data) < 2_000
    tracemalloc.start()
    started = time.perf_counter()
    err = refused(data, "tiny.keras", "security.cov_too_many_params")
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert time.perf_counter() - started < 5 and peak < 20 * 1024 * 1024
    assert "tiny.keras" in err.message("en") and "tiny.keras" in err.message("zh")


def test_declared_params_counts_real_layers_like_keras():
    import keras

    model = keras.Sequential([keras.Input((12,)), keras.layers.Embedding(1000, 16), keras.layers.LSTM(8),
                              keras.layers.Dense(4), keras.layers.Reshape((2, 2, 1)), keras.layers.Conv2D(3, 2)])
    config = json.loads(json.dumps(keras.saving.serialize_keras_object(model)))
    estimate = upload.declared_params(config)
    # within a few percent of Keras's own count (biases and gate details differ), never far below it
    assert 0.9 * model.count_params() <= estimate <= 1.2 * model.count_params()


def test_the_child_limit_stops_what_the_estimate_lets_through(monkeypatch):
    """The second wall: whatever the first check lets through cannot take more than the child's address space."""
    monkeypatch.setattr(upload, "KERAS_MAX_PARAMS", 10**9)  # as if the estimate had missed this layer
    monkeypatch.setattr(upload, "KERAS_WORKER_MEMORY", 3 * 1024**3)  # TensorFlow maps ~2 GB before building
    layer = {"class_name": "Embedding", "config": {"name": "e", "input_dim": 400_000_000, "output_dim": 2}}
    server_before = _rss_mb()
    err = refused(bombs.keras_config_bomb(layer, [None, 10]), "edge.keras")
    assert err.key in ("security.cov_memory_build", "security.cov_failed_load")
    assert _rss_mb() - server_before < 200  # the 1.6 GB of weights were the child's, not the server's


def test_a_real_small_model_is_traced_in_the_child(tmp_path):
    import keras

    model = keras.Sequential([keras.Input((8,)), keras.layers.Dense(4, activation="relu")])
    model.save(tmp_path / "m.keras")
    traced = trace_upload((tmp_path / "m.keras").read_bytes(), "m.keras")
    assert {"MatMul", "Relu"} <= set(traced.op_types)
    assert traced.n_params == model.count_params() and traced.tf_version == tf.__version__


def _rss_mb() -> float:
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS")) / 1024
