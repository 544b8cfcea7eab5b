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
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from rocm_bridge import archive, limits
from rocm_bridge.errors import FileTooLarge, UnsafeArchive, UnsupportedFile

MAX_UPLOAD_BYTES = limits.server_upload_mb() * limits.MB  # server.maxUploadSize, as the browser counts it
MAX_EXTRACTED_BYTES = 256 * 1024 * 1024  # all entries together, uncompressed
MAX_ENTRIES = 2000  # a SavedModel has a handful of files; a Keras file three
MAX_RATIO = 100  # uncompressed / compressed, per entry and overall, above BOMB_MIN_BYTES
BOMB_MIN_BYTES = 1024 * 1024  # small entries (configs of zeros) may compress well; ignore them for the ratio
KERAS_CONFIG_MAX_BYTES = 8 * 1024 * 1024
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
        zf = archive.open_zip(data)
        members = archive.check_members(zf, LIMITS)
    except archive.ArchiveProblem as problem:
        raise _error(problem, name) from None
    total = sum(info.file_size for _, info in members)
    return ArchiveInfo(len(zf.infolist()), total, tuple(i.filename for i in zf.infolist()))


def read_member(data: bytes, name: str, member_name: str, limit: int = MAX_EXTRACTED_BYTES) -> bytes:
    """One entry's bytes, read in memory (nothing is written to disk), stopping as soon as it exceeds its
    declared size or the limit: the sizes in a zip header can lie."""
    try:
        with archive.open_zip(data) as zf:
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
    try:
        with archive.open_zip(data) as zf:
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
