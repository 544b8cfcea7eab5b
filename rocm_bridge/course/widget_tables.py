"""The chapter widgets that have no chart, as tables: shared by the widgets (rocm_bridge.ui) and the handout.

- glossary: the glossary table itself (the widget is that table);
- occupancy: a worked example at the explorer's default inputs (the handout adds the occupancy formula card).
Cells are plain text: a caller that shows them as Markdown escapes them.
"""

from __future__ import annotations

from rocm_bridge import formulas, i18n
from rocm_bridge.course import glossary as glossary_data
from rocm_bridge.course.widgets import PrintTable

# The chapter-9 occupancy explorer (rocm_bridge.ui.occupancy_widget) before a learner moves a slider
OCCUPANCY_DEFAULTS = {"vgprs": 96, "agprs": 0, "lds": 0, "threads": 256}
# The compile lab's occupancy widget (rocm_bridge.ui.compile_view.occupancy_widget); the wave size is the target's
TARGET_DEFAULTS = {"target": "gfx90a", "block": 256, "vgprs": 32, "lds": 0, "agprs": 0, "sgprs": 16}


def glossary(lang: str) -> PrintTable:
    header = tuple(i18n.t(f"chapters.glossary.{k}", lang) for k in ("term", "english", "note"))
    rows = tuple((term.label(lang), term.en, term.note.get(lang) or term.note["en"]) for term in glossary_data.terms())
    return PrintTable("", header, rows, ("content/glossary.yaml",), i18n.t("chapters.glossary.caption", lang))


def occupancy_per_cu(r: formulas.OccupancyResult, lang: str) -> str:
    """The calculator's sentence under its result: waves per CU, registers allocated, each limit, the binding one."""
    binding = ", ".join(i18n.t(f"chapters.occupancy.limit.{b}", lang) for b in r.binding)
    return i18n.t("chapters.occupancy.per_cu", lang, waves=r.waves_per_cu, allocated=r.registers_allocated,
                  hw=r.by_hardware, regs=r.by_registers, lds=r.by_lds, binding=binding)


def occupancy_example(lang: str) -> PrintTable:
    d = OCCUPANCY_DEFAULTS
    r = formulas.occupancy(vgprs=d["vgprs"], agprs=d["agprs"], lds_bytes_per_block=d["lds"], block_threads=d["threads"])
    t = lambda key: i18n.t(key, lang)  # noqa: E731
    rows = (
        (t("chapters.occupancy.vgprs"), str(d["vgprs"])),
        (t("chapters.occupancy.agprs"), str(d["agprs"])),
        (t("chapters.occupancy.lds"), str(d["lds"])),
        (t("chapters.occupancy.threads"), str(d["threads"])),
        (t("chapters.occupancy.result"), f"{r.waves_per_simd} / {r.by_hardware}"),
    )
    return PrintTable(t("handout.example_title"), (t("handout.example_input"), t("handout.example_value")), rows,
                      (), f"{occupancy_per_cu(r, lang)} {t('chapters.occupancy.note')}")


def markdown(table: PrintTable) -> str:
    """The table as Markdown, every cell shown as typed (text.md_escape)."""
    from rocm_bridge.text import md_escape

    lines = ["| " + " | ".join(md_escape(h) for h in table.header) + " |", "|" + "---|" * len(table.header)]
    lines += ["| " + " | ".join(md_escape(c) for c in row) + " |" for row in table.rows]
    return "\n".join(lines)
