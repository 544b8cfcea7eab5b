"""Reading uploaded zip archives safely, for every lab that accepts one (hipify projects, coverage models).

Nothing is extracted to disk. The directory is checked before any member is read: every name must be a plain
relative path (no '..', no absolute or drive paths, no NUL), no member may be a link, device or fifo, none may be
encrypted or appear twice; the member count, the total uncompressed size and the compression ratio (per member
and overall) are capped, so zip bombs are refused before they inflate. Members are then read in memory, counting
bytes as they come, because the sizes in a zip header can lie.

Problems are raised as ArchiveProblem with a reason code; each lab turns it into its own translated error.
"""

from __future__ import annotations

import re
import stat
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from io import BytesIO
from pathlib import PurePosixPath

CHUNK = 1024 * 1024
REASONS = ("not_zip", "too_many", "bad_path", "link", "encrypted", "duplicate", "bomb", "too_big", "size_mismatch")


class ArchiveProblem(Exception):
    """What is wrong with an archive: a reason from REASONS, the member concerned (shown safely) and figures."""

    def __init__(self, reason: str, entry: str = "", **params: object) -> None:
        assert reason in REASONS, reason
        self.reason, self.entry, self.params = reason, entry, params
        super().__init__(f"{reason}: {entry} {params}")


@dataclass(frozen=True)
class ZipLimits:
    max_entries: int
    max_total_bytes: int  # uncompressed, of the members that are read
    max_ratio: int = 100  # uncompressed / compressed, per member and overall
    bomb_min_bytes: int = 1024 * 1024  # small members (a config of zeros) may compress well: no ratio check


def shown(entry: str) -> str:
    """A member name for a message: '..' and '/' stay visible, anything else odd becomes '?'."""
    return re.sub(r"[^\w./\-]", "?", entry)[:120]


def safe_member_name(name: str, *, windows_separators: bool = False) -> str | None:
    """The member's normalised relative path, or None when it is absolute, names a drive, contains '..' or NUL.

    A backslash is a path separator only when windows_separators is set (archives made by Windows tools);
    otherwise it makes the name unsafe.

    >>> safe_member_name("src/./a.cu"), safe_member_name("../a.cu"), safe_member_name("C:/a.cu")
    ('src/a.cu', None, None)
    """
    if windows_separators:
        name = name.replace("\\", "/")
    if not name or "\x00" in name or "\\" in name or name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        return None
    parts = [p for p in PurePosixPath(name).parts if p != "."]
    if not parts or ".." in parts:
        return None
    return "/".join(parts)


_EOCD, _EOCD64, _LOCATOR64 = b"PK\x05\x06", b"PK\x06\x06", b"PK\x06\x07"
CENTRAL_HEADER_BYTES = 46  # a central-directory entry without its name, extra field and comment
ENTRY_BYTES_ALLOWED = 512  # a generous average per entry (name, extra fields, comment): a path of ~400 characters


def directory_size(data: bytes) -> tuple[int, int]:
    """(entries, central-directory bytes) as the end-of-central-directory record states them (zip64 too), read
    from the archive's tail without parsing the directory itself (APPNOTE.TXT 4.3.14-4.3.16)."""
    import struct

    at = data.rfind(_EOCD, max(0, len(data) - 65_557))  # the record (22 bytes) plus a comment of at most 65,535
    if at < 0 or at + 22 > len(data):
        raise ArchiveProblem("not_zip", detail="no end of central directory")
    entries, size = struct.unpack_from("<xxxxxxxxxxHI", data, at)
    if entries == 0xFFFF or size == 0xFFFFFFFF:  # zip64: the locator just before points at the zip64 record
        loc = at - 20
        if loc < 0 or data[loc:loc + 4] != _LOCATOR64:
            raise ArchiveProblem("not_zip", detail="bad zip64 locator")
        (offset,) = struct.unpack_from("<Q", data, loc + 8)
        if offset + 56 > len(data) or data[offset:offset + 4] != _EOCD64:
            raise ArchiveProblem("not_zip", detail="bad zip64 record")
        entries, size = struct.unpack_from("<QQ", data, offset + 32)
    return entries, size


def open_zip(data: bytes, max_entries: int | None = None) -> zipfile.ZipFile:
    """The archive, its directory parsed; with `max_entries`, an archive whose end record states more entries, or
    a directory larger than that many entries need, is refused from the record alone, before Python's zipfile
    parses (and holds) the whole directory: 950k entries cost it 520 MB and 10 s."""
    if not data.startswith(b"PK\x03\x04"):
        raise ArchiveProblem("not_zip", detail="no zip signature")
    if max_entries is not None:
        entries, size = directory_size(data)
        if entries > max_entries or size > max_entries * ENTRY_BYTES_ALLOWED:
            count = max(entries, size // CENTRAL_HEADER_BYTES)
            raise ArchiveProblem("too_many", count=count, limit=max_entries)
    try:
        return zipfile.ZipFile(BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as exc:
        raise ArchiveProblem("not_zip", detail=str(exc)[:80]) from None


def check_members(
    archive: zipfile.ZipFile,
    limits: ZipLimits,
    *,
    include: Callable[[str], bool] | None = None,
    windows_separators: bool = False,
) -> list[tuple[str, zipfile.ZipInfo]]:
    """Check every member of the directory; return (safe name, info) of the files `include` selects, in order.

    Names, types, encryption and duplicates are checked for every member; sizes and ratios for the selected ones.
    """
    infos = archive.infolist()
    if len(infos) > limits.max_entries:
        raise ArchiveProblem("too_many", count=len(infos), limit=limits.max_entries)
    selected: list[tuple[str, zipfile.ZipInfo]] = []
    seen: set[str] = set()
    total = compressed = 0
    for info in infos:
        name = safe_member_name(info.filename, windows_separators=windows_separators)
        if name is None:
            raise ArchiveProblem("bad_path", shown(info.filename))
        kind = stat.S_IFMT(info.external_attr >> 16)  # 0 when the archiver recorded no file type
        if kind and kind not in (stat.S_IFREG, stat.S_IFDIR):  # links, devices, fifos
            raise ArchiveProblem("link", shown(name))
        if info.flag_bits & 0x1:
            raise ArchiveProblem("encrypted", shown(name))
        if name in seen:
            raise ArchiveProblem("duplicate", shown(name))
        seen.add(name)
        if info.is_dir() or (include is not None and not include(name)):
            continue
        ratio = info.file_size // max(info.compress_size, 1)
        if info.file_size > limits.bomb_min_bytes and ratio > limits.max_ratio:
            raise ArchiveProblem("bomb", shown(name), ratio=ratio)
        total += info.file_size
        compressed += info.compress_size
        if total > limits.max_total_bytes:
            raise ArchiveProblem("too_big", shown(name), size_mb=total // 2**20,
                                 limit_mb=limits.max_total_bytes // 2**20)
        selected.append((name, info))
    if total > limits.bomb_min_bytes and total > limits.max_ratio * max(compressed, 1):
        raise ArchiveProblem("bomb", "*", ratio=total // max(compressed, 1))
    return selected


def read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int) -> bytes:
    """One member's bytes, in memory, stopping as soon as it exceeds its declared size or the limit."""
    out = bytearray()
    try:
        with archive.open(info) as src:
            while chunk := src.read(CHUNK):
                out += chunk
                if len(out) > info.file_size or len(out) > limit:
                    raise ArchiveProblem("size_mismatch", shown(info.filename))
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError) as exc:
        raise ArchiveProblem("not_zip", detail=str(exc)[:80]) from None
    return bytes(out)
