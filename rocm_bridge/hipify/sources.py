"""Reading user input safely: bytes -> text with a note, size caps, and safe zip archives.

Text is decoded as UTF-8 with 'surrogateescape', so bytes that are not valid UTF-8 survive the round trip
unchanged (encode_text restores them) and the user is told where the first bad byte is. Data with NUL bytes
in its first 8 KiB is treated as binary and refused.
"""

from __future__ import annotations

import io
import posixpath
import stat
import zipfile
from typing import NamedTuple

from rocm_bridge.hipify.errors import FileTooLarge, NotText, UnsafeArchive, UnsupportedFile

SOURCE_EXTS = (".cu", ".cuh", ".cpp", ".h", ".hpp", ".cc", ".cxx", ".hxx", ".c", ".inl")
UPLOAD_EXTS = (".cu", ".cuh", ".cpp", ".h", ".hpp")
PAGE_MAX_BYTES = 5 * 1024 * 1024
CLI_MAX_BYTES = 64 * 1024 * 1024
ZIP_MAX_FILES = 500
ZIP_MAX_TOTAL = 20 * 1024 * 1024  # uncompressed bytes of the sources we extract
ZIP_MAX_RATIO = 100  # a member that inflates more than this is treated as a bomb


class Decoded(NamedTuple):
    text: str
    bad_utf8_at: int | None  # byte offset of the first invalid UTF-8 byte, or None


def decode_source(data: bytes, name: str = "input", max_bytes: int = CLI_MAX_BYTES) -> Decoded:
    if len(data) > max_bytes:
        raise FileTooLarge("hipify.err.too_large", name=name, size_mb=f"{len(data) / 2**20:.1f}",
                           limit_mb=f"{max_bytes / 2**20:.0f}")
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
    name = name.replace("\\", "/")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        return None
    norm = posixpath.normpath(name)
    if norm in (".", "") or norm.startswith("../") or norm == ".." or "/../" in f"/{norm}/":
        return None
    return norm


def read_zip(data: bytes, max_bytes: int = PAGE_MAX_BYTES) -> list[tuple[str, bytes]]:
    """The source files of a zip archive as (relative path, bytes), refusing anything unsafe.

    Refused: archives over max_bytes, more than ZIP_MAX_FILES members, absolute or '..' paths, symbolic links,
    encrypted members, a member whose size inflates beyond ZIP_MAX_RATIO, or sources totalling more than
    ZIP_MAX_TOTAL once extracted. Non-source members are skipped (listed by the caller if it wants).
    """
    if len(data) > max_bytes:
        raise FileTooLarge("hipify.err.too_large", name="zip", size_mb=f"{len(data) / 2**20:.1f}",
                           limit_mb=f"{max_bytes / 2**20:.0f}")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        raise UnsupportedFile("hipify.err.bad_zip", detail=str(exc)[:80]) from None
    if len(infos) > ZIP_MAX_FILES:
        raise UnsafeArchive("hipify.err.zip_too_many", n=len(infos), limit=ZIP_MAX_FILES)
    out: list[tuple[str, bytes]] = []
    total = 0
    for info in infos:
        if info.is_dir():
            continue
        name = safe_member_name(info.filename)
        if name is None:
            raise UnsafeArchive("hipify.err.zip_traversal", name=info.filename[:120])
        if stat.S_ISLNK(info.external_attr >> 16):
            raise UnsafeArchive("hipify.err.zip_link", name=name[:120])
        if info.flag_bits & 0x1:
            raise UnsafeArchive("hipify.err.zip_encrypted", name=name[:120])
        if not is_source_name(name):
            continue
        if info.file_size > ZIP_MAX_RATIO * max(info.compress_size, 1) and info.file_size > 1024 * 1024:
            raise UnsafeArchive("hipify.err.zip_bomb", name=name[:120])
        total += info.file_size
        if total > ZIP_MAX_TOTAL:
            raise UnsafeArchive("hipify.err.zip_bomb", name=name[:120])
        try:
            with archive.open(info) as fh:
                blob = fh.read(info.file_size + 1)  # never trust the header: read at most one byte more
        except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError) as exc:
            raise UnsupportedFile("hipify.err.bad_zip", detail=str(exc)[:80]) from None
        if len(blob) > info.file_size:
            raise UnsafeArchive("hipify.err.zip_bomb", name=name[:120])
        out.append((name, blob))
    return out


def write_zip(files: list[tuple[str, str]]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, text in files:
            archive.writestr(name, encode_text(text))
    return buf.getvalue()
