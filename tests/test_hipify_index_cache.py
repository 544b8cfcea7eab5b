"""The compiled cache of the mapping table (rocm_bridge.hipify.index): built on first use into the cache
directory, keyed by the table's content hash, not rebuilt for a touched but unchanged table."""

from __future__ import annotations

import os
import shutil

from rocm_bridge.hipify import index

CSV = index.csv_path()


def _fresh():
    for fn in (index.load_table, index._built, index._content_hash, index.active_map):
        fn.cache_clear()


def test_cache_is_built_once_kept_on_touch_and_rebuilt_on_change(tmp_path, monkeypatch):
    monkeypatch.setenv("ROCM_BRIDGE_CACHE", str(tmp_path / "cache"))
    table = tmp_path / "hipify_mappings.csv"
    shutil.copy(CSV, table)
    _fresh()
    first = index.load_table("hip", table)
    assert first["cudaMalloc"].split("\t")[1] == "hipMalloc"
    cache = tmp_path / "cache" / "rocm_bridge" / f"hipify_index_v{index.FORMAT}_hip.marshal"
    assert cache.exists()
    built_at = cache.stat().st_mtime_ns

    os.utime(table, ns=(built_at + 10**9, built_at + 10**9))  # a checkout: new mtime, same bytes
    _fresh()
    assert index.load_table("hip", table) == first
    assert cache.stat().st_mtime_ns == built_at  # read, not rebuilt

    with table.open("a", encoding="utf-8") as fh:
        fh.write("cudaBridgeTest,hipBridgeTest,HIP runtime,hip,runtime,Test,function,,,,,6.0.0,,,,,test\n")
    _fresh()
    assert index.load_table("hip", table)["cudaBridgeTest"].split("\t")[1] == "hipBridgeTest"
    assert cache.stat().st_mtime_ns != built_at
    _fresh()


def test_unwritable_cache_still_translates(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("ROCM_BRIDGE_CACHE", str(blocker))
    _fresh()
    assert index.load_table("hip")["cudaFree"].split("\t")[1] == "hipFree"
    _fresh()
