"""Presenter mode (?present=1 or the sidebar toggle): type a room can read at 1280x720, the sidebar folded away,
and keys to step through a chapter. Every page also gets a working skip link and a visible keyboard focus.

The style and script below are fixed text of this module (no user text reaches them); the only values put into
the script are catalog labels, passed through json.dumps.
"""

from __future__ import annotations

import json

import streamlit as st

from rocm_bridge.ui import tr
from rocm_bridge.ui.state import parse_flag

PRESENT_KEY = "present"
BODY_PX = 21  # body text in presenter mode; the room-ready bar is 20 px at 1280x720
CODE_PX = 18  # code in presenter mode, every pane alike (the hipify editor is told the same size)

_ALWAYS_CSS = """
<style>
  #rb-skip { position: absolute; left: -10000px; top: 0; z-index: 100000; padding: .5rem 1rem;
             background: #000; color: #fff; font-weight: 600; }
  #rb-skip:focus { left: .5rem; top: .5rem; }
  a:focus-visible, button:focus-visible, [role="button"]:focus-visible, input:focus-visible,
  textarea:focus-visible, [tabindex]:focus-visible, [role="tab"]:focus-visible, [role="radio"]:focus-visible {
    outline: 3px solid #0072B2 !important; outline-offset: 2px !important; }
</style>
"""

_PRESENT_CSS = f"""
<style>
  html {{ font-size: {BODY_PX}px; }}
  [data-testid="stMain"] p, [data-testid="stMain"] li, [data-testid="stMain"] td {{ font-size: {BODY_PX}px; }}
  [data-testid="stMain"] h1 {{ font-size: 2.1rem; }}
  [data-testid="stMain"] h2 {{ font-size: 1.6rem; }}
  [data-testid="stMain"] h3 {{ font-size: 1.3rem; }}
  [data-testid="stMainBlockContainer"] {{ padding-top: 2.5rem; max-width: 100%; }}
  .js-plotly-plot, [data-testid="stPlotlyChart"] {{ max-height: 80vh; }}
  [data-testid="stMain"] [data-testid="stCode"] code, [data-testid="stMain"] [data-testid="stCode"] pre,
  [data-testid="stMain"] p code, [data-testid="stMain"] li code {{ font-size: {CODE_PX}px; }}
</style>
"""

# The skip link moves focus to the main column; in presenter mode, keys step through headings and chapters.
_SCRIPT = """
<span id="rb-keys" data-present="%(present)s" hidden></span>
<script>
(function () {
  const doc = window.document;
  const main = () => doc.querySelector('[data-testid="stMain"]');
  if (!doc.getElementById("rb-skip")) {
    const skip = doc.createElement("a");
    skip.id = "rb-skip"; skip.href = "#"; skip.textContent = %(skip)s;
    skip.addEventListener("click", (e) => {
      e.preventDefault();
      const m = main(); if (!m) return;
      m.setAttribute("tabindex", "-1"); m.focus();
      const h = m.querySelector("h1"); if (h) h.scrollIntoView();
    });
    doc.body.prepend(skip);
  }
  doc.getElementById("rb-skip").textContent = %(skip)s;
  window.__rbLabels = {next: %(next)s, prev: %(prev)s};
  if (window.__rbKeys) return;
  window.__rbKeys = true;
  const headings = () => Array.from((main() || doc).querySelectorAll("h1, h2, h3"));
  doc.addEventListener("keydown", (e) => {
    const marker = doc.getElementById("rb-keys");
    if (!marker || marker.dataset.present !== "1") return;
    const t = e.target;
    if (e.ctrlKey || e.metaKey || e.altKey || (t && (t.isContentEditable || /INPUT|TEXTAREA|SELECT/.test(t.tagName)
        || (t.closest && t.closest(".ace_editor"))))) return;
    const hs = headings(); if (!hs.length) return;
    const top = (el) => el.getBoundingClientRect().top;
    if (["ArrowDown", "PageDown", "j", " "].includes(e.key)) {
      const next = hs.find((h) => top(h) > window.innerHeight * 0.2);
      if (next) { e.preventDefault(); next.scrollIntoView({block: "start"}); }
    } else if (["ArrowUp", "PageUp", "k"].includes(e.key)) {
      const prev = hs.filter((h) => top(h) < 0).pop();
      if (prev) { e.preventDefault(); prev.scrollIntoView({block: "start"}); }
    } else if (e.key === "n" || e.key === "p") {
      const label = e.key === "n" ? window.__rbLabels.next : window.__rbLabels.prev;
      const link = Array.from(doc.querySelectorAll('[data-testid="stPageLink-NavLink"]'))
        .find((a) => a.textContent.includes(label));
      if (link) { e.preventDefault(); link.click(); }
    }
  });
})();
</script>
"""


# ?section=<heading> (a search hit's link, opened in this tab or a new one): once that heading has rendered,
# scroll to it, once per address. Its own script: the page-key script above returns early after its first run.
_SECTION_SCRIPT = """
<script>
(function () {
  if (window.__rbSection) return;
  window.__rbSection = true;
  const doc = window.document;
  const norm = (t) => t.replace(/\\s+/g, " ").trim();
  let sought = "", tries = 0;
  setInterval(function () {
    const href = window.location.href;
    const wanted = new URL(href).searchParams.get("section");
    if (!wanted) return;
    if (sought !== href) { sought = href; tries = 0; }
    if (tries > 60) return;
    tries += 1;
    const m = doc.querySelector('[data-testid="stMain"]') || doc;
    const h = Array.from(m.querySelectorAll("h2, h3")).find(function (x) { return norm(x.innerText) === norm(wanted); });
    if (h && !h.hasAttribute("data-rb-target")) {
      h.setAttribute("data-rb-target", "1");
      h.scrollIntoView({block: "start"});
      tries = 99;
    }
  }, 300);
})();
</script>
"""


def presenting() -> bool:
    """Whether this session presents: the toggle's value, seeded once from ?present=."""
    if PRESENT_KEY not in st.session_state:
        try:
            st.session_state[PRESENT_KEY] = parse_flag(st.query_params.get(PRESENT_KEY, "0"))
        except ValueError:
            st.session_state[PRESENT_KEY] = False
    return bool(st.session_state[PRESENT_KEY])


def sidebar_state() -> str:
    """For st.set_page_config: presenting folds the sidebar away (it still opens with its arrow)."""
    return "collapsed" if presenting() else "auto"


def render() -> None:
    """The sidebar toggle, the presenter style when on, the skip link and focus style always."""
    st.sidebar.toggle(tr("present.toggle"), key=PRESENT_KEY, help=tr("present.help"))
    on = presenting()
    if on:
        st.query_params[PRESENT_KEY] = "1"
    else:
        st.query_params.pop(PRESENT_KEY, None)
    prefix = tr("chapters.next", title="").strip()
    back = tr("chapters.previous", title="").strip()
    script = _SCRIPT % {"present": "1" if on else "0", "skip": json.dumps(tr("present.skip")),
                        "next": json.dumps(prefix), "prev": json.dumps(back)}
    st.html(_ALWAYS_CSS + (_PRESENT_CSS if on else "") + script, unsafe_allow_javascript=True)
    st.html(_SECTION_SCRIPT, unsafe_allow_javascript=True)
    if on:
        st.sidebar.caption(tr("present.keys"))
