"""Uploaded models: a Keras `.keras` file or a zipped SavedModel, checked before TensorFlow sees them.

Both are zip archives. Before anything is loaded the archive's directory is inspected: every entry name must be
a plain relative path (no '..', no absolute or drive paths, no backslashes), no entry may be a link or a device,
the number of entries and the total uncompressed size are capped, and an entry (or the whole archive) that
expands far more than real model data does is treated as a zip bomb. Nothing is extracted to disk: the one
entry needed (saved_model.pb) is read in memory, counting bytes as it goes (the sizes in a zip header can lie). A SavedModel is never loaded or run: its graph is read as a protobuf (loading one would run its
restore and initializer functions, and TensorFlow's security guide says models are programs).

A `.keras` file is loaded with `safe_mode=True` (no Lambda layers, no arbitrary code); its config is also
checked first for Lambda layers, non-Keras modules and file paths (defence in depth).
"""

from __future__ import annotations

import json
import re
import stat
import tempfile
import zipfile
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path, PurePosixPath

from rocm_bridge.errors import FileTooLarge, UnsafeArchive, UnsupportedFile

MAX_UPLOAD_BYTES = 50 * 1024 * 1024  # what an uploaded file may weigh (= server.maxUploadSize)
MAX_EXTRACTED_BYTES = 256 * 1024 * 1024  # all entries together, uncompressed
MAX_ENTRIES = 2000  # a SavedModel has a handful of files; a Keras file three
MAX_RATIO = 100  # uncompressed / compressed, per entry and overall, above BOMB_MIN_BYTES
BOMB_MIN_BYTES = 1024 * 1024  # small entries (configs of zeros) may compress well; ignore them for the ratio
KERAS_CONFIG_MAX_BYTES = 8 * 1024 * 1024
CHUNK = 1024 * 1024
SUFFIXES = (".keras", ".zip")


@dataclass(frozen=True)
class ArchiveInfo:
    entries: int
    total_bytes: int  # uncompressed, as declared
    names: tuple[str, ...]


def check_size(data: bytes, name: str) -> None:
    if len(data) > MAX_UPLOAD_BYTES:
        raise FileTooLarge(
            "coverage.err.too_large", name=name, size_mb=round(len(data) / 2**20, 1), limit_mb=MAX_UPLOAD_BYTES // 2**20
        )


def _shown(entry: str) -> str:
    """An archive entry name for a message: '..' and '/' stay visible, anything else odd becomes '?'."""
    return re.sub(r"[^\w./\-]", "?", entry)[:120]


def _unsafe_name(name: str) -> bool:
    if not name or "\x00" in name or "\\" in name:
        return True
    if name.startswith("/") or (len(name) >= 2 and name[1] == ":"):
        return True
    parts = PurePosixPath(name).parts
    return any(p in ("..",) for p in parts)


