"""Who is learning: a nickname plus a private resume code, and the outbox that never loses an answer.

Identity. Joining gives a resume code, shown once. The browser keeps it in a cookie (`rb_me`), written by a
few lines of our own JavaScript through `st.html(..., unsafe_allow_javascript=True)` (Streamlit 1.67 can read
cookies, `st.context.cookies`, but has no API to write one); a reload reads it back from `st.context.cookies`.
A `?me=CODE` link is the fallback a learner copies to another device; it is taken out of the address bar
once read. Typing a nickname never gives a history: only the code does.

Outbox. Every write (an answer, an exam's progress, its submission, a chapter read) goes through `submit`:
it is kept in the session until the database confirms it, retried on every run and every few seconds while
the database is away, and a notice says how many are waiting. Each answer carries a client key, so a retry
of a write that did reach the database is stored once.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

import streamlit as st
from sqlalchemy.exc import IntegrityError

from rocm_bridge.classroom import classes as classes_mod
from rocm_bridge.classroom import codes
from rocm_bridge.classroom.ratelimit import TooManyAttempts
from rocm_bridge.errors import RocmBridgeError
from rocm_bridge.quiz import store
from rocm_bridge.quiz.store import log_db_error
from rocm_bridge.text import md_escape
from rocm_bridge.ui import show_error, tr

LEARNER = "qz_learner"  # store.Learner once known
CLASS = "qz_class"  # classes.ClassInfo of the learner's class
NEW_CODE = "qz_new_code"  # the resume code just issued (shown once, until dismissed)
OUTBOX = "qz_outbox"  # writes not yet confirmed by the database
TRIED = "qz_identified"
SWITCH = "qz_switch_to"  # a ?me= code that would replace this device's own learner: asked first, never silent
COOKIE = "rb_me"
COOKIE_DAYS = 180
BACK = "qz_db_back"  # when the outbox last emptied after an outage (the "database is back" notice)
BACK_SHOW_S = 10
DOWN = "qz_db_down"  # a write of this session failed and is waiting

def outage(exc: Exception) -> None:
    """A database that cannot be reached: a translated message, never a traceback (and a line in the log)."""
    log_db_error(exc, "page")
    show_error(store.StoreUnavailable(detail=type(exc).__name__))


def get_store() -> store.Store | None:
    try:
        return store.get_store()
    except RocmBridgeError as err:
        show_error(err)
    return None


def client_address() -> str:
    """Who is asking, for the rate limits: the socket's peer address, or the proxy's X-Real-IP when that peer is
    a trusted proxy (ROCM_BRIDGE_TRUST_PROXY, classroom.ratelimit.trusted_proxy): a visitor who reaches the app
    directly cannot pick their own bucket by sending the header."""
    import os

    from rocm_bridge.classroom.ratelimit import forwarded_client

    headers = {name.lower(): st.context.headers.get(name) or "" for name in ("X-Real-Ip", "X-Forwarded-For")}
    return forwarded_client(st.context.ip_address or "local", headers, os.environ.get("ROCM_BRIDGE_TRUST_PROXY", ""))


def client_session() -> str:
    """This browser tab's Streamlit session id: the rate limits count a guesser's own tab first."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    return ctx.session_id if ctx else ""


def current() -> store.Learner | None:
    return st.session_state.get(LEARNER)


def current_class() -> classes_mod.ClassInfo | None:
    return st.session_state.get(CLASS)


def _set(db: store.Store, found: store.Learner) -> None:
    st.session_state[LEARNER] = found
    st.session_state[CLASS] = classes_mod.get_class(db, found.class_id) if found.class_id else None


