"""Threat: upload limits said three ways (docs/security.md #8). The hipify page said 5 MB, the browser enforced
5 MB decimal (Streamlit counts 10**6 bytes per MB in the browser), the app 5 MiB and the server 50 MB: a 4.9 MiB
file was refused by the browser with a red icon and no message.

Now each uploader has one number N: the browser's limit (max_upload_size, or server.maxUploadSize from the
config), the app's check (N * 10**6 bytes, with a translated message) and the text the page shows.
"""

from __future__ import annotations

import tomllib

import pytest

from rocm_bridge import limits
from rocm_bridge.coverage import upload
from rocm_bridge.doctor import logs
from rocm_bridge.errors import FileTooLarge
from rocm_bridge.hipify import page_model as pm
from rocm_bridge.hipify import sources

MIB_4_9 = int(4.9 * 2**20)  # the file: 5,138,022 bytes, "4.9M" in ls -lh


def _uploaders(app_test, page: str, **query) -> list:
    at = app_test(page, **query)
    assert not at.exception
    return [e.proto for e in at.get("file_uploader")]


def test_config_holds_the_one_server_limit_in_mb():
    with open(limits.CONFIG, "rb") as fh:
        configured = tomllib.load(fh)["server"]["maxUploadSize"]
    assert limits.server_upload_mb() == configured
    assert configured * limits.MB == upload.MAX_UPLOAD_BYTES
    assert max(limits.HIPIFY_UPLOAD_MB, limits.DOCTOR_LOG_MB) <= configured  # the ceiling of every uploader


@pytest.mark.parametrize(
    ("page", "query", "app_limit_bytes"),
    [
        ("views/hipify.py", {}, sources.PAGE_MAX_BYTES),
        ("views/coverage.py", {"cv_source": "upload"}, upload.MAX_UPLOAD_BYTES),
    ],
)
def test_browser_limit_equals_the_apps_check(app_test, page, query, app_limit_bytes):
    (proto,) = _uploaders(app_test, page, **query)
    # the browser refuses above max_upload_size_mb * 10**6 bytes; the app refuses above the same number
    assert proto.max_upload_size_mb * limits.MB == app_limit_bytes


def test_hipify_file_at_the_limit_passes_and_above_gets_a_translated_message():
    assert pm.load_upload("ok.cu", b"a" * sources.PAGE_MAX_BYTES)
    with pytest.raises(FileTooLarge) as err:
        pm.load_upload("big.cu", b"a" * MIB_4_9)  # passes a Windows browser (MiB there), refused with words
    assert "5.1 MB" in err.value.message("en") and "5 MB" in err.value.message("en")
    assert "5.1 MB" in err.value.message("zh") and "上限" in err.value.message("zh")


def test_coverage_limit_message_in_both_languages():
    upload.check_size(b"a" * upload.MAX_UPLOAD_BYTES, "m.keras")
    with pytest.raises(FileTooLarge) as err:
        upload.check_size(b"a" * (upload.MAX_UPLOAD_BYTES + 1), "m.keras")
    limit = f"{upload.MAX_UPLOAD_BYTES // limits.MB} MB"
    assert limit in err.value.message("en") and limit in err.value.message("zh")


def test_doctor_log_limit_is_decimal_like_the_rest():
    assert logs.MAX_LOG_BYTES == limits.DOCTOR_LOG_MB * limits.MB
    with pytest.raises(FileTooLarge) as err:
        logs.decode_log(b"a" * (logs.MAX_LOG_BYTES + 1), "x.log")
    assert "2 MB" in err.value.message("en")


@pytest.mark.parametrize(
    ("page", "query", "limit_mb"),
    [
        ("views/hipify.py", {}, limits.HIPIFY_UPLOAD_MB),
        ("views/coverage.py", {"cv_source": "upload"}, limits.server_upload_mb()),
        ("views/doctor.py", {}, limits.DOCTOR_LOG_MB),
    ],
)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_text_says_the_same_number_once(app_test, page, query, limit_mb, lang):
    """The caption under each uploader (rocm_bridge/ui/upload.py) states the browser's number, in the page's
    language, and no other text of the page states a second size."""
    at = app_test(page, lang=lang, **query)
    (proto,) = [e.proto for e in at.get("file_uploader")]
    captions = [c.value for c in at.caption if " MB" in c.value]
    assert len(captions) == 1 and f"{limit_mb} MB" in captions[0] and " MB" not in proto.label, captions
    assert ("最大" in captions[0]) == (lang == "zh")
