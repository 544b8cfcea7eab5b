"""Reading user input safely: bytes -> text with a note, size caps, and safe zip archives.

Text is decoded as UTF-8 with 'surrogateescape', so bytes that are not valid UTF-8 survive the round trip
unchanged (encode_text restores them) and the user is told where the first bad byte is. Data with NUL bytes
in its first 8 KiB is treated as binary and refused.
"""

from __future__ import annotations

from rocm_bridge.hipify.errors import FileTooLarge, NotText, UnsafeArchive, UnsupportedFile
from rocm_bridge.hipify.records import record
from rocm_bridge.limits import HIPIFY_UPLOAD_MB, MB, size_mb

SOURCE_EXTS = (".cu", ".cuh", ".cpp", ".h", ".hpp", ".cc", ".cxx", ".hxx", ".c", ".inl")
UPLOAD_EXTS = (".cu", ".cuh", ".cpp", ".h", ".hpp")
PAGE_MAX_BYTES = HIPIFY_UPLOAD_MB * MB  # the page's one upload limit, decimal MB as the browser counts
CLI_MAX_BYTES = 64 * 1024 * 1024
ZIP_MAX_FILES = 500
ZIP_MAX_TOTAL = 20 * 1024 * 1024  # uncompressed bytes of the sources we extract
ZIP_MAX_RATIO = 100  # a member that inflates more than this is treated as a bomb


@record
class Decoded:
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


# What a source that is not UTF-8 most likely is, tried in order: GB18030 (a superset of GBK / GB2312, the
# usual encoding of Chinese Windows editors), Windows-1252, then Latin-1, which decodes any byte string.
LEGACY_ENCODINGS = ("gb18030", "cp1252", "latin-1")


def decode_legacy(data: bytes) -> tuple[str, str]:
    """(text, encoding) for bytes that are not UTF-8. Each of these codecs turns the text back into the same
    bytes, so a translation written back in that encoding equals the command line's byte for byte.

    Latin text often decodes as GB18030 too (é followed by a letter is a valid GBK pair), so GB18030 is chosen
    only when most of its characters are in the GB2312 area (both bytes 0xA1-0xFE), as real Chinese text is."""
    for encoding in LEGACY_ENCODINGS:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        if encoding != "gb18030" or _mostly_gb2312(text):
            return text, encoding
    return data.decode("latin-1"), "latin-1"  # not reached: Latin-1 maps every byte


def _mostly_gb2312(text: str) -> bool:
    wide = [c for c in text if ord(c) > 0x7F]
    if not wide:
        return True
    good = 0
    for c in wide:
        b = c.encode("gb18030")
        good += len(b) == 2 and b[0] >= 0xA1 and b[1] >= 0xA1
    return good >= 0.8 * len(wide)


def encode_as(text: str, encoding: str) -> bytes:
    """text in the encoding it was read in (UTF-8 with the original bad bytes, or a legacy encoding); UTF-8 if
    an edit added characters that encoding cannot hold."""
    if encoding != "utf-8":
        try:
            return text.encode(encoding)
        except UnicodeEncodeError:
            pass
    return encode_text(text)


def encode_text(text: str) -> bytes:
    return text.encode("utf-8", errors="surrogateescape")


def is_source_name(name: str, exts: tuple[str, ...] = SOURCE_EXTS) -> bool:
    return name.lower().endswith(exts)


def safe_member_name(name: str) -> str | None:
    """A normalised relative path, or None if it is absolute, escapes the root or names a drive."""
    from rocm_bridge import archive

    return archive.safe_member_name(name, windows_separators=True)


def zip_limits():
    """rocm_bridge.archive.ZipLimits of this lab (archive, zipfile and dataclasses load only for a zip: the command
    line on one file does not pay for them)."""
    from rocm_bridge import archive

    return archive.ZipLimits(max_entries=ZIP_MAX_FILES, max_total_bytes=ZIP_MAX_TOTAL, max_ratio=ZIP_MAX_RATIO)


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


def read_zip(data: bytes, max_bytes: int = PAGE_MAX_BYTES, include=None) -> list[tuple[str, bytes]]:
    """The source files of a zip archive as (relative path, bytes), refusing anything unsafe (rocm_bridge.archive:
    traversal, links, encryption, duplicates, more than ZIP_MAX_FILES members, bombs, more than ZIP_MAX_TOTAL of
    sources). Non-source members are skipped."""
    if len(data) > max_bytes:
        raise FileTooLarge("hipify.err.too_large", name="zip", size_mb=size_mb(len(data)),
                           limit_mb=f"{max_bytes / MB:.0f}")
    from rocm_bridge import archive

    try:
        zl = zip_limits()
        zf = archive.open_zip(data, zl.max_entries)
        members = archive.check_members(zf, zl, include=include or is_source_name, windows_separators=True)
        return [(name, archive.read_member(zf, info, ZIP_MAX_TOTAL)) for name, info in members]
    except archive.ArchiveProblem as problem:
        if problem.reason == "not_zip":
            raise UnsupportedFile("hipify.err.bad_zip", detail=problem.params.get("detail", "")) from None
        raise UnsafeArchive(_ZIP_KEYS[problem.reason], name=problem.entry, n=problem.params.get("count", 0),
                            limit=problem.params.get("limit", ZIP_MAX_FILES)) from None


def write_zip(files: list[tuple[str, str | bytes]]) -> bytes:
    import io
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, text in files:
            zf.writestr(name, text if isinstance(text, bytes) else encode_text(text))
    return buf.getvalue()
