"""Printable handouts: a chapter as a clean print layout (no sidebar, no controls) and its quiz sheet with a key.

The browser's own "Save as PDF" makes the file, with the CJK fonts the page already uses; the print style hides
everything that is not the handout and prints black on white whatever the app's theme. Each widget of the chapter
is one static chart (Plotly with staticPlot: an SVG in the page, so it prints as vectors) or a table
(rocm_bridge.course.handout.widget_print); a button saves the charts as SVG files, in the browser, offline.
"""

from __future__ import annotations

from html import escape

import streamlit as st

from rocm_bridge import i18n
from rocm_bridge.course import handout, widget_tables
from rocm_bridge.course.widgets import PrintChart, PrintPicture, PrintTable
from rocm_bridge.pages import CHAPTERS, page
from rocm_bridge.text import md_escape
from rocm_bridge.ui import formula_card, lang, source_note, tr
from rocm_bridge.ui.chapter import CALLOUTS
from rocm_bridge.ui.state import parse_flag, push_url, url_state
from rocm_bridge.ui.theme import LIGHT_PRINT
from rocm_bridge.visual import figures

DOC_KEY, QUIZ_KEY, ANSWERS_KEY = "ho_doc", "ho_quiz", "ho_key"

_PRINT_CSS = """
<style>
  @media print {
    [data-testid="stSidebar"], [data-testid="stHeader"], [data-testid="stToolbar"], .rb-no-print,
    [data-testid="stElementToolbar"], #rb-skip, .stButton, [data-testid="stWidgetLabel"],
    [data-testid="stSelectbox"], [data-testid="stCheckbox"], [data-testid="stToggle"] { display: none !important; }
    [data-testid="stMain"] { overflow: visible !important; }
    [data-testid="stMainBlockContainer"] { max-width: 100% !important; padding: 0 !important; }
    /* page 1 starts with the chapter: the page's own heading, its instructions and the controls stay on screen */
    .st-key-rb_ho_head, .st-key-rb_ho_controls { display: none !important; }
    .rb-page-break { break-before: page; }
    h2, h3 { break-after: avoid; }
    /* only small things are kept whole: a chart, a table, a quiz question. A whole section kept whole (its
       container) jumped to the next page and left the one before it half empty */
    [data-testid="stPlotlyChart"], [data-testid="stMarkdownContainer"] table, .katex-display,
    [class*="st-key-rb_q_"], svg.rb-picture { break-inside: avoid; }
    /* black on white even when the app is dark; charts carry their own white paper (figures.for_print). The
       page carries theme.LIGHT_PRINT, so the theme's print rule for dark pages (an inverting filter) stays off:
       the handout is already light, and a filtered page prints as an image, without the PDF's vector text */
    html, body, .stApp, [data-testid="stAppViewContainer"], [data-testid="stMain"] { background: #fff !important; }
    [data-testid="stMain"], [data-testid="stMain"] * { color: #000 !important; }
    [data-testid="stMain"] :is(pre, code) { background: #f4f4f4 !important; }
    [data-testid="stMain"] [data-testid="stAlertContainer"] { background: transparent !important;
      border: 1px solid #999 !important; }
  }
</style>
"""

# The buttons' actions. Streamlit's sanitiser strips inline onclick attributes but runs scripts: one click listener
# on the document (added once) acts on data-rb-action. "svgs" saves every chart of the page as an SVG file: Plotly
# draws a chart as stacked <svg class="main-svg"> layers (plot, then titles and legend); their contents go into one
# <svg>. Fixed text of this module; the file stem comes from a data attribute set from validated values.
_SCRIPT = """
<script>
(function () {
  if (window.__rbHandoutClicks) return;
  window.__rbHandoutClicks = true;
  const saveSvgs = function (stem) {
    const plots = document.querySelectorAll('[data-testid="stMain"] .js-plotly-plot');
    plots.forEach(function (gd, i) {
      const layers = gd.querySelectorAll("svg.main-svg");
      if (!layers.length) return;
      const svg = layers[0].cloneNode(true);
      for (let k = 1; k < layers.length; k++) {
        Array.from(layers[k].childNodes).forEach(function (n) { svg.appendChild(n.cloneNode(true)); });
      }
      const text = new XMLSerializer().serializeToString(svg);
      const a = document.createElement("a");
      a.href = URL.createObjectURL(new Blob([text], {type: "image/svg+xml"}));
      a.download = stem + "-" + (i + 1) + ".svg";
      document.body.appendChild(a);
      a.click();
      a.remove();
    });
  };
  document.addEventListener("click", function (e) {
    const button = e.target.closest && e.target.closest("[data-rb-action]");
    if (!button) return;
    if (button.dataset.rbAction === "print") window.print();
    if (button.dataset.rbAction === "svgs") saveSvgs(button.dataset.rbStem || "handout");
  });
})();
</script>
"""
_BUTTON_STYLE = "padding:.4rem 1rem;border-radius:.5rem;border:1px solid #888;background:transparent;color:inherit;cursor:pointer"