def identify() -> store.Learner | None:
    """Once per session: resume from ?me= or the cookie. Then flush the outbox (every run)."""
    if not st.session_state.get("qz_restored"):
        st.session_state["qz_restored"] = True
        _restore_outbox()
    if not st.session_state.get(TRIED):
        code = st.query_params.get("me")
        from_link = code is not None
        own = st.context.cookies.get(COOKIE)
        if from_link and own and _clean(own) != _clean(code):
            # a link would silently replace this device's learner (whose later answers would then go to the
            # link's history): keep the device's own identity and ask
            st.session_state[SWITCH] = str(code)[:40]
            code, from_link = own, False
            st.query_params.pop("me", None)
        if code is None:
            code = own
        db = _quiet_store() if code else None
        if db is None and code and not from_link and current() is None:
            who = _who_from_cookie()  # the database is away: who this is, from the signed cookie
            if who is not None:
                st.session_state[LEARNER], st.session_state[CLASS] = who, None
                st.session_state[PROVISIONAL] = True
        if db is not None:
            st.session_state[TRIED] = True
            try:
                found = classes_mod.resume(db, str(code), client_address(), client_session())
            except TooManyAttempts as err:
                show_error(err)
                found = None
            except Exception as exc:  # noqa: BLE001 - a database outage: try again on the next run
                st.session_state[TRIED] = False
                found = None
                who = _who_from_cookie() if current() is None and not from_link else None
                if who is not None:  # who this is, from the signed cookie, until the database is back
                    st.session_state[LEARNER], st.session_state[CLASS] = who, None
                    st.session_state[PROVISIONAL] = True
                    log_db_error(exc, "identify")
                elif current() is None:
                    outage(exc)
            if found is not None:
                _set(db, found)
                st.session_state.pop(PROVISIONAL, None)
                if from_link:
                    write_cookie(str(code))  # this device remembers it from now on
            elif st.session_state[TRIED] and not from_link:
                forget_cookie()  # a code of deleted data
            elif st.session_state[TRIED]:
                st.toast(tr("classroom.me.unknown"), icon=":material/link_off:")
        elif not code:
            st.session_state[TRIED] = True
        if from_link:
            st.query_params.pop("me", None)
    if st.session_state.get(SWITCH):
        _ask_switch()
    flush()
    me = current()
    if me is not None and not st.session_state.get(PROVISIONAL):
        write_who(me)
    sync_outbox_cookie()
    emit_cookies()
    return me


def _quiet_store() -> store.Store | None:
    """The store, or None while the database is away (with the outage message only when nobody is known)."""
    try:
        return store.get_store()
    except RocmBridgeError as err:
        log_db_error(err.__cause__ or err, "identify")
        if current() is None and not _who_from_cookie():
            show_error(err)
    return None


def _clean(code: object) -> str:
    return codes.clean_code(code, codes.RESUME_LEN) or str(code)


def _confirm_switch() -> None:
    me = current()
    st.markdown(tr("classroom.me.switch_ask", nick=md_escape(me.nickname) if me else "?"))
    keep, switch = st.columns(2)
    if keep.button(tr("classroom.me.switch_keep"), type="primary", use_container_width=True):
        st.session_state.pop(SWITCH, None)
        st.rerun()
    if switch.button(tr("classroom.me.switch_yes"), use_container_width=True):
        _switch_to(st.session_state.pop(SWITCH, ""))
        st.rerun()


def _switch_to(code: str) -> None:
    """Make the link's learner this device's one (cookie included); a wrong code, the rate limit or an outage is
    a message, never a traceback."""
    db = get_store()
    if db is None:
        return
    try:
        found = classes_mod.resume(db, code, client_address(), client_session())
    except TooManyAttempts as err:
        show_error(err)
        return
    except Exception as exc:  # noqa: BLE001 - a database outage: the device keeps its learner
        outage(exc)
        return
    if found is None:
        st.toast(tr("classroom.me.unknown"), icon=":material/link_off:")
        return
    _set(db, found)
    write_cookie(code)


def _ask_switch() -> None:
    """A ?me= link opened on a device that already has a learner: ask before switching."""
    if current() is None:  # the device's own code is gone: the link simply applies
        _switch_to(st.session_state.pop(SWITCH))
        return
    st.dialog(tr("classroom.me.switch_title"), dismissible=False)(_confirm_switch)()


COOKIE_PENDING = "qz_cookie"  # {name: value} to write on the next complete run (a rerun would drop the script)


def set_cookie(name: str, value: str, max_age_s: int, max_len: int = 64) -> None:
    """Write (value) or clear ("") a cookie of this site on this run; values keep [A-Za-z0-9-] only."""
    clean = "".join(ch for ch in value if ch.isascii() and (ch.isalnum() or ch == "-"))[:max_len]
    st.session_state.setdefault(COOKIE_PENDING, {})[name] = (clean, max_age_s if clean else 0)


def write_cookie(code: str) -> None:
    set_cookie(COOKIE, code[:40], COOKIE_DAYS * 86400)


def forget_cookie() -> None:
    set_cookie(COOKIE, "", 0)
    set_cookie(WHO_COOKIE, "", 0)
    set_cookie(OUTBOX_COOKIE, "", 0)


