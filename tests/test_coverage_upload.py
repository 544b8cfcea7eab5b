"""Malicious or wrong uploads are refused with a typed, translated error before TensorFlow sees them."""

from __future__ import annotations

import io
import json
import stat
import zipfile

import pytest

from rocm_bridge.coverage import upload
from rocm_bridge.coverage.trace import display_name, trace_upload
from rocm_bridge.errors import FileTooLarge, UnsafeArchive, UnsupportedFile

KERAS_CONFIG = {"module": "keras", "class_name": "Functional", "config": {"layers": []}}


def make_zip(entries: list[tuple[str | zipfile.ZipInfo, bytes]], compression=zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression) as zf:
        for name, data in entries:
            zf.writestr(name, data)
    return buf.getvalue()


def keras_file(config: dict) -> bytes:
    return make_zip([("metadata.json", b"{}"), ("config.json", json.dumps(config).encode()), ("model.weights.h5", b"")])


def refused(data: bytes, name: str, error: type, key: str):
    with pytest.raises(error) as err:
        trace_upload(data, name)
    assert err.value.key == key, err.value.key
    for lang in ("en", "zh"):
        assert err.value.message(lang) and not err.value.message(lang).startswith("coverage.err")
    return err.value


@pytest.mark.parametrize("entry", ["../evil.txt", "saved/../../evil", "/etc/passwd", "C:/evil", "..\\evil.txt", "a\\b"])
def test_path_traversal_and_absolute_paths_are_refused(entry):
    err = refused(make_zip([("saved_model.pb", b"x"), (entry, b"x")]), "m.zip", UnsafeArchive, "coverage.err.bad_path")
    assert (
        ".." in err.message("en") or "etc" in err.message("en") or "C" in err.message("en") or "?" in err.message("en")
    )


def test_symlink_entries_are_refused():
    link = zipfile.ZipInfo("variables/link")
    link.external_attr = (stat.S_IFLNK | 0o777) << 16
    refused(make_zip([("saved_model.pb", b"x"), (link, b"/etc/passwd")]), "m.zip", UnsafeArchive, "coverage.err.link")
    fifo = zipfile.ZipInfo("pipe")
    fifo.external_attr = (stat.S_IFIFO | 0o644) << 16
    refused(make_zip([(fifo, b"")]), "m.keras", UnsafeArchive, "coverage.err.link")


def test_too_many_files_are_refused():
    entries = [(f"assets/{i}", b"") for i in range(upload.MAX_ENTRIES + 1)]
    refused(make_zip(entries, zipfile.ZIP_STORED), "m.zip", UnsafeArchive, "coverage.err.too_many_files")


def test_zip_bomb_ratio_is_refused_per_entry_and_overall():
    bomb = make_zip([("saved_model.pb", b"\0" * (20 * 2**20))])
    assert len(bomb) < 100_000  # 20 MB of zeros in a few kB
    err = refused(bomb, "m.zip", UnsafeArchive, "coverage.err.bomb")
    assert err.params["ratio"] > upload.MAX_RATIO
    # many entries, each under the per-entry floor, still add up to a bomb
    many = make_zip([(f"variables/{i}", b"\0" * (900 * 1024)) for i in range(4)])
    refused(many, "m.zip", UnsafeArchive, "coverage.err.bomb")


def test_huge_upload_is_refused_before_reading_it():
    data = b"PK\x03\x04" + b"\0" * upload.MAX_UPLOAD_BYTES
    err = refused(data, "big.keras", FileTooLarge, "coverage.err.too_large")
    assert err.params["limit_mb"] == upload.MAX_UPLOAD_BYTES // 10**6 == 50


def test_not_a_zip_wrong_suffix_and_corrupt_archive():
    refused(b"\x89HDF\r\n\x1a\n" + b"\0" * 100, "model.keras", UnsupportedFile, "coverage.err.not_zip")
    refused(b"PK\x03\x04garbage", "model.zip", UnsupportedFile, "coverage.err.not_zip")
    refused(make_zip([("a", b"b")]), "model.h5", UnsupportedFile, "coverage.err.suffix")
    refused(make_zip([("a", b"b")]), "model", UnsupportedFile, "coverage.err.suffix")


def test_duplicate_entries_are_refused():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf, pytest.warns(UserWarning):
        zf.writestr("saved_model.pb", b"a")
        zf.writestr("saved_model.pb", b"b")
    refused(buf.getvalue(), "m.zip", UnsafeArchive, "coverage.err.duplicate")


def test_zip_without_saved_model_or_config():
    refused(make_zip([("readme.txt", b"hi")]), "m.zip", UnsupportedFile, "coverage.err.not_saved_model")
    refused(make_zip([("readme.txt", b"hi")]), "m.keras", UnsupportedFile, "coverage.err.not_keras")
    refused(make_zip([("config.json", b"\xff\xfe")]), "m.keras", UnsupportedFile, "coverage.err.not_keras")


@pytest.mark.parametrize(
    ("config", "key"),
    [
        ({"class_name": "Lambda", "config": {"function": "x"}}, "coverage.err.lambda"),
        ({"layers": [{"module": "keras.layers", "class_name": "Lambda"}]}, "coverage.err.lambda"),
        ({"layers": [{"module": "os", "class_name": "system", "config": {}}]}, "coverage.err.custom_object"),
        (
            {"layers": [{"module": "keras.layers", "config": {"vocabulary": "/etc/passwd"}}]},
            "coverage.err.file_reference",
        ),
        ({"layers": [{"config": {"url": "http://169.254.169.254/latest"}}]}, "coverage.err.file_reference"),
        ({"layers": [{"config": {"fn": "keras.config.enable_unsafe_deserialization"}}]}, "coverage.err.lambda"),
    ],
)
def test_keras_configs_with_code_modules_or_paths_are_refused_without_tensorflow(config, key):
    refused(keras_file(config), "m.keras", UnsupportedFile, key)


def test_a_plain_keras_config_passes_the_precheck():
    upload.precheck_keras(
        keras_file(KERAS_CONFIG | {"layers": [{"module": "keras.layers", "class_name": "Dense"}]}), "m.keras"
    )


def test_display_name_is_plain_text():
    assert display_name("<b>evil<b>[x](javascript:alert(1)).keras") == "_b_evil_b__x__javascript_alert_1__.keras"
    assert display_name("../../dir\\sub/model.keras") == "model.keras"
    assert display_name("模型 v1.keras") == "模型 v1.keras"
    assert display_name("") == "model"
