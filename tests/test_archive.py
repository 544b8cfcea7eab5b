"""The shared archive checks, seen through both labs that accept zips (hipify projects, coverage models)."""

import io
import stat
import zipfile

import pytest

from rocm_bridge import archive
from rocm_bridge.errors import UnsafeArchive
from rocm_bridge.hipify.sources import read_zip


def _zip(members, compression=zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression) as zf:
        for member, data in members:
            zf.writestr(member, data)
    return buf.getvalue()


@pytest.mark.parametrize(
    ("name", "windows", "expected"),
    [
        ("src/./a.cu", False, "src/a.cu"),
        ("src\\a.cu", True, "src/a.cu"),
        ("src\\a.cu", False, None),
        ("src/../a.cu", False, None),  # even a '..' that stays inside the root
        ("/etc/passwd", False, None),
        ("C:/a.cu", False, None),
        ("a\x00.cu", False, None),
        (".", False, None),
    ],
)
def test_safe_member_name(name, windows, expected):
    assert archive.safe_member_name(name, windows_separators=windows) == expected


def test_hipify_now_refuses_what_only_the_coverage_lab_refused_before():
    fifo = zipfile.ZipInfo("pipe.cu")
    fifo.external_attr = (stat.S_IFIFO | 0o644) << 16
    with pytest.warns(UserWarning):  # zipfile warns about the duplicate name it is asked to write
        twice = _zip([("a.cu", b"x"), ("a.cu", b"y")])
    for data, key in (
        (_zip([(fifo, b"")]), "hipify.err.zip_link"),
        (twice, "hipify.err.zip_duplicate"),
        (_zip([("src/../a.cu", b"x")]), "hipify.err.zip_traversal"),
    ):
        with pytest.raises(UnsafeArchive) as err:
            read_zip(data)
        assert err.value.key == key


def test_selected_members_only_count_toward_the_limits():
    limits = archive.ZipLimits(max_entries=10, max_total_bytes=100)
    zf = archive.open_zip(_zip([("big.bin", b"x" * 1000), ("a.cu", b"y" * 50)], zipfile.ZIP_STORED))
    members = archive.check_members(zf, limits, include=lambda n: n.endswith(".cu"))
    assert [name for name, _ in members] == ["a.cu"]
    with pytest.raises(archive.ArchiveProblem) as err:
        archive.check_members(zf, limits)
    assert err.value.reason == "too_big"


def test_a_member_is_never_read_past_the_limit_or_its_header():
    zf = archive.open_zip(_zip([("a.cu", b"z" * 5000)]))
    with pytest.raises(archive.ArchiveProblem) as err:
        archive.read_member(zf, zf.getinfo("a.cu"), limit=1000)
    assert err.value.reason == "size_mismatch"
    info = zf.getinfo("a.cu")
    info.file_size = 10  # a lying header: zipfile stops at 10 bytes and the CRC check refuses the member
    with pytest.raises(archive.ArchiveProblem):
        archive.read_member(zf, info, limit=1 << 20)
