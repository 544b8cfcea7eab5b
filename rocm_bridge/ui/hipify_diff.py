"""The hipify page's diff view: the changed lines of CUDA and HIP side by side in an HTML table with the changed
words marked (every text escaped: it is user code; colours from the theme's vendor colours), and both full files
below it.
"""

from __future__ import annotations

import html

import streamlit as st

from rocm_bridge.hipify import page_model as pm
from rocm_bridge.ui import tr
from rocm_bridge.ui.hipify_state import code_px, shown
from rocm_bridge.ui.theme import palette
from rocm_bridge.visual.style import blend

_DIFF_CSS = """
<style>
  .rb-diff { width: 100%%; border-collapse: collapse; table-layout: fixed; font-family: "Source Code Pro", monospace;
             font-size: %(px)dpx; line-height: 1.35; }
  .rb-diff th { text-align: left; font-family: inherit; padding: .2em .4em; border-bottom: 1px solid %(line)s; }
  .rb-diff td { vertical-align: top; padding: .1em .4em; white-space: pre-wrap; overflow-wrap: anywhere; }
  .rb-diff td.n { width: 3.6em; text-align: right; color: %(muted)s; white-space: nowrap; }
  .rb-diff td.a { background: %(a_row)s; } .rb-diff td.b { background: %(b_row)s; }
  .rb-diff mark.a { background: %(a_mark)s; color: inherit; } .rb-diff mark.b { background: %(b_mark)s; color: inherit; }
</style>
"""


def _continuation(text: str) -> str:
    """A macro line's continuation backslash padded out to a column would wrap onto a row of its own; on screen the
    padding shrinks to one space (the source, the download and the copy keep it)."""
    stripped = text.rstrip()
    if stripped.endswith("\\") and stripped[:-1].endswith("  "):
        return stripped[:-1].rstrip() + " \\"
    return text


def _cell(pieces: list[tuple[str, bool]], side: str) -> str:
    return "".join(f'<mark class="{side}">{html.escape(t)}</mark>' if changed else html.escape(t)
                   for t, changed in pieces)


def diff_html(rows, cuda_title: str, hip_title: str) -> str:
    """The changed lines as a two-sided table, changed words marked; every text is escaped (user code)."""
    p = palette()
    cuda, hip = p.vendor_color("CUDA"), p.vendor_color("HIP")
    css = _DIFF_CSS % {"px": code_px(), "line": p.line, "muted": p.muted,
                       "a_row": blend(cuda, p.background, 0.08), "b_row": blend(hip, p.background, 0.08),
                       "a_mark": blend(cuda, p.background, 0.35), "b_mark": blend(hip, p.background, 0.35)}
    out = [css, '<table class="rb-diff"><colgroup><col style="width:3.6em"><col><col style="width:3.6em"><col>'
           f'</colgroup><thead><tr><th></th><th>{html.escape(cuda_title)}</th><th></th>'
           f'<th>{html.escape(hip_title)}</th></tr></thead><tbody>']
    for row in rows:
        left, right = pm.inline_spans(_continuation(shown(row["cuda"])), _continuation(shown(row["hip"])))
        ln = "" if row["cuda_line"] is None else row["cuda_line"]
        rn = "" if row["hip_line"] is None else row["hip_line"]
        out.append(f'<tr><td class="n">{ln}</td><td class="a">{_cell(left, "a")}</td>'
                   f'<td class="n">{rn}</td><td class="b">{_cell(right, "b")}</td></tr>')
    out.append("</tbody></table>")
    return "".join(out)


def render_diff(fr: pm.FileResult) -> None:
    d = pm.diff(fr.result.source, fr.result.output)
    if not d.changed:
        st.info(tr("hipify.page.no_changes"))
    elif not d.complete:
        st.warning(tr("hipify.page.too_different", n=d.changed))
    else:
        st.caption(tr("hipify.page.changed_lines", n=d.changed))
        if d.changed > len(d.rows):
            st.caption(tr("hipify.page.diff_first", shown=len(d.rows), n=d.changed))
        st.html(diff_html(d.rows, tr("hipify.col.cuda"), tr("hipify.col.hip")))
    with st.expander(tr("hipify.page.full_files"), expanded=d.changed > 0 and not d.complete):
        left, right = st.columns(2)
        left.caption(tr("hipify.page.cuda_pane"))
        left.code(shown(fr.result.source), language="cpp", line_numbers=True, wrap_lines=False)
        right.caption(tr("hipify.page.hip_pane"))
        right.code(shown(fr.result.output), language="cpp", line_numbers=True, wrap_lines=False)
