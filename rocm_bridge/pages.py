"""The page registry: one list drives the navigation, the smoke tests and the links between pages."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PageSpec:
    key: str
    file: str  # relative to the repository root
    group: str  # learn | labs | practice
    icon: str
    title_key: str
    url_path: str

    @property
    def route(self) -> str:
        """The URL path the page is served at: st.navigation serves the default page (home) at the root."""
        return "" if self.key == DEFAULT_PAGE else self.url_path


DEFAULT_PAGE = "home"


def _chapter(n: int, slug: str, icon: str) -> PageSpec:
    return PageSpec(f"ch{n}", f"views/ch{n}_{slug}.py", "learn", icon, f"chapters.ch{n}.title", f"ch{n}-{slug.replace('_', '-')}")


PAGES: tuple[PageSpec, ...] = (
    PageSpec("home", "views/home.py", "learn", ":material/home:", "home.title", "home"),
    PageSpec("search", "views/search.py", "learn", ":material/search:", "search.title", "search"),
    _chapter(1, "rocm_basics", ":material/layers:"),
    _chapter(2, "environment", ":material/build:"),
    _chapter(3, "operators", ":material/memory:"),
    _chapter(4, "tuning", ":material/speed:"),
    _chapter(5, "migration", ":material/move_up:"),
    _chapter(6, "toolchain", ":material/construction:"),
    _chapter(7, "scenarios", ":material/psychology:"),
    _chapter(8, "env_check", ":material/fact_check:"),
    _chapter(9, "hip_kernels", ":material/grid_view:"),
    _chapter(10, "libraries", ":material/tune:"),
    _chapter(11, "beyond_tf", ":material/hub:"),
    _chapter(12, "below_kernel", ":material/memory_alt:"),
    PageSpec("stack", "views/stack.py", "labs", ":material/account_tree:", "stack.title", "stack"),
    PageSpec("hardware", "views/hardware.py", "labs", ":material/developer_board:", "hardware.title", "hardware"),
    PageSpec("formulas", "views/formula_lab.py", "labs", ":material/function:", "formula_lab.title", "formulas"),
    PageSpec("hipify", "views/hipify.py", "labs", ":material/translate:", "hipify.title", "hipify"),
    PageSpec("compile", "views/compile.py", "labs", ":material/build_circle:", "compile.title", "compile"),
    PageSpec("doctor", "views/doctor.py", "labs", ":material/health_and_safety:", "doctor.title", "doctor"),
    PageSpec("live", "views/live.py", "labs", ":material/bolt:", "live.title", "live"),
    PageSpec("coverage", "views/coverage.py", "labs", ":material/checklist:", "coverage.title", "coverage"),
    PageSpec("quiz", "views/quiz.py", "practice", ":material/quiz:", "quiz.title", "quiz"),
    PageSpec("handout", "views/handout.py", "practice", ":material/print:", "handout.title", "handout"),
    PageSpec("progress", "views/progress.py", "practice", ":material/insights:", "progress.title", "progress"),
    PageSpec("classroom", "views/classroom.py", "practice", ":material/school:", "classroom.title", "classroom"),
)

GROUPS: tuple[str, ...] = ("learn", "labs", "practice")
CHAPTERS: tuple[str, ...] = tuple(p.key for p in PAGES if p.key.startswith("ch"))
_BY_KEY = {p.key: p for p in PAGES}


def page(key: str) -> PageSpec:
    """The page with this key; KeyError names the known keys."""
    try:
        return _BY_KEY[key]
    except KeyError:
        raise KeyError(f"unknown page {key!r}; known: {', '.join(_BY_KEY)}") from None


def by_file(file: str) -> PageSpec | None:
    return next((p for p in PAGES if p.file == file), None)