# --- what the browser keeps while the database is away (issue 27.10) -------------------------------------
#
# A session's outbox lives in one server process: if that replica dies while the database is down, its unsent
# answers would die with it. So while writes wait, the browser keeps a copy in the `rb_ob` cookie (compressed
# JSON, signed), and the learner's id, class and nickname in `rb_who` (signed): the new session on another
# replica, or after a reload, reads both from the websocket handshake (st.context.cookies), knows who this is
# without the database, and writes the answers once it is back (client keys make a second copy harmless).
# Signed with server.cookieSecret (STREAMLIT_SERVER_COOKIE_SECRET, which every replica must share, deploy/ sets
# it), so nobody can put answers into another learner's history by editing a cookie. A cookie holds about 4 KB:
# OUTBOX_COOKIE_MAX characters keep roughly 55 answers (33: 2.5 KB); past that the oldest stay in this tab only, and the
# notice says how many the browser holds.

WHO_COOKIE = "rb_who"
OUTBOX_COOKIE = "rb_ob"
OUTBOX_COOKIE_MAX = 3800
PROVISIONAL = "qz_provisional"  # the learner came from rb_who while the database was away


def _secret() -> bytes:
    return str(st.get_option("server.cookieSecret") or "").encode()


def _seal(obj: Any) -> str:
    import base64
    import hashlib
    import hmac
    import json
    import zlib

    body = base64.b32encode(zlib.compress(json.dumps(obj, separators=(",", ":")).encode(), 9)).decode().rstrip("=")
    mac = hmac.new(_secret(), body.encode(), hashlib.sha256).hexdigest()[:32]
    return f"{body}-{mac}"


def _unseal(raw: str | None) -> Any:
    """The signed value, or None (absent, altered, or signed by a replica with another secret)."""
    import base64
    import hashlib
    import hmac
    import json
    import zlib

    body, _, mac = str(raw or "").rpartition("-")
    if not body or not hmac.compare_digest(mac, hmac.new(_secret(), body.encode(), hashlib.sha256).hexdigest()[:32]):
        return None
    try:
        data = zlib.decompressobj().decompress(base64.b32decode(body + "=" * (-len(body) % 8)), 1 << 16)
        return json.loads(data)
    except (ValueError, zlib.error):
        return None


def write_who(me: store.Learner) -> None:
    value = _seal([me.id, me.class_id, me.nickname])
    if st.context.cookies.get(WHO_COOKIE) != value and st.session_state.get("qz_who") != value:
        st.session_state["qz_who"] = value
        set_cookie(WHO_COOKIE, value, COOKIE_DAYS * 86400, max_len=400)


def _who_from_cookie() -> store.Learner | None:
    found = _unseal(st.context.cookies.get(WHO_COOKIE))
    if not (isinstance(found, list) and len(found) == 3 and all(isinstance(v, int) for v in found[:2])):
        return None
    return store.Learner(int(found[0]), str(found[2])[:store.NICK_MAX], int(found[1]))


def _restore_outbox() -> None:
    """Writes a dead replica (or the tab before a reload) kept in the browser join this session's outbox."""
    found = _unseal(st.context.cookies.get(OUTBOX_COOKIE))
    if not isinstance(found, list):
        return
    box: list[dict[str, Any]] = st.session_state.setdefault(OUTBOX, [])
    have = {(w["op"], w.get("client_key"), w.get("exam_id")) for w in box}
    for w in found:
        if isinstance(w, dict) and w.get("op") in OPS and (w["op"], w.get("client_key"), w.get("exam_id")) not in have:
            box.append(w)
    if box:
        st.session_state["qz_outbox_cookie"] = True


def in_browser() -> int:
    """How many waiting writes the browser's cookie holds too (the newest that fit)."""
    return st.session_state.get("qz_outbox_kept", 0)


