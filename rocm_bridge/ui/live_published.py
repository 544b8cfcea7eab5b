"""The live lab's matmul figures beside published AMD Instinct figures (rocm_bridge.live.published): the chart
(rocm_bridge.live.published_figure), a table, the sources' own words, and why the numbers differ."""

from __future__ import annotations

import streamlit as st

from rocm_bridge.live import BACKEND_LABELS
from rocm_bridge.live import published as pub
from rocm_bridge.live.published_figure import bar_label, figure, size_text
from rocm_bridge.text import md_escape, source_link
from rocm_bridge.ui import lang, tr
from rocm_bridge.ui.charts import show_chart
from rocm_bridge.ui.theme import chart_theme


def _distinct_sources(bars: list[pub.Bar]) -> list[str]:
    """Each published source once, even where two rows cite the same page in different words."""
    out: dict[str, str] = {}
    for b in bars:
        for part in filter(None, b.source.split(" | ")):
            label, url = source_link(part)
            out.setdefault(url or label, part)
    return list(out.values())


def _table(bars: list[pub.Bar], doc: dict) -> list[dict]:
    rows = []
    software = f"{BACKEND_LABELS.get(doc['backend'], doc['backend'])} {doc['env']['version']}"
    for b in bars:
        rows.append(
            {
                tr("live.pub.col.figure"): bar_label(b, lang()).replace("<br>", " — "),
                tr("live.pub.col.size"): size_text(b.size, lang()),
                tr("live.res.col.tflops"): round(b.tflops, 1),
                tr("live.res.col.pct_peak"): "-" if b.ratio is None else f"{100 * b.ratio:.0f}",
                tr("live.pub.col.peak"): "-" if b.peak_tflops is None else f"{b.peak_tflops:g}",
                tr("live.pub.col.software"): b.published.software if b.published else software,
            }
        )
    return rows


def show_published(doc: dict, src: str) -> None:
    """The comparison for one result document; nothing for a CPU run or when no dtype has published figures."""
    dtypes = pub.dtypes_for(doc)
    if not dtypes:
        return
    st.markdown(f"#### {tr('live.pub.title')}")
    st.caption(tr("live.pub.intro"))
    dtype = st.selectbox(
        tr("live.pub.dtype"),
        dtypes,
        index=dtypes.index("bf16") if "bf16" in dtypes else 0,
        key=f"lv_pub_{doc.get('file', 'live')}",
    )
    bars = pub.comparison(doc, dtype)
    sources = [src, *_distinct_sources(bars), tr("live.source.spec")]
    show_chart(figure(tuple(bars), dtype, lang(), chart_theme()), sources, key=f"lv_pub_chart_{doc.get('file', 'live')}")
    st.caption(tr("live.pub.ratio_note"))
    st.dataframe(_table(bars, doc), hide_index=True)
    with st.expander(tr("live.pub.quotes")):
        for p in pub.for_dtype(dtype):
            st.markdown(f"**{md_escape(p.gpu)} · {md_escape(p.publisher)} · {p.date}**")
            st.markdown(f"> {md_escape(p.quote)}")
            st.caption(md_escape(f"{p.software}. {p.note} ({p.date_note})"))
    st.markdown(tr("live.pub.why"))
