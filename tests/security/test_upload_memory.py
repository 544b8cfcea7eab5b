"""Threat: one session parks hundreds of MB of uploads in the server's memory (issue 27, item 2: 8 x 50 MB in 8 s,
+400 MB). Against a real server: whatever one session sends, it holds at most one upload's worth."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from rocm_bridge.serve import start_server, stop_server
from tests import aio

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from wsclient import Session  # noqa: E402

CAP_MB = 20  # server.maxUploadSize for this server (MiB), so the test moves ~160 MB, not 400


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS")) / 1024


@pytest.fixture(scope="module")
def server():
    proc, url = start_server(env={"STREAMLIT_SERVER_MAX_UPLOAD_SIZE": str(CAP_MB)})
    yield proc, url
    stop_server(proc)


def test_a_session_keeps_one_upload_however_many_it_sends(server):
    proc, url = server

    async def flood() -> tuple[float, float, list[str]]:
        s = await Session.open(url)
        await s.run("coverage", query="lang=en&cv_source=upload")
        before = _rss_mb(proc.pid)
        infos = [await s.upload("cv_file", f"m{i}.zip", bytes([i]) * (CAP_MB * 1024 * 1024 - 4096))
                 for i in range(8)]
        after = _rss_mb(proc.pid)
        await s.run("coverage", {"cv_file": infos[-1]}, query="lang=en&cv_source=upload")
        texts = s.texts()
        await s.close()
        return before, after, texts

    before, after, texts = aio.run(flood())
    assert after - before < 2.5 * CAP_MB, (before, after)  # 8 x 20 MB sent; the last one (and slack) kept
    assert any("m7.zip" in t for t in texts)  # the newest file is the one the page still has
