"""A small headless Streamlit client over the websocket protocol (tests and bench scripts; loopback only).

It speaks what a browser tab speaks on /_stcore/stream: BackMsg.rerun_script (page, query string, widget values,
fragment id) out, ForwardMsg deltas in until script_finished. It keeps the elements of the last run, so a caller
can find a widget by key or label, set it, click a button and rerun, like AppTest but against a real server (or
nginx in front of several). Cookies and the handshake's response headers are kept, so sticky routing is visible;
`document.cookie='k=v; ...'` in an st.html script is applied (the only page JavaScript it runs), so a cookie the
app writes that way is sent on the next page load like a browser's.

    async with await Tab.open("http://127.0.0.1:8501") as tab:
        await tab.run("quiz", "lang=en")
        tab.set(tab.widget("text_input", key="qz_nick"), "ana")
        await tab.run("quiz", "lang=en")

streamlit and websockets are imported when a tab opens, not with this module (core import rule).
"""

from __future__ import annotations

import asyncio
import re
import socket
import time
import urllib.request
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any

QUICKACK = hasattr(socket, "TCP_QUICKACK")
WIDGET_TYPES = {
    "button", "form_submit_button", "text_input", "text_area", "number_input", "checkbox", "radio", "selectbox",
    "slider", "button_group", "multiselect", "download_button",
}  # fmt: skip


@dataclass
class Element:
    path: tuple[int, ...]
    type: str
    proto: Any  # the element's own proto (e.g. Markdown, Button)
    fragment_id: str = ""  # set when a fragment drew it: a click on it reruns that fragment only

    @property
    def id(self) -> str:
        return getattr(self.proto, "id", "")

    @property
    def key(self) -> str:
        """The key the script gave the widget ('' if none): ids look like '$$ID-<hash>-<key>'."""
        parts = self.id.split("-", 2)
        return parts[2] if len(parts) == 3 and parts[0] == "$$ID" else ""

    @property
    def label(self) -> str:
        return getattr(self.proto, "label", "")

    @property
    def text(self) -> str:
        for name in ("body", "label", "text", "message", "code_text"):
            value = getattr(self.proto, name, None)
            if isinstance(value, str) and value:
                return value
        return ""


@dataclass
class RunResult:
    seconds: float
    status: str
    elements: list[Element] = field(default_factory=list)
    messages: int = 0


def get(url: str, cookies: dict[str, str] | None = None, timeout: float = 10) -> tuple[int, dict[str, str], bytes]:
    """A plain HTTP GET (what a browser does before opening the websocket): status, headers, body.

    Set-Cookie values are merged into `cookies` when a dict is given."""
    req = urllib.request.Request(url)
    if cookies:
        req.add_header("Cookie", "; ".join(f"{k}={v}" for k, v in cookies.items()))
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            status, headers, body = resp.status, resp.headers, resp.read()
    except urllib.error.HTTPError as err:
        status, headers, body = err.code, err.headers, err.read()
    if cookies is not None:
        for raw in headers.get_all("Set-Cookie") or []:
            jar = SimpleCookie()
            jar.load(raw)
            cookies.update({k: m.value for k, m in jar.items()})
    return status, {k: v for k, v in headers.items()}, body


