"""The classroom page: students join and answer the live poll; a teacher creates a class, opens it with the
teacher key, watches results, runs live polls and previews the class's quizzes.

Nothing here shows a learner's data without the teacher key of that class (checked by
rocm_bridge.classroom.classes.teacher_login, rate-limited); the key lives only in the teacher's session. A
teacher may keep the class open on the device ("remember"): a token in the `rb_teacher` cookie, its hash in the
database, ended by Lock or after classes.TEACHER_SESSION_S.
"""

from __future__ import annotations

import html
import time
from typing import Any

import streamlit as st

from rocm_bridge.classroom import classes, papers
from rocm_bridge.errors import RocmBridgeError
from rocm_bridge.i18n import t
from rocm_bridge.pages import CHAPTERS, page
from rocm_bridge.quiz import report, scoring, store
from rocm_bridge.quiz.progress import mastery_by_chapter
from rocm_bridge.quiz.text import md_content
from rocm_bridge.text import csv_safe, md_escape
from rocm_bridge.ui import classroom_polls, lang, show_error, tr
from rocm_bridge.ui import learner as learner_mod
from rocm_bridge.ui import quiz_widgets as qw
from rocm_bridge.ui.learner import outage

TEACHER = "cr_teacher"  # ClassInfo the teacher opened with the key (this session only)
NEW_CLASS = "cr_new_class"  # (ClassInfo, teacher key) just created: shown once
TOKEN = "cr_teacher_token"  # this device's teacher-session token, when the teacher chose to be remembered
TEACHER_COOKIE = "rb_teacher"


# --- the join card: what a projector shows so a room can join ------------------------------------------------

JOIN_PARAM = "join"  # ?join=K7QM3P fills the student's class code (the QR code and the address carry it)
_JOIN_CSS = """
<style>
  .rb-join { display: flex; gap: 2rem; align-items: center; flex-wrap: wrap; }
  .rb-join .code { font-family: "Source Code Pro", monospace; font-size: 88px; font-weight: 700; letter-spacing: .12em;
                   line-height: 1.05; }
  .rb-join .label { font-size: 22px; opacity: .8; }
  .rb-join .addr { font-family: "Source Code Pro", monospace; font-size: 22px; overflow-wrap: anywhere; }
</style>
"""


def join_address(code: str) -> str:
    """This page's address as the browser sees it, with ?join=CODE (and the page's language)."""
    from urllib.parse import urlencode, urlsplit, urlunsplit

    base = urlsplit(str(st.context.url or ""))
    path = base.path if base.path.rstrip("/").endswith(page("classroom").url_path) else \
        base.path.rstrip("/") + "/" + page("classroom").url_path
    return urlunsplit((base.scheme or "http", base.netloc, path, urlencode({JOIN_PARAM: code, "lang": lang()}), ""))


