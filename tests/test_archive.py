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


# --- a huge central directory is refused from the end record, before zipfile parses it (issue 27, item 4) ----

def _many_entries(n: int) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        for i in range(n):
            z.writestr(f"{i}", b"")
    return buf.getvalue()


@pytest.fixture(scope="module")
def hundred_k() -> bytes:
    return _many_entries(100_000)  # more than 65,535: written with a zip64 end record


def _refused_cheaply(data: bytes) -> archive.ArchiveProblem:
    import tracemalloc

    tracemalloc.start()
    with pytest.raises(archive.ArchiveProblem) as err:
        archive.open_zip(data, max_entries=2000)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 1_000_000  # zipfile would build 100k ZipInfo objects (tens of MB) first
    return err.value


def test_entry_count_is_read_from_the_zip64_end_record(hundred_k):
    assert archive.directory_size(hundred_k)[0] == 100_000
    problem = _refused_cheaply(hundred_k)
    assert problem.reason == "too_many" and problem.params["count"] >= 100_000


def test_a_lying_end_record_is_caught_by_the_directory_size():
    data = bytearray(_many_entries(40_000))  # classic end record: 40,000 entries fit in 16 bits
    at = data.rfind(b"PK\x05\x06")
    data[at + 8:at + 12] = (1).to_bytes(2, "little") * 2  # "1 entry" on this disk and in all
    assert archive.directory_size(bytes(data))[0] == 1
    assert _refused_cheaply(bytes(data)).reason == "too_many"


def test_a_normal_archive_still_opens_with_the_check():
    zf = archive.open_zip(_many_entries(50), max_entries=2000)
    assert len(zf.infolist()) == 50


def test_a_truncated_end_record_is_not_a_zip():
    with pytest.raises(archive.ArchiveProblem) as err:
        archive.open_zip(_many_entries(3)[:-10], max_entries=2000)
    assert err.value.reason == "not_zip"