def sync_outbox_cookie() -> None:
    """Every full run while writes wait: the browser's copy of them; cleared once they are written."""
    box: list[dict[str, Any]] = st.session_state.get(OUTBOX) or []
    if not box:
        had = st.session_state.pop("qz_outbox_cookie", False) or bool(st.context.cookies.get(OUTBOX_COOKIE))
        if had and not st.session_state.get("qz_outbox_cleared"):
            st.session_state["qz_outbox_cleared"] = True
            set_cookie(OUTBOX_COOKIE, "", 0)
        return
    st.session_state.pop("qz_outbox_cleared", None)
    kept = list(box)
    value = _seal(kept)
    while len(value) > OUTBOX_COOKIE_MAX and kept:  # the oldest first out: they are also the first to retry here
        kept = kept[max(1, len(kept) // 8):]
        value = _seal(kept)
    st.session_state["qz_outbox_kept"] = len(kept)
    st.session_state["qz_outbox_cookie"] = True
    set_cookie(OUTBOX_COOKIE, value if kept else "", COOKIE_DAYS * 86400, max_len=OUTBOX_COOKIE_MAX)


def emit_cookies() -> None:
    """Our own script, our own names and values ([A-Za-z0-9-] only): sets or clears the pending cookies."""
    pending = st.session_state.pop(COOKIE_PENDING, None)
    if not pending:
        return
    lines = "".join(f"document.cookie='{name}={value}; Path=/; Max-Age={age}; SameSite=Lax';"
                    for name, (value, age) in pending.items())
    st.html(f"<script>{lines}</script>", unsafe_allow_javascript=True)


def leave() -> None:
    for key in (LEARNER, CLASS, NEW_CODE, "qz_exam"):
        st.session_state.pop(key, None)
    st.session_state[TRIED] = True
    forget_cookie()


def join(nickname: str, join_code: str = "") -> bool:
    """Join (with a class code or without); shows the reason when it fails."""
    try:
        nick = store.validate_nickname(nickname)
        db = get_store()
        if db is None:
            return False
        if join_code.strip():
            info, found, code = classes_mod.join_class(db, join_code, nick, client_address(), client_session())
        else:
            found, code = db.join(nick)
            info = None
    except RocmBridgeError as err:
        show_error(err)
        return False
    except Exception as exc:  # noqa: BLE001 - the database went away after connecting
        outage(exc)
        return False
    st.session_state[LEARNER] = found
    st.session_state[CLASS] = info
    st.session_state[NEW_CODE] = code
    st.session_state.pop("qz_exam", None)
    write_cookie(code)
    return True


def resume_with(code: str) -> bool:
    db = get_store()
    if db is None:
        return False
    try:
        found = classes_mod.resume(db, code, client_address(), client_session())
    except RocmBridgeError as err:
        show_error(err)
        return False
    except Exception as exc:  # noqa: BLE001
        outage(exc)
        return False
    if found is None:
        show_error(classes_mod.UnknownClass("classroom.errors.unknown_code"))
        return False
    _set(db, found)
    st.session_state.pop("qz_exam", None)
    write_cookie(code)
    return True


def me_link(code: str) -> str:
    from rocm_bridge.pages import page

    base = (st.context.url or "").split("?")[0].rstrip("/")
    root = base.rsplit("/", 1)[0] if base.count("/") > 2 else base
    return f"{root}/{page('progress').url_path}?me={code}"


def learner_box() -> None:
    """Who am I: the nickname (and class), the code shown once; or forms to join or to come back."""
    me = identify()
    outbox_notice()
    if st.session_state.pop("qz_gone", False):
        st.info(tr("classroom.gone"), icon=":material/person_off:")
    if me:
        info = current_class()
        cols = st.columns([4, 1])
        text = tr("quiz.nick.as", nick=md_escape(me.nickname))
        if info:
            text += " · " + tr("classroom.in_class", name=md_escape(info.name), code=info.join_code)
        cols[0].markdown(text)
        if cols[1].button(tr("quiz.nick.leave"), key="qz_nick_leave"):
            leave()
            st.rerun()
        code = st.session_state.get(NEW_CODE)
        if code:
            with st.container(border=True):
                st.markdown(tr("classroom.code.once"))
                st.code(code, language=None)
                st.caption(tr("classroom.code.link"))
                st.code(me_link(code), language=None)
                if st.button(tr("classroom.code.done"), key="qz_code_done"):
                    st.session_state.pop(NEW_CODE, None)
                    st.rerun()
        return
    with st.form("qz_nick_form", border=False):
        cols = st.columns([5, 3, 2], vertical_alignment="bottom")  # "Save my progress" whole at 1280x720, presenting
        raw = cols[0].text_input(tr("quiz.nick.label"), max_chars=store.NICK_MAX, key="qz_nick")
        class_code = cols[1].text_input(tr("classroom.join_code"), max_chars=12, key="qz_join_code",
                                        placeholder=tr("classroom.join_code_hint"))  # fmt: skip
        joined = cols[2].form_submit_button(tr("quiz.nick.join"))
    if joined and join(raw, class_code):
        st.rerun()
    elif not joined:
        st.caption(tr("quiz.nick.anonymous"))
    with st.expander(tr("classroom.resume.title"), icon=":material/key:"):
        with st.form("qz_resume_form", border=False):
            cols = st.columns([4, 1], vertical_alignment="bottom")
            typed = cols[0].text_input(tr("classroom.resume.label"), max_chars=40, key="qz_resume_code",
                                       type="password")  # fmt: skip
            back = cols[1].form_submit_button(tr("classroom.resume.go"))
        if back and resume_with(typed):
            st.rerun()


# --- the outbox -------------------------------------------------------------------------------------------


def new_key() -> str:
    return uuid.uuid4().hex


def submit(op: str, **kwargs: Any) -> bool:
    """Queue a write and try it now; True when the database confirmed it (and everything queued before)."""
    box: list[dict[str, Any]] = st.session_state.setdefault(OUTBOX, [])
    if op == "exam_progress":  # only the latest progress of an exam matters
        box[:] = [w for w in box if not (w["op"] == op and w["exam_id"] == kwargs["exam_id"])]
    box.append({"op": op, "queued_at": time.time(), **kwargs})
    return flush()


OPS = ("answer", "exam_progress", "finish_exam", "abandon_exam", "read")


def _apply(db: store.Store, w: dict[str, Any]) -> None:
    args = {k: v for k, v in w.items() if k not in ("op", "queued_at")}
    if w["op"] == "answer":
        db.record_answer(**args)
    elif w["op"] == "exam_progress":
        db.save_exam_progress(args["exam_id"], args["progress"])
    elif w["op"] == "finish_exam":
        db.finish_exam(args["exam_id"], args["n_correct"])
    elif w["op"] == "abandon_exam":
        db.abandon_exam(args["exam_id"])
    elif w["op"] == "read":
        db.mark_read(args["learner_id"], args["chapter"])


def flush() -> bool:
    """Write what is waiting, in order; stop at the first failure (kept for the next try)."""
    box: list[dict[str, Any]] = st.session_state.get(OUTBOX) or []
    if not box:
        return True
    try:
        db = store.get_store()
    except RocmBridgeError as err:
        log_db_error(err.__cause__ or err, "outbox")
        st.session_state[DOWN] = True
        return False
    while box:
        try:
            _apply(db, box[0])
        except RocmBridgeError:
            box.pop(0)  # invalid for good (a value the store refuses): retrying would never succeed
            continue
        except IntegrityError:
            if _learner_gone(db, box[0]):
                continue
            return False
        except Exception as exc:  # noqa: BLE001 - the database is away: keep it for the next try
            log_db_error(exc, "outbox")
            st.session_state[DOWN] = True
            return False
        box.pop(0)
    if st.session_state.pop(DOWN, False):  # written after an outage: say so on the next full runs
        st.session_state[BACK] = time.time()
    return True


def _learner_gone(db: store.Store, w: dict[str, Any]) -> bool:
    """The learner's data was deleted (by them in another tab, or by the teacher with the class): their queued
    writes have nowhere to go. Forget the learner in this tab and say so."""
    lid = w.get("learner_id")
    me = current()
    try:
        gone = lid is not None and db.learner(lid) is None or me is not None and db.learner(me.id) is None
    except Exception:  # noqa: BLE001
        return False
    if gone:
        st.session_state.setdefault(OUTBOX, []).clear()  # in place: flush() loops over this very list
        leave()
        st.session_state["qz_gone"] = True
    return gone


def pending() -> int:
    return len(st.session_state.get(OUTBOX) or [])


def outbox_notice() -> None:
    """A notice that stays while writes wait, retried every 3 s; once they are written, "the database is back"
    for BACK_SHOW_S on the full runs that follow (the retry fragment reruns the whole page, which would wipe a
    message it drew itself: issue 27.13)."""
    if pending():
        _retry_fragment()
        return
    back = st.session_state.get(BACK)
    if back is not None:
        if time.time() - back <= BACK_SHOW_S:
            st.success(tr("classroom.outbox.saved"), icon=":material/cloud_done:")
        else:
            st.session_state.pop(BACK, None)


@st.fragment(run_every=3)
def _retry_fragment() -> None:
    if flush():
        st.rerun(scope="app")  # the page without the notice, and with "the database is back"
        return
    n = sum(1 for w in st.session_state.get(OUTBOX, []) if w["op"] == "answer")
    st.warning(tr("classroom.outbox.waiting", n=n, total=pending(), kept=in_browser()), icon=":material/cloud_off:")