def inspect_zip(data: bytes, name: str) -> ArchiveInfo:
    """Check an archive's directory without extracting anything; raise on anything unsafe."""
    check_size(data, name)
    if not data.startswith(b"PK\x03\x04"):
        raise UnsupportedFile("coverage.err.not_zip", name=name)
    try:
        zf = zipfile.ZipFile(BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError):
        raise UnsupportedFile("coverage.err.not_zip", name=name) from None
    if len(infos) > MAX_ENTRIES:
        raise UnsafeArchive("coverage.err.too_many_files", count=len(infos), limit=MAX_ENTRIES)
    seen: set[str] = set()
    total = 0
    total_compressed = 0
    for info in infos:
        entry = info.filename
        if _unsafe_name(entry):
            raise UnsafeArchive("coverage.err.bad_path", entry=_shown(entry))
        kind = stat.S_IFMT(info.external_attr >> 16)  # 0 when the archiver recorded no file type
        if kind and kind not in (stat.S_IFREG, stat.S_IFDIR):
            # symlinks, devices, fifos: a link inside a model could point anywhere on the server
            raise UnsafeArchive("coverage.err.link", entry=_shown(entry))
        if info.flag_bits & 0x1:
            raise UnsupportedFile("coverage.err.encrypted", name=name)
        normalized = str(PurePosixPath(entry))
        if normalized in seen:
            raise UnsafeArchive("coverage.err.duplicate", entry=_shown(entry))
        seen.add(normalized)
        total += info.file_size
        total_compressed += info.compress_size
        if info.file_size > BOMB_MIN_BYTES and info.file_size > MAX_RATIO * max(info.compress_size, 1):
            raise UnsafeArchive(
                "coverage.err.bomb", entry=_shown(entry), ratio=info.file_size // max(info.compress_size, 1)
            )
    if total > MAX_EXTRACTED_BYTES:
        raise UnsafeArchive(
            "coverage.err.too_big_extracted", size_mb=total // 2**20, limit_mb=MAX_EXTRACTED_BYTES // 2**20
        )
    if total > BOMB_MIN_BYTES and total > MAX_RATIO * max(total_compressed, 1):
        raise UnsafeArchive("coverage.err.bomb", entry="*", ratio=total // max(total_compressed, 1))
    return ArchiveInfo(len(infos), total, tuple(i.filename for i in infos))


def read_member(data: bytes, name: str, member_name: str, limit: int = MAX_EXTRACTED_BYTES) -> bytes:
    """One entry's bytes, read in memory (nothing is written to disk), stopping as soon as it exceeds its
    declared size or the limit: the sizes in a zip header can lie."""
    with zipfile.ZipFile(BytesIO(data)) as zf:
        member = zf.getinfo(member_name)
        out = bytearray()
        with zf.open(member) as src:
            while chunk := src.read(CHUNK):
                out += chunk
                if len(out) > member.file_size or len(out) > limit:
                    raise UnsafeArchive("coverage.err.size_mismatch", entry=_shown(member_name))
    return bytes(out)


def saved_model_entry(info: ArchiveInfo) -> str:
    """The archive's saved_model.pb: at the top level or in a folder (the shallowest one wins)."""
    candidates = [n for n in info.names if PurePosixPath(n).name == "saved_model.pb"]
    if not candidates:
        raise UnsupportedFile("coverage.err.not_saved_model")
    return min(candidates, key=lambda n: len(PurePosixPath(n).parts))


# --- .keras config checks -------------------------------------------------------------------------------------

_PATH_KEYS = {"vocabulary", "filepath", "file_path", "path", "filename", "vocabulary_file"}


def check_keras_config(config: object) -> None:
    """Refuse what safe mode should refuse anyway, before Keras parses it: Lambda layers, objects from
    modules outside Keras, references to the unsafe-deserialization switch, file paths and URLs."""

    def walk(node: object) -> None:
        if isinstance(node, dict):
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
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(config)


def _keras_config(data: bytes, name: str) -> dict:
    with zipfile.ZipFile(BytesIO(data)) as zf:
        try:
            member = zf.getinfo("config.json")
        except KeyError:
            raise UnsupportedFile("coverage.err.not_keras", name=name) from None
        if member.file_size > KERAS_CONFIG_MAX_BYTES:
            raise FileTooLarge(
                "coverage.err.too_large",
                name="config.json",
                size_mb=member.file_size // 2**20,
                limit_mb=KERAS_CONFIG_MAX_BYTES // 2**20,
            )
        raw = zf.read(member)
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise UnsupportedFile("coverage.err.not_keras", name=name) from None


def precheck_keras(data: bytes, name: str) -> None:
    """Everything checkable about a .keras file without TensorFlow: the archive and its config."""
    inspect_zip(data, name)
    check_keras_config(_keras_config(data, name))


def load_keras_bytes(data: bytes, name: str):
    """A Keras model from the bytes of a .keras file (prechecked, then Keras safe mode). Needs TensorFlow."""
    from rocm_bridge.coverage.trace import import_tensorflow, plain_text

    precheck_keras(data, name)
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
            raise UnsupportedFile("coverage.err.load_failed", name=name, detail=plain_text(str(exc))) from None