def _controls() -> tuple[str, bool, bool]:
    url_state(DOC_KEY, "ch1", valid=CHAPTERS)
    url_state(QUIZ_KEY, True, cast=parse_flag)
    url_state(ANSWERS_KEY, True, cast=parse_flag)
    c1, c2, c3 = st.columns([3, 2, 2])
    current = lang()  # captured: a format_func may run outside the script run (CONTRIBUTING.md)
    c1.selectbox(tr("handout.doc"), CHAPTERS, key=DOC_KEY, format_func=lambda k: i18n.t(page(k).title_key, current))
    c2.toggle(tr("handout.quiz"), key=QUIZ_KEY)
    c3.toggle(tr("handout.answers"), key=ANSWERS_KEY, disabled=not st.session_state[QUIZ_KEY])
    push_url(DOC_KEY, QUIZ_KEY, ANSWERS_KEY)
    return st.session_state[DOC_KEY], st.session_state[QUIZ_KEY], st.session_state[ANSWERS_KEY]


def _label(key: str) -> str:
    return escape(tr(key))  # catalog text, escaped for HTML anyway


def _print_buttons(chapter: str, charts: int) -> None:
    html = (_PRINT_CSS + _SCRIPT + f'<span class="{LIGHT_PRINT}" hidden></span>'
            f'<button class="rb-no-print" data-rb-action="print" style="{_BUTTON_STYLE}">{_label("handout.print")}</button>')
    if charts:  # the stem is a chapter key and a language code, both validated
        html += (f'<button class="rb-no-print" id="rb-svg" data-rb-action="svgs" data-rb-stem="{chapter}-{lang()}" '
                 f'style="{_BUTTON_STYLE};margin-left:.5rem">{_label("handout.svg")}</button>')
    st.html(html, unsafe_allow_javascript=True)
    st.caption(tr("handout.how"))


def _widget(name: str, n: int) -> None:
    """One widget on paper: the formula with the chart's numbers, the static chart and its source; or a table."""
    item = handout.widget_print(name, lang())
    if isinstance(item, PrintTable):
        if item.title:
            st.markdown(f"**{md_escape(item.title)}**")
        st.markdown(widget_tables.markdown(item))
        if item.note:
            st.caption(item.note)
        source_note(*item.sources)
        return
    if isinstance(item, PrintPicture):  # an explainer picture: its SVG prints as vectors, already light
        st.markdown(item.svg, unsafe_allow_html=True)  # st.html drops SVG (DOMPurify HTML profile)
        if item.caption:
            st.caption(item.caption)
        source_note(*item.sources)
        return
    if item.latex:
        st.caption(tr("handout.chart_note"))
        for tex in item.latex:
            st.latex(tex)
    # not show_chart: the print config (no toolbar, no hover) and Plotly's own white template (theme=None)
    st.plotly_chart(item.figure, config=figures.PRINT_CONFIG, theme=None, width="content", key=f"ho_chart_{n}")
    source_note(*item.sources)


def _block(block, n: int) -> None:
    if block.kind in CALLOUTS:
        CALLOUTS[block.kind](f"**{tr('chapters.' + block.kind)}**\n\n{block.text}")
    elif block.kind == "formula":
        formula_card(block.text)
    elif block.kind == "widget":
        _widget(block.text, n)
    elif block.kind == "lab":
        st.caption(tr("handout.lab", title=tr(page(block.text).title_key)))


def _chapter(blocks: tuple) -> None:
    heading = ""
    for n, block in enumerate(blocks):
        if block.kind == "markdown":
            text, heading = handout.split_heading(block.text)
            if text:
                st.markdown(text)
            continue
        # A heading that introduces this block prints on its page: one container, which the print style keeps
        # whole (a heading's own break-after: avoid lets Chromium split the card below it instead).
        with st.container():
            if heading:
                st.markdown(heading)
                heading = ""
            _block(block, n)
    if heading:
        st.markdown(heading)


def _sheet(chapter: str, answers: bool) -> None:
    st.html('<div class="rb-page-break"></div>')
    st.header(tr("handout.sheet_title", title=tr(page(chapter).title_key)))
    st.caption(tr("handout.sheet_name"))
    items = handout.quiz_sheet(chapter, lang())
    for item in items:
        with st.container(key=f"rb_q_{item.number}"):  # a question and its options on one page
            st.markdown(f"**{item.number}.** {item.prompt}")
            if item.code:
                st.code(item.code, language="cpp")
            for letter, option in zip(handout.LETTERS, item.options, strict=False):
                st.markdown(f"&nbsp;&nbsp;**{letter}.** {option}")
    if answers:
        st.html('<div class="rb-page-break"></div>')
        st.header(tr("handout.key_title"))
        for item in items:
            st.markdown(f"**{item.number}.** {md_escape(item.answer)} — {item.explanation}")
            st.caption(f"{tr('common.source')}: {md_escape(item.source)}")


def render() -> None:
    with st.container(key="rb_ho_controls"):  # on screen only (_PRINT_CSS)
        chapter, quiz, answers = _controls()
        blocks = handout.chapter_blocks(chapter, lang())
        charts = sum(b.kind == "widget" and isinstance(handout.widget_print(b.text, lang()), PrintChart)
                     for b in blocks)
        _print_buttons(chapter, charts)
    st.header(tr(page(chapter).title_key))
    _chapter(blocks)
    if quiz:
        _sheet(chapter, answers)