def qr_png(text: str) -> bytes:
    """A QR code of text as PNG, about 260 px wide, made here (segno, pure Python; nothing is fetched)."""
    import io

    import segno

    qr = segno.make(text, error="m")
    out = io.BytesIO()
    qr.save(out, kind="png", scale=max(4, 260 // qr.symbol_size(scale=1, border=4)[0]), border=4)  # the quiet zone the standard asks, white on a dark theme too
    return out.getvalue()


def join_card(info: classes.ClassInfo) -> None:
    """The join code large enough for the back row, the address, and a QR code of the address."""
    address = join_address(info.join_code)
    left, right = st.columns([3, 1], vertical_alignment="center")
    left.html(_JOIN_CSS + '<div class="rb-join"><div>'
              f'<div class="label">{html.escape(tr("classroom.join.code"))}</div>'
              f'<div class="code" data-testid="rb-join-code">{html.escape(info.join_code)}</div>'
              f'<div class="label">{html.escape(tr("classroom.join.address"))}</div>'
              f'<div class="addr">{html.escape(address)}</div></div></div>')
    right.image(qr_png(address), caption=tr("classroom.join.qr"), width=260)


def seed_join_code() -> None:
    """A student who opened the join address (or scanned the QR code) finds the class code filled in."""
    raw = st.query_params.get(JOIN_PARAM)
    if raw and "qz_join_code" not in st.session_state:
        st.session_state["qz_join_code"] = "".join(ch for ch in raw.upper() if ch.isalnum())[:12]


# --- teachers ---------------------------------------------------------------------------------------------


def _resume_teacher() -> classes.ClassInfo | None:
    """The class this device's cookie keeps open (tried once per session), else None."""
    token = st.context.cookies.get(TEACHER_COOKIE)
    if not token or st.session_state.get(TOKEN) == "":
        return None
    try:
        info = classes.resume_teacher(store.get_store(), str(token))
    except Exception as exc:  # noqa: BLE001 - the database is away: the form stays, nothing is forgotten
        outage(exc)
        return None
    if info is None:
        st.session_state[TOKEN] = ""  # expired or locked elsewhere: ask for the key, forget the cookie
        learner_mod.set_cookie(TEACHER_COOKIE, "", 0)
        return None
    st.session_state[TOKEN], st.session_state[TEACHER] = str(token), info
    return info


def _open_class(info: classes.ClassInfo, remember: bool) -> None:
    """Open the class on this session; with remember, first the device's session (a database outage there
    leaves the class closed, so "remember" never fails silently)."""
    if remember:
        token = classes.open_teacher_session(store.get_store(), info.id)
        st.session_state[TOKEN] = token
        learner_mod.set_cookie(TEACHER_COOKIE, token, classes.TEACHER_SESSION_S)
    st.session_state[TEACHER] = info


def _lock() -> None:
    token = st.session_state.pop(TOKEN, None)
    st.session_state.pop(TEACHER, None)
    st.session_state[TOKEN] = ""  # do not reopen from a cookie the browser may still send on this run
    if token:
        learner_mod.set_cookie(TEACHER_COOKIE, "", 0)
        try:
            classes.close_teacher_session(store.get_store(), token)
        except Exception as exc:  # noqa: BLE001 - locked here anyway; the token expires on its own
            outage(exc)


def _remember_box(key: str) -> bool:
    hours = classes.TEACHER_SESSION_S // 3600
    return st.checkbox(tr("classroom.teacher.remember", hours=hours), key=key,
                       help=tr("classroom.teacher.remember_help", hours=hours))


def teacher_panel() -> None:
    learner_mod.emit_cookies()  # the teacher cookie set or cleared on the run before
    info = st.session_state.get(TEACHER) or _resume_teacher()
    if info is None:
        _create_or_open()
        return
    top = st.columns([4, 1])
    top[0].subheader(tr("classroom.teacher.class_title", name=md_escape(info.name), code=info.join_code))
    if top[1].button(tr("classroom.teacher.lock"), key="cr_lock", icon=":material/lock:"):
        _lock()
        st.rerun()
    with st.expander(tr("classroom.join.show"), expanded=True, icon=":material/qr_code_2:"):
        join_card(info)
    lg = lang()
    view = st.segmented_control(
        tr("classroom.teacher.view"), ("results", "poll", "quizzes"), key="cr_view", required=True, default="results",
        format_func=lambda v: t(f"classroom.teacher.views.{v}", lg), label_visibility="collapsed",
    )  # fmt: skip
    if view == "poll":
        classroom_polls.teacher_poll(info)
    elif view == "quizzes":
        class_quizzes(info)
    else:
        class_results(info)


def _create_or_open() -> None:
    created = st.session_state.get(NEW_CLASS)
    if created:
        info, key = created
        with st.container(border=True):
            st.success(tr("classroom.teacher.created", name=md_escape(info.name)), icon=":material/school:")
            st.markdown(tr("classroom.teacher.join_code_is"))
            join_card(info)
            st.markdown(tr("classroom.teacher.key_once"))
            st.code(key, language=None)
            remember = _remember_box("cr_remember_new")
            if st.button(tr("classroom.teacher.key_kept"), key="cr_key_kept", type="primary"):
                try:
                    _open_class(info, remember)
                except Exception as exc:  # noqa: BLE001 - the key stays on screen and the message says why
                    outage(exc)
                else:
                    st.session_state.pop(NEW_CLASS, None)
                    st.rerun()
        return
    left, right = st.columns(2)  # Create first: a new teacher has no class yet
    with right.form("cr_open_form"):
        st.markdown(f"**{tr('classroom.teacher.open')}**")
        code = st.text_input(tr("classroom.teacher.code"), max_chars=12, key="cr_open_code")
        key = st.text_input(tr("classroom.teacher.key"), type="password", max_chars=200, key="cr_open_key")
        remember = _remember_box("cr_remember")
        opened = st.form_submit_button(tr("classroom.teacher.open_go"))
    with left.form("cr_create_form"):
        st.markdown(f"**{tr('classroom.teacher.create')}**")
        name = st.text_input(tr("classroom.teacher.name"), max_chars=classes.NAME_MAX, key="cr_new_name")
        created_now = st.form_submit_button(tr("classroom.teacher.create_go"), type="primary")
    try:
        if opened:
            db = store.get_store()
            _open_class(classes.teacher_login(db, code, key, learner_mod.client_address(), learner_mod.client_session()), remember)
            st.rerun()
        if created_now:
            db = store.get_store()
            st.session_state[NEW_CLASS] = classes.create_class(db, name, learner_mod.client_address())
            st.rerun()
    except RocmBridgeError as err:
        show_error(err)
    except Exception as exc:  # noqa: BLE001
        outage(exc)


def _student_rows(db: store.Store, info: classes.ClassInfo) -> list[dict[str, Any]]:
    bank = qw.the_bank()
    exams: dict[int, list[dict]] = {}
    for e in db.class_exams(info.id):
        exams.setdefault(e["learner_id"], []).append(e)
    rows = []
    for lid, (nick, hist) in sorted(db.class_histories(info.id).items(), key=lambda kv: kv[1][0].casefold()):
        chapters = mastery_by_chapter(bank, hist)
        done = [e for e in exams.get(lid, []) if e["status"] == "finished"]
        last = done[-1] if done else None
        rows.append(
            {
                "nickname": nick,
                "answers": len(hist),
                "accuracy_percent": round(100 * sum(a.correct for a in hist) / len(hist), 1) if hist else None,
                "mastery_percent": round(100 * sum(c.mastered for c in chapters) / max(1, sum(c.pool for c in chapters)), 1),
                "exams": len(done),
                "last_exam": f"{last['n_correct']}/{last['n_questions']}" if last else "",
                "_chapters": chapters,
            }
        )  # fmt: skip
    return rows


def _csv(rows: list[dict[str, Any]]) -> str:
    import csv
    import io

    buf = io.StringIO()
    if rows:
        fields = [k for k in rows[0] if not k.startswith("_")]
        writer = csv.writer(buf)
        writer.writerow(fields)
        for r in rows:
            writer.writerow([csv_safe(r[k]) if isinstance(r[k], str) else r[k] for k in fields])
    return buf.getvalue()


def class_results(info: classes.ClassInfo) -> None:
    try:
        db = store.get_store()
        students = _student_rows(db, info)
        stats = db.question_stats(info.id)
        counts = db.misconception_counts(info.id)
        n_answers = db.count_answers(info.id)
    except RocmBridgeError as err:
        show_error(err)
        return
    except Exception as exc:  # noqa: BLE001
        outage(exc)
        return
    st.markdown(tr("classroom.teacher.size", learners=len(students), answers=n_answers))
    if not students:
        st.info(tr("classroom.teacher.empty", code=info.join_code))
        _delete_class(db, info)
        return
    per_ch = {ch: [0, 0] for ch in CHAPTERS}
    for s in students:
        for c in s["_chapters"]:
            per_ch[c.chapter][0] += c.mastered
            per_ch[c.chapter][1] += c.pool
    qw.mastery_chart(
        [(ch, m / p if p else 0.0, f"{100 * m / p:.0f} %" if p else "") for ch, (m, p) in per_ch.items()],
        title=tr("classroom.teacher.chart_title", name=html.escape(info.name)),  # Plotly titles take <a href>
        source=tr("classroom.teacher.chart_source", n=len(students), when=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())),
        key="cr_mastery_chart",
    )  # fmt: skip
    st.subheader(tr("classroom.teacher.students"))
    st.dataframe(
        [
            {tr("classroom.col.nickname"): s["nickname"], tr("progress.col_answers"): s["answers"],
             tr("progress.col_accuracy"): f"{s['accuracy_percent']:.0f} %" if s["accuracy_percent"] is not None else "—",
             tr("progress.col_mastery"): f"{s['mastery_percent']:.0f} %", tr("classroom.col.exams"): s["exams"],
             tr("classroom.col.last_exam"): s["last_exam"]}
            for s in students
        ],
        hide_index=True,
    )  # fmt: skip
    lg = lang()
    b = qw.the_bank()
    if counts:
        st.subheader(tr("progress.misconceptions"))
        st.dataframe(
            [
                {tr("progress.col_myth"): r["misconception"], tr("progress.col_wrong"): r["wrong_answers"],
                 tr("progress.col_learners"): r["learners"]}
                for r in report.misconception_rows(b, counts, lg)
            ],
            hide_index=True,
        )  # fmt: skip
    rows = report.question_rows(b, stats, lg)
    st.subheader(tr("progress.hardest"))
    st.dataframe(
        [
            {tr("progress.col_question"): r["question"], tr("progress.col_chapter"): r["chapter"],
             tr("progress.col_answers"): r["answers"], tr("progress.col_learners"): r["learners"],
             tr("progress.col_wrong_rate"): f"{r['wrong_rate_percent']:.0f} %",
             tr("progress.col_common_wrong"): r["most_common_wrong"]}
            for r in rows
        ],
        hide_index=True,
    )  # fmt: skip
    cols = st.columns(3)
    cols[0].download_button(tr("progress.export_answers"), db.export_answers_csv(info.id),
                            f"class_{info.join_code}_answers.csv", "text/csv", key="cr_dl_answers")  # fmt: skip
    cols[1].download_button(tr("progress.export_stats"), report.rows_to_csv(rows),
                            f"class_{info.join_code}_questions.csv", "text/csv", key="cr_dl_questions")  # fmt: skip
    cols[2].download_button(tr("classroom.teacher.export_students"), _csv(students),
                            f"class_{info.join_code}_students.csv", "text/csv", key="cr_dl_students")  # fmt: skip
    _delete_class(db, info)


def _delete_class(db: store.Store, info: classes.ClassInfo) -> None:
    with st.popover(tr("classroom.teacher.delete"), icon=":material/delete_forever:"):
        st.markdown(tr("classroom.teacher.delete_warn", name=md_escape(info.name)))
        if st.button(tr("classroom.teacher.delete_confirm"), type="primary", key="cr_delete_class"):
            try:
                classes.delete_class(db, info.id)
            except Exception as exc:  # noqa: BLE001
                outage(exc)
                return
            st.session_state.pop(TEACHER, None)
            st.toast(tr("classroom.teacher.deleted"), icon=":material/delete_forever:")
            st.rerun()


def class_quizzes(info: classes.ClassInfo) -> None:
    """What every student of the class gets at the end of each chapter (round 1), in the same order."""
    lg = lang()
    st.caption(tr("classroom.teacher.quizzes_intro"))
    ch = st.selectbox(tr("quiz.chapter"), CHAPTERS, key="cr_quiz_ch", format_func=lambda c: t(page(c).title_key, lg))
    from rocm_bridge.quiz.text import option_order

    for i, q in enumerate(papers.chapter_quiz(info.id, ch)):
        with st.container(border=True):
            qw.show_prompt(q, f"{i + 1}")
            if q.options:  # in the order the students see them
                labels = q.option_labels(lg)
                order = option_order(q.id, len(labels), papers.option_seed(info.id))
                st.markdown("\n".join(f"{pos + 1}. {md_content(labels[j])}" for pos, j in enumerate(order)))
            st.caption(f"{tr('classroom.teacher.answer')}: {md_content(scoring.correct_answer_text(q, lg))}")
