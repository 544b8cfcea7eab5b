"""Reading user input safely: bytes -> text with a note, size caps, and safe zip archives.

Text is decoded as UTF-8 with 'surrogateescape', so bytes that are not valid UTF-8 survive the round trip
unchanged (encode_text restores them) and the user is told where the first bad byte is. Data with NUL bytes
in its first 8 KiB is treated as binary and refused.
"""

from __future__ import annotations

import io
import zipfile
from typing import NamedTuple

from rocm_bridge import archive
from rocm_bridge.hipify.errors import FileTooLarge, NotText, UnsafeArchive, UnsupportedFile
from rocm_bridge.limits import HIPIFY_UPLOAD_MB, MB, size_mb

SOURCE_EXTS = (".cu", ".cuh", ".cpp", ".h", ".hpp", ".cc", ".cxx", ".hxx", ".c", ".inl")
UPLOAD_EXTS = (".cu", ".cuh", ".cpp", ".h", ".hpp")
PAGE_MAX_BYTES = HIPIFY_UPLOAD_MB * MB  # the page's one upload limit, decimal MB as the browser counts
CLI_MAX_BYTES = 64 * 1024 * 1024
ZIP_MAX_FILES = 500
ZIP_MAX_TOTAL = 20 * 1024 * 1024  # uncompressed bytes of the sources we extract
ZIP_MAX_RATIO = 100  # a member that inflates more than this is treated as a bomb


class Decoded(NamedTuple):
    text: str
    bad_utf8_at: int | None  # byte offset of the first invalid UTF-8 byte, or None


def decode_source(data: bytes, name: str = "input", max_bytes: int = CLI_MAX_BYTES) -> Decoded:
    if len(data) > max_bytes:
        raise FileTooLarge("hipify.err.too_large", name=name, size_mb=size_mb(len(data)),
                           limit_mb=f"{max_bytes / MB:.0f}")
    if b"\x00" in data[:8192]:
        raise NotText("hipify.err.binary", name=name)
    try:
        return Decoded(data.decode("utf-8"), None)
    except UnicodeDecodeError as exc:
        return Decoded(data.decode("utf-8", errors="surrogateescape"), exc.start)


def encode_text(text: str) -> bytes:
    return text.encode("utf-8", errors="surrogateescape")


def is_source_name(name: str, exts: tuple[str, ...] = SOURCE_EXTS) -> bool:
    return name.lower().endswith(exts)


def safe_member_name(name: str) -> str | None:
    """A normalised relative path, or None if it is absolute, escapes the root or names a drive."""
    return archive.safe_member_name(name, windows_separators=True)


ZIP_LIMITS = archive.ZipLimits(max_entries=ZIP_MAX_FILES, max_total_bytes=ZIP_MAX_TOTAL, max_ratio=ZIP_MAX_RATIO)
# rocm_bridge.archive's reasons -> this lab's messages
_ZIP_KEYS = {
    "too_many": "hipify.err.zip_too_many",
    "bad_path": "hipify.err.zip_traversal",
    "link": "hipify.err.zip_link",
    "encrypted": "hipify.err.zip_encrypted",
    "duplicate": "hipify.err.zip_duplicate",
    "bomb": "hipify.err.zip_bomb",
    "too_big": "hipify.err.zip_bomb",
    "size_mismatch": "hipify.err.zip_bomb",
}


def read_zip(data: bytes, max_bytes: int = PAGE_MAX_BYTES) -> list[tuple[str, bytes]]:
    """The source files of a zip archive as (relative path, bytes), refusing anything unsafe (rocm_bridge.archive:
    traversal, links, encryption, duplicates, more than ZIP_MAX_FILES members, bombs, more than ZIP_MAX_TOTAL of
    sources). Non-source members are skipped."""
    if len(data) > max_bytes:
        raise FileTooLarge("hipify.err.too_large", name="zip", size_mb=size_mb(len(data)),
                           limit_mb=f"{max_bytes / MB:.0f}")
    try:
        zf = archive.open_zip(data)
        members = archive.check_members(zf, ZIP_LIMITS, include=is_source_name, windows_separators=True)
        return [(name, archive.read_member(zf, info, ZIP_MAX_TOTAL)) for name, info in members]
    except archive.ArchiveProblem as problem:
        if problem.reason == "not_zip":
            raise UnsupportedFile("hipify.err.bad_zip", detail=problem.params.get("detail", "")) from None
        raise UnsafeArchive(_ZIP_KEYS[problem.reason], name=problem.entry, n=problem.params.get("count", 0),
                            limit=problem.params.get("limit", ZIP_MAX_FILES)) from None


def write_zip(files: list[tuple[str, str]]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, text in files:
            archive.writestr(name, encode_text(text))
    return buf.getvalue()
