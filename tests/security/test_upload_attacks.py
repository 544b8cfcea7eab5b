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
    model = upload.traced_upload(bombs.saved_model_small(), "small.zip")
    assert upload.traced_upload(bombs.saved_model_small(), "small.zip") is model  # a hit, not a copy


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