class Tab:
    """One browser tab: one websocket, one Streamlit session."""

    def __init__(self, ws: Any, base_url: str, cookies: dict[str, str]) -> None:
        self.ws = ws
        self.base_url = base_url
        self.cookies = cookies
        self.headers = {k.lower(): v for k, v in ws.response.headers.raw_items()}
        self.session_id = ""
        self.elements: dict[tuple[int, ...], Element] = {}
        self.auto_rerun: dict[str, float] = {}  # fragment id -> interval s (st.fragment(run_every=...))
        self.exceptions: list[str] = []
        self._states: dict[str, Any] = {}  # widget id -> WidgetState, sent with every rerun (like the browser)
        self._triggers: set[str] = set()
        self._page = ("", "")  # (page name asked for, page_script_hash the server ran for it)

    @classmethod
    async def open(
        cls, base_url: str, cookies: dict[str, str] | None = None, *, session_id: str = "", timeout: float = 30
    ) -> Tab:
        """Open the websocket; `session_id` asks to resume that session, as a browser does after a reconnect."""
        from websockets.asyncio.client import connect  # a Streamlit dependency

        cookies = dict(cookies or {})
        # The browser repurposes the subprotocol list: ["streamlit", xsrf token, session to resume].
        protocols = ["streamlit", "no-xsrf", session_id] if session_id else ["streamlit"]
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())} if cookies else None
        ws = await asyncio.wait_for(
            connect(base_url.replace("http", "ws", 1) + "/_stcore/stream", subprotocols=protocols,
                    additional_headers=headers, max_size=None, open_timeout=timeout),
            timeout,
        )  # fmt: skip
        sock = ws.transport.get_extra_info("socket")
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        tab = cls(ws, base_url, cookies)
        tab.session_id = session_id
        return tab

    @property
    def upstream(self) -> str:
        """The replica nginx routed this websocket to (X-RB-Upstream, deploy/nginx), or '' without nginx."""
        return self.headers.get("x-rb-upstream", "")

    async def __aenter__(self) -> Tab:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        await self.ws.close()

    # --- running ------------------------------------------------------------------------------------------

    async def run(
        self, page: str = "", query: str = "lang=en", *, fragment_id: str = "", auto: bool = False, timeout: float = 60
    ) -> RunResult:
        """Rerun the script (or one fragment) with the current widget values; wait for script_finished.

        A full run starts from a blank page (and forgets the old page's fragment timers, as the browser does);
        a fragment run replaces only what that fragment drew. `auto`: a timer's rerun, not a click."""
        from streamlit.proto.BackMsg_pb2 import BackMsg
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        msg = BackMsg()
        rerun = msg.rerun_script
        rerun.query_string = query
        rerun.page_name = page
        if self._page[0] == page and self._page[1]:  # staying on the page: the browser names it by its hash
            rerun.page_script_hash = self._page[1]
        if fragment_id:
            rerun.fragment_id = fragment_id
            rerun.is_auto_rerun = auto
        for ws in self._states.values():
            rerun.widget_states.widgets.append(ws)
        if fragment_id:
            self.elements = {p: e for p, e in self.elements.items() if e.fragment_id != fragment_id}
        else:
            self.elements = {}
            self.auto_rerun = {}
        self.exceptions.clear()
        t0 = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        for wid in self._triggers:  # a click is sent once
            self._states.pop(wid, None)
        self._triggers.clear()
        sock = self.ws.transport.get_extra_info("socket")
        n = 0
        while True:
            if QUICKACK:  # no 40 ms delayed-ACK stall per message on loopback (CONTRIBUTING: facts found)
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_QUICKACK, 1)
            try:
                raw = await asyncio.wait_for(self.ws.recv(), timeout)
            except TimeoutError:
                what = f"fragment {fragment_id}" if fragment_id else f"page {page!r}"
                raise TimeoutError(f"no script_finished for {what} after {timeout} s ({n} messages)") from None
            fwd = ForwardMsg()
            fwd.ParseFromString(raw)
            n += 1
            kind = fwd.WhichOneof("type")
            if kind == "new_session":  # a script run starts (also the second run after st.rerun())
                self.session_id = fwd.new_session.initialize.session_id or self.session_id
                redrawn = set(fwd.metadata.run.fragment_ids)
                if redrawn:
                    self.elements = {p: e for p, e in self.elements.items() if e.fragment_id not in redrawn}
                else:
                    self.elements = {}
            elif kind == "delta":
                self._delta(fwd)
            elif kind == "navigation":  # st.navigation names the page it ran: the browser reruns it by this hash
                self._page = (page, fwd.navigation.page_script_hash)
            elif kind == "auto_rerun":
                self.auto_rerun[fwd.auto_rerun.fragment_id] = fwd.auto_rerun.interval
            elif kind == "stop_auto_rerun":
                self.auto_rerun.clear()
            elif kind == "page_not_found":
                raise LookupError(f"page {page!r} not found")
            elif kind == "script_finished":
                status = ForwardMsg.ScriptFinishedStatus.Name(fwd.script_finished)
                if status == "FINISHED_EARLY_FOR_RERUN":
                    continue
                return RunResult(time.perf_counter() - t0, status, self.elements_in_order(), n)

    async def run_fragments(self, page: str = "", query: str = "lang=en") -> None:
        """What the browser's timer does for st.fragment(run_every=...): rerun every auto-rerun fragment once."""
        for fid in list(self.auto_rerun):
            await self.run(page, query, fragment_id=fid, auto=True)

    async def run_for(self, widget: Element, page: str = "", query: str = "lang=en") -> RunResult:
        """The rerun a change of this widget triggers: its fragment's, or the whole page's."""
        return await self.run(page, query, fragment_id=widget.fragment_id)

    def _delta(self, fwd: Any) -> None:
        delta = fwd.delta
        path = tuple(fwd.metadata.delta_path)
        if delta.WhichOneof("type") != "new_element":
            return
        el = delta.new_element
        ty = el.WhichOneof("type")
        if ty is None:
            return
        proto = getattr(el, ty)
        if ty == "exception":
            self.exceptions.append(f"{proto.type}: {proto.message}")
        elif ty == "html":  # the one piece of page JavaScript this client runs: cookie writes, as they arrive
            for name, value in re.findall(r"document\.cookie\s*=\s*'([\w-]+)=([^;']*)", proto.body):
                if value:
                    self.cookies[name] = value
                else:
                    self.cookies.pop(name, None)
        self.elements[path] = Element(path, ty, proto, delta.fragment_id)

    # --- reading and setting --------------------------------------------------------------------------------

    def elements_in_order(self) -> list[Element]:
        return [self.elements[p] for p in sorted(self.elements)]

    def texts(self) -> str:
        """All visible text of the last run (markdown, headings, alerts, captions, widget labels), one per line."""
        return "\n".join(e.text for e in self.elements_in_order() if e.text)

    def widgets(self, type_: str | None = None) -> list[Element]:
        return [e for e in self.elements_in_order() if e.type in WIDGET_TYPES and (type_ is None or e.type == type_)]

    def find(
        self, type_: str | None = None, *, key: str | None = None, prefix: str | None = None, label: str | None = None
    ) -> Element | None:
        """The first widget (of this type) with this key, key prefix or label; None if there is none."""
        for e in self.widgets(type_):
            if key is not None and e.key != key:
                continue
            if prefix is not None and not e.key.startswith(prefix):
                continue
            if label is not None and e.label != label:
                continue
            return e
        return None

    def widget(
        self, type_: str | None = None, *, key: str | None = None, prefix: str | None = None, label: str | None = None
    ) -> Element:
        """Like find, but LookupError (listing what is there) when the widget is missing."""
        found = self.find(type_, key=key, prefix=prefix, label=label)
        if found is None:
            have = [(e.type, e.label[:30], e.key) for e in self.widgets()]
            raise LookupError(f"no {type_} key={key!r} prefix={prefix!r} label={label!r}; widgets: {have}")
        return found

    def set(self, widget: Element, value: Any) -> None:
        """Give a widget a value for the next run (a click for buttons: value ignored)."""
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        ws = WidgetState()
        ws.id = widget.id
        ty = widget.type
        if ty in ("button", "form_submit_button", "download_button"):
            ws.trigger_value = True
            self._triggers.add(widget.id)
        elif ty in ("text_input", "text_area"):
            ws.string_value = str(value)
        elif ty == "number_input":
            if widget.proto.data_type == widget.proto.INT:
                ws.int_value = int(value)
            else:
                ws.double_value = float(value)
        elif ty == "checkbox":
            ws.bool_value = bool(value)
        elif ty in ("radio", "selectbox"):
            options = list(widget.proto.options)
            ws.string_value = options[value] if isinstance(value, int) else str(value)
        elif ty in ("button_group", "multiselect"):  # formatted option text, as the browser sends it
            options = [getattr(o, "content", o) for o in widget.proto.options]
            picks = value if isinstance(value, list | tuple) else [value]
            ws.string_array_value.data[:] = [options[v] if isinstance(v, int) else str(v) for v in picks]
        elif ty == "slider":
            ws.double_array_value.data[:] = [float(v) for v in (value if isinstance(value, list | tuple) else [value])]
        else:
            raise NotImplementedError(f"setting a {ty} is not supported by this client")
        self._states[widget.id] = ws

    def click(self, widget: Element) -> None:
        self.set(widget, True)


async def open_through(base_url: str, cookies: dict[str, str] | None = None) -> Tab:
    """Load the page over HTTP first (collecting cookies such as nginx's rb_route), then open the websocket."""
    jar = dict(cookies or {})
    await asyncio.to_thread(get, base_url + "/", jar)
    return await Tab.open(base_url, jar)
