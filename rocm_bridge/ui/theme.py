"""Light / dark theme per visitor: a sidebar switch kept in the URL (?theme=light|dark), charts following it.

Streamlit 1.67 has no per-session theme on the server: the [theme] config is one for every visitor of the
server. Its own ⋮ → Settings menu keeps a visitor's choice in the browser's localStorage under
`stActiveTheme-<page path>-v2`, as the JSON string "Light", "Dark" or "System", and reads it when the page
loads (frontend/lib/src/util/storageUtils.ts and theme/utils.ts in the streamlit repository; the bundled
frontend of 1.67.0 is checked by tests/test_theme.py). The switch writes that entry and reloads the page once
when the page shows the other theme; docs/ux.md explains the choice.

"auto" (the default, not written to the URL) leaves the browser's own choice alone, so Streamlit's menu keeps
working; picking it in the switch (or ?theme=auto) hands the choice back to the system setting.

Charts: Streamlit's Plotly theme draws every chart's paper, grid, text and legend in the page's colours; the
colours the app sets itself come from palette(), the style.Palette of the theme the browser shows.
"""

from __future__ import annotations

import json

import streamlit as st

from rocm_bridge.ui import tr
from rocm_bridge.ui.state import url_state
from rocm_bridge.visual import style

THEME_KEY = "theme"
CHOICES: tuple[str, ...] = ("auto", "light", "dark")
DEFAULT = "auto"
# Streamlit's names for its three themes, as its settings menu stores them in localStorage
STREAMLIT_NAMES = {"auto": "System", "light": "Light", "dark": "Dark"}
STORAGE_KEY = "stActiveTheme-{path}-v2"  # {path}: window.location.pathname when the page loaded
_EXPLICIT = "_theme_explicit"  # the visitor (or the link) picked a theme in this session: apply it
RELOAD_MARK = "rb-theme-reload"  # sessionStorage: the one reload done for a choice (never loop)

# Fixed text of this module; the only values put into it go through json.dumps.
# Printing: Streamlit prints its backgrounds exactly (print-color-adjust: exact), so a dark page would print as
# dark paper; while the page is dark, the print style turns it into light paper with dark type instead. A page
# that prints its own light layout (the handout) says so with an element of class LIGHT_PRINT and is left alone.
LIGHT_PRINT = "rb-light-print"
_SCRIPT = """
<style>
  @media print {
    html[data-rb-dark="1"]:not(:has(.rb-light-print)) [data-testid="stApp"] {
      background: #000 !important; filter: invert(1) hue-rotate(180deg);
    }
  }
</style>
<span id="rb-theme" data-want=%(want_attr)s hidden></span>
<script>
(function () {
  const isDark = () => {
    const app = document.querySelector('[data-testid="stApp"]');
    const rgb = app ? (getComputedStyle(app).backgroundColor.match(/[0-9.]+/g) || []).map(Number) : [];
    return rgb.length >= 3 && (0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]) < 128;
  };
  const markPrint = () => { document.documentElement.dataset.rbDark = isDark() ? "1" : "0"; };
  markPrint();
  if (!window.__rbPrintMark) { window.__rbPrintMark = true; window.addEventListener("beforeprint", markPrint); }
  const want = %(want)s;
  if (!want) return;
  const names = %(names)s;
  // Streamlit reads the entry of the path the page was loaded at: keep it for every page the visitor opens
  const key = %(prefix)s + window.location.pathname + %(suffix)s;
  try {
    if (window.localStorage.getItem(key) !== JSON.stringify(names[want])) {
      window.localStorage.setItem(key, JSON.stringify(names[want]));
    }
  } catch (e) { return; }
  if (window.__rbThemeDone === want) return;  // applied on this page load already (Streamlit's menu still works)
  window.__rbThemeDone = want;
  const shown = isDark() ? "dark" : "light";
  const system = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  const target = want === "auto" ? system : want;
  const mark = %(mark)s;
  if (shown === target) { window.sessionStorage.removeItem(mark); return; }
  if (window.sessionStorage.getItem(mark) === key + "|" + want) return;  // reloaded once: something else decides
  window.sessionStorage.setItem(mark, key + "|" + want);
  const url = new URL(window.location.href);
  if (want === "auto") url.searchParams.delete(%(param)s); else url.searchParams.set(%(param)s, want);
  window.location.replace(url.href);
})();
</script>
"""


def _mark_explicit() -> None:
    st.session_state[_EXPLICIT] = True


def choice() -> str:
    """This session's choice ("auto", "light" or "dark"), seeded once from ?theme= (a bad value: a notice)."""
    if THEME_KEY not in st.session_state:
        raw = st.query_params.get(THEME_KEY)
        value = url_state(THEME_KEY, DEFAULT, cast=lambda text: text.strip().lower(), valid=CHOICES)
        if raw is not None and raw.strip().lower() == value:
            _mark_explicit()  # a link that names a theme opens in it
    return st.session_state[THEME_KEY]


def chart_theme() -> str:
    """The theme charts are drawn for: what the browser shows (Streamlit sends it with every rerun), else the
    choice (AppTest and scripts have no browser; "auto" is light there)."""
    shown = st.context.theme.type
    if shown in style.THEMES:
        return shown
    picked = st.session_state.get(THEME_KEY, DEFAULT)
    return picked if picked in style.THEMES else "light"


def palette() -> style.Palette:
    """The chart colours of the theme this visitor sees."""
    return style.palette(chart_theme())


def apply_script(want: str) -> str:
    """The page script that makes the browser show `want` ("" leaves the browser's choice alone)."""
    prefix, suffix = STORAGE_KEY.split("{path}")
    return _SCRIPT % {
        "want": json.dumps(want), "want_attr": json.dumps(want), "names": json.dumps(STREAMLIT_NAMES),
        "prefix": json.dumps(prefix), "suffix": json.dumps(suffix), "mark": json.dumps(RELOAD_MARK),
        "param": json.dumps(THEME_KEY),
    }


def render() -> None:
    """The sidebar switch, the choice written to the URL, and the script that applies an explicit choice."""
    choice()
    labels = {c: tr(f"theme.{c}") for c in CHOICES}  # captured now: AppTest formats later
    st.sidebar.segmented_control(":material/contrast: " + tr("theme.label"), options=list(CHOICES),
                                 format_func=labels.get, key=THEME_KEY, required=True, on_change=_mark_explicit,
                                 help=tr("theme.help"))
    current = st.session_state[THEME_KEY]
    if current == DEFAULT:
        st.query_params.pop(THEME_KEY, None)
    else:
        st.query_params[THEME_KEY] = current
    want = current if st.session_state.get(_EXPLICIT) else ""
    st.sidebar.html(apply_script(want), unsafe_allow_javascript=True)
