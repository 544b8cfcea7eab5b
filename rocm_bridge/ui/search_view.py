"""The search page: one box, hits grouped by kind, each linking to the page that teaches it."""

from __future__ import annotations

import streamlit as st

from rocm_bridge.course import search
from rocm_bridge.pages import page
from rocm_bridge.text import md_escape
from rocm_bridge.ui import lang, page_link, tr
from rocm_bridge.ui.state import push_url, url_state

QUERY_KEY = "q"
KINDS = ("api", "chapter", "glossary", "quiz")
SHOWN = {"api": 5, "chapter": 15, "glossary": 15, "quiz": 15}  # the API table's near-misses stay short
SECTION_PARAM = "section"  # a chapter link's heading to scroll to (rocm_bridge.ui.presenter's page script)


def render() -> None:
    url_state(QUERY_KEY, "", cast=lambda raw: str(raw)[: search.MAX_QUERY])
    st.text_input(tr("search.box"), key=QUERY_KEY, max_chars=search.MAX_QUERY, placeholder=tr("search.placeholder"))
    push_url(QUERY_KEY)
    query = st.session_state[QUERY_KEY].strip()
    if not query:
        st.caption(tr("search.hint"))
        return
    with st.spinner(tr("search.building")):  # the first search of a server builds the index (about a second)
        hits = search.search(query, lang(), limit=60)
    if not hits:
        st.info(tr("search.none", query=md_escape(query)), icon=":material/search_off:")
        return
    st.caption(tr("search.count", n=len(hits)))
    lg = lang()
    for kind in KINDS:
        group = [h for h in hits if h.kind == kind]
        if not group:
            continue
        st.subheader(tr(f"search.kind.{kind}", n=len(group)))
        for h in group[:SHOWN[kind]]:
            with st.container(border=True):
                spec = page(h.page)
                title = tr(spec.title_key)
                st.markdown(f"**{md_escape(h.title or title)}**" + (f" · {md_escape(title)}" if h.section else ""))
                if h.via:
                    st.caption(tr("search.via", hip=md_escape(h.via)))
                st.caption(md_escape(h.snippet))
                if h.section:  # straight to the section that teaches it
                    st.page_link(spec.file, label=tr("search.open_section", section=h.section, title=title),
                                 icon=spec.icon, query_params={SECTION_PARAM: h.section, "lang": lg})
                else:
                    page_link(h.page, label=tr("search.open", title=title))
