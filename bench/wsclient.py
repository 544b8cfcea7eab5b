"""A Streamlit session without a browser: Streamlit's websocket protocol (BackMsg / ForwardMsg), as
bench/startup.py speaks it, plus widget values and file uploads, so a script can play a visitor who pastes,
clicks and uploads. Loopback only. Used by bench/abuse.py and tests/security/test_responsive_browserless.py.

    s = await Session.open(url)
    await s.run("doctor")                                   # first run: learn the widget ids
    await s.run("doctor", {"doc_log": text, "doc_log_go": True})   # True: a button click
    await s.run("live", {"lv_budget": ("numbers", [300]), "lv_small": ("bool", False), "lv_start": True})
    info = await s.upload("cv_file", "model.zip", data)     # PUT to Streamlit's upload endpoint
    await s.run("coverage", {"cv_file": info}, query="cv_source=upload")
    s.texts()                                               # every text the last run showed
"""

from __future__ import annotations

import asyncio
import socket
import time
import urllib.request
import uuid
from dataclasses import dataclass, field

QUICKACK = hasattr(socket, "TCP_QUICKACK")
XSRF_COOKIE = "_streamlit_xsrf"


def _xsrf_cookie(url: str) -> str:
    """The XSRF cookie the server sets on its health endpoint (needed for uploads)."""
    with urllib.request.urlopen(f"{url}/_stcore/health", timeout=10) as resp:
        for header in resp.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            if name.strip() == XSRF_COOKIE:
                return rest.split(";", 1)[0]
    return ""


@dataclass
class Session:
    url: str
    ws: object
    cookie: str
    session_id: str = ""
    elements: list = field(default_factory=list)  # (type, proto) of the last run's elements
    ids: dict = field(default_factory=dict)  # widget key -> widget id, from the runs so far

    @classmethod
    async def open(cls, url: str, source: str | None = None) -> Session:
        """`source`: the local address to connect from (another 127.x.y.z is another client on loopback)."""
        from websockets.asyncio.client import connect  # a Streamlit dependency

        cookie = await asyncio.to_thread(_xsrf_cookie, url)
        headers = {"Cookie": f"{XSRF_COOKIE}={cookie}"} if cookie else {}
        ws = await connect(url.replace("http", "ws", 1) + "/_stcore/stream", subprotocols=["streamlit"],
                           max_size=None, additional_headers=headers,
                           **({"local_addr": (source, 0)} if source else {}))  # fmt: skip
        sock = ws.transport.get_extra_info("socket")
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return cls(url, ws, cookie)

    async def close(self) -> None:
        await self.ws.close()

    async def _recv(self, timeout: float):
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        sock = self.ws.transport.get_extra_info("socket")
        if QUICKACK:  # see bench/startup.py: without it Linux adds ~40 ms of delayed ACK per rerun
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_QUICKACK, 1)
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        fwd = ForwardMsg()
        fwd.ParseFromString(raw)
        return fwd

    async def run(self, page: str, widgets: dict | None = None, query: str = "lang=en",
                  timeout: float = 600) -> float:  # fmt: skip
        """Rerun `page` (its url_path) with these widget values; seconds until the script finished."""
        from streamlit.proto.BackMsg_pb2 import BackMsg

        msg = BackMsg()
        msg.rerun_script.query_string = query
        msg.rerun_script.page_name = page
        for key, value in (widgets or {}).items():
            state = msg.rerun_script.widget_states.widgets.add()
            state.id = self.ids[key]
            if value is True:
                state.trigger_value = True
            elif isinstance(value, str):
                state.string_value = value
            elif isinstance(value, tuple) and value[0] == "bool":  # a checkbox or toggle
                state.bool_value = value[1]
            elif isinstance(value, tuple) and value[0] == "numbers":  # a slider
                state.double_array_value.data.extend(value[1])
            else:  # an UploadedFileInfo from upload()
                state.file_uploader_state_value.uploaded_file_info.append(value)
        t0 = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        self.elements = []
        while True:
            fwd = await self._recv(timeout)
            kind = fwd.WhichOneof("type")
            if kind == "new_session":
                self.session_id = fwd.new_session.initialize.session_id or self.session_id
            elif kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
                el = fwd.delta.new_element
                etype = el.WhichOneof("type")
                proto = getattr(el, etype) if etype else None
                self.elements.append((etype, proto))
                wid = getattr(proto, "id", "") if proto is not None else ""
                if isinstance(wid, str) and wid.startswith("$$ID"):
                    self.ids[wid.rsplit("-", 1)[-1]] = wid
            elif kind == "page_not_found":
                raise RuntimeError(f"page {page!r} not found")
            elif kind == "script_finished":
                return time.perf_counter() - t0

    def texts(self) -> list[str]:
        """The body / label text of every element of the last run (alerts, markdown, captions, exceptions)."""
        out = []
        for etype, proto in self.elements:
            for name in ("body", "message", "label", "text"):
                value = getattr(proto, name, None)
                if isinstance(value, str) and value:
                    out.append(f"{etype}: {value}")
        return out

    def exceptions(self) -> list[str]:
        return [p.message for t, p in self.elements if t == "exception"]

    async def upload(self, key: str, name: str, data: bytes):
        """Upload a file for the uploader `key` the way the browser does; returns the UploadedFileInfo to pass
        to run() as that widget's value."""
        from streamlit.proto.BackMsg_pb2 import BackMsg
        from streamlit.proto.Common_pb2 import UploadedFileInfo

        msg = BackMsg()
        request_id = uuid.uuid4().hex
        msg.file_urls_request.request_id = request_id
        msg.file_urls_request.file_names.append(name)
        msg.file_urls_request.session_id = self.session_id
        await self.ws.send(msg.SerializeToString())
        while True:
            fwd = await self._recv(60)
            if fwd.WhichOneof("type") == "file_urls_response" and fwd.file_urls_response.response_id == request_id:
                urls = fwd.file_urls_response.file_urls[0]
                break
        upload_url = urls.upload_url if urls.upload_url.startswith("http") else self.url + urls.upload_url
        await asyncio.to_thread(self._put, upload_url, name, data)
        info = UploadedFileInfo(file_id=urls.file_id, name=name, size=len(data))
        info.file_urls.CopyFrom(urls)
        return info

    def _put(self, url: str, name: str, data: bytes) -> None:
        boundary = uuid.uuid4().hex
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n"
                "Content-Type: application/octet-stream\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
        req = urllib.request.Request(url, data=body, method="PUT", headers={
            "Content-Type": f"multipart/form-data; boundary={boundary}",
            "X-Xsrftoken": self.cookie, "Cookie": f"{XSRF_COOKIE}={self.cookie}"})  # fmt: skip
        with urllib.request.urlopen(req, timeout=120) as resp:
            if resp.status not in (200, 204):
                raise RuntimeError(f"upload refused: HTTP {resp.status}")


async def rerun_loop(url: str, page: str, stop: asyncio.Event, warmup: int = 2) -> list[float]:
    """Another visitor: rerun `page` back to back until `stop` is set; the rerun times (s)."""
    s = await Session.open(url)
    try:
        for _ in range(warmup):
            await s.run(page)
        times = []
        while not stop.is_set():
            times.append(await s.run(page))
        return times
    finally:
        await s.close()


def p95(times: list[float]) -> float:
    ms = sorted(times)
    return ms[int(0.95 * (len(ms) - 1))] if ms else float("nan")
