"""Classroom steps a browser takes, driven through the real pages over the websocket (rocm_bridge/stclient.py).

Widgets are found by their keys and translated labels (the i18n catalog), never by position, so the steps follow
the UI of rocm_bridge/ui/classroom_view.py and learner.py. Shared by tests/integration/test_replicas.py and
bench/classroom.py.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from dataclasses import dataclass

from rocm_bridge.i18n import t
from rocm_bridge.pages import page
from rocm_bridge.stclient import Element, Tab

LANG = "en"
CLASSROOM = page("classroom").route
QUIZ = page("quiz").route


def label(key: str, **params: str) -> str:
    return t(key, LANG, **params)


class FlowError(AssertionError):
    pass


def _check(tab: Tab, what: str) -> None:
    if tab.exceptions:
        raise FlowError(f"{what}: the app raised {tab.exceptions}")


@dataclass
class TeacherClass:
    join_code: str
    key: str


async def create_class(tab: Tab, name: str) -> TeacherClass:
    """Teacher tab: create a class, read the join code and the key shown once, confirm the key is kept."""
    q = f"lang={LANG}&cr_tab=teacher"
    await tab.run(CLASSROOM, q)
    tab.set(tab.widget("text_input", key="cr_new_name"), name)
    tab.click(tab.widget("button", label=label("classroom.teacher.create_go")))
    await tab.run(CLASSROOM, q)
    _check(tab, "create class")
    # the join code on the projector card (an html element), the key in a code block (shown once)
    join = [m.group(1) for e in tab.elements_in_order() if e.type == "html"
            for m in [re.search(r'data-testid="rb-join-code">([A-Z0-9]+)<', e.proto.body)] if m]
    keys = [e.proto.code_text.strip() for e in tab.elements_in_order() if e.type == "code"]
    codes = join[:1] + keys[:1]
    if len(codes) < 2:
        raise FlowError(f"no join code and key shown: {tab.texts()[:400]}")
    tab.click(tab.widget("button", key="cr_key_kept"))
    await tab.run(CLASSROOM, q)
    _check(tab, "open class")
    return TeacherClass(codes[0], codes[1])


async def open_poll(tab: Tab, question_label: str | None = None) -> None:
    """Teacher tab (class open): the live-poll view, pick a question (default: the first offered), open it."""
    q = f"lang={LANG}&cr_tab=teacher"
    view = tab.widget("button_group", key="cr_view")
    tab.set(view, label("classroom.teacher.views.poll"))
    await tab.run(CLASSROOM, q)
    if question_label is not None:
        tab.set(tab.widget("selectbox", key="cr_poll_q"), question_label)
        await tab.run(CLASSROOM, q)
    tab.click(tab.widget("button", key="cr_poll_open"))
    await tab.run(CLASSROOM, q)
    _check(tab, "open poll")


async def join_class(tab: Tab, nickname: str, join_code: str) -> None:
    """Student tab: nickname and the board's code on the classroom page."""
    await tab.run(CLASSROOM, f"lang={LANG}")
    tab.set(tab.widget("text_input", key="qz_nick"), nickname)
    tab.set(tab.widget("text_input", key="qz_join_code"), join_code)
    tab.click(tab.widget("button", label=label("quiz.nick.join")))
    await tab.run(CLASSROOM, f"lang={LANG}")
    _check(tab, "join")
    if tab.find(key="qz_nick") is not None or join_code not in tab.texts():
        raise FlowError(f"{nickname} did not join {join_code}: {tab.texts()[:400]}")


def poll_input(tab: Tab) -> Element | None:
    return tab.find(prefix="cr_poll_w_")


async def wait_for_poll(tab: Tab, timeout_s: float = 10, every_s: float | None = None) -> float:
    """Student tab on the classroom page: let the poll fragment's timer fire (as the browser does) until the
    poll's answer input shows up. Returns the seconds waited."""
    t0 = time.perf_counter()
    while poll_input(tab) is None:
        if time.perf_counter() - t0 > timeout_s:
            raise FlowError(f"no poll after {timeout_s} s: {tab.texts()[-300:]}")
        if not tab.auto_rerun:
            raise FlowError("the classroom page has no poll timer (st.fragment run_every)")
        await asyncio.sleep(every_s if every_s is not None else min(tab.auto_rerun.values()))
        await tab.run_fragments(CLASSROOM, f"lang={LANG}")
        _check(tab, "poll timer")
    return time.perf_counter() - t0


def pick(widget: Element, rng: random.Random) -> object:
    """Some answer a student could give in this input."""
    if widget.type in ("radio", "selectbox"):
        return rng.randrange(len(widget.proto.options))
    if widget.type == "multiselect":
        return [rng.randrange(len(widget.proto.options))]
    if widget.type == "text_input":
        return str(rng.choice([2, 4, 32, 64, 1.5, 100]))
    raise FlowError(f"unexpected answer input {widget.type}")


async def answer_poll(tab: Tab, rng: random.Random) -> bool:
    """Answer the open poll; True once the page says the answer was received (stored)."""
    w = poll_input(tab)
    if w is None:
        raise FlowError("no poll input")
    tab.set(w, pick(w, rng))
    await tab.run_for(w, CLASSROOM, f"lang={LANG}")
    send = tab.widget("button", prefix="cr_poll_send_")
    tab.click(send)
    await tab.run_for(send, CLASSROOM, f"lang={LANG}")
    _check(tab, "send poll answer")
    if label("classroom.poll.received") not in tab.texts():
        await tab.run_fragments(CLASSROOM, f"lang={LANG}")  # the fragment reran itself after storing
    return label("classroom.poll.received") in tab.texts()


async def practice_answer(tab: Tab, rng: random.Random, query: str = f"lang={LANG}") -> bool:
    """Quiz page, practice: answer the current question, Check, then Next. True when 'saved' was shown."""
    w = tab.find(prefix="qz_w_")
    if w is None or w.proto.disabled:
        await tab.run(QUIZ, query)
        w = tab.find(prefix="qz_w_")
        if w is None:
            raise FlowError(f"no practice question: {tab.texts()[:300]}")
    tab.set(w, pick(w, rng))
    await tab.run_for(w, QUIZ, query)
    tab.click(tab.widget("button", prefix="qz_check_"))
    await tab.run(QUIZ, query)
    _check(tab, "check answer")
    saved = label("classroom.saved") in tab.texts()
    nxt = tab.find("button", prefix="qz_next_")
    if nxt is not None:
        tab.click(nxt)
        await tab.run(QUIZ, query)
    return saved


def answers_of(db_url: str, nickname: str) -> int:
    """How many answers the database holds for the learner with this nickname."""
    from sqlalchemy import create_engine, func, select

    from rocm_bridge.quiz.schema import answers, learners

    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            return conn.execute(
                select(func.count())
                .select_from(answers.join(learners, answers.c.learner_id == learners.c.id))
                .where(learners.c.nickname == nickname)
            ).scalar_one()
    finally:
        engine.dispose()
