"""What one translation produced: Result, and the records it holds (rocm_bridge.hipify.translator fills them).

References are many (a 200k-line file has ~100k) and few of them differ in anything but their position, so
they are kept as a table, `References`: per occurrence an offset, a line, a column and the index of its record
(name, HIP name, group, status and version columns), four arrays of machine integers. A `Reference` tuple is
built only when one is read; the report's counts come from the records and their counts, without building any.
"""

from __future__ import annotations

from array import array
from collections import Counter
from itertools import compress

from rocm_bridge.hipify.records import record

CONVERTED, UNSUPPORTED, EXPERIMENTAL = "converted", "unsupported", "experimental"


@record
class Reference:
    """One occurrence of a CUDA API name in the input."""

    offset: int
    line: int
    col: int
    name: str
    hip_name: str  # what was written ("" when not converted)
    api_group: str
    kind: str
    library: str
    status: str  # converted | unsupported | experimental
    cuda_deprecated: str = ""
    cuda_removed: str = ""
    hip_deprecated: str = ""
    hip_removed: str = ""
    hip_experimental: str = ""


@record
class Info:
    """What the occurrences of one name with one outcome share: every field of Reference but the position."""

    name: str
    hip_name: str
    api_group: str
    kind: str
    library: str
    status: str
    cuda_deprecated: str = ""
    cuda_removed: str = ""
    hip_deprecated: str = ""
    hip_removed: str = ""
    hip_experimental: str = ""

    @property
    def deprecated(self) -> bool:
        return bool(self.cuda_deprecated or self.cuda_removed or self.hip_deprecated or self.hip_removed)


_new = tuple.__new__


class References:
    """The references of one translation in input order: a read-only sequence of Reference."""

    __slots__ = ("offsets", "lines", "cols", "which", "infos", "firsts", "_index")

    def __init__(self) -> None:
        self.offsets = array("q")
        self.lines = array("q")
        self.cols = array("q")
        self.which = array("i")  # index into infos
        self.infos: list[Info] = []  # in order of first occurrence
        self.firsts: list[int] = []  # position of each record's first occurrence (parallel to infos)
        self._index: dict[tuple[str, str, str], int] = {}  # (name, hip_name, status) -> index into infos

    def info_index(self, key: tuple[str, str, str]) -> int | None:
        """Index of the record for key = (name, hip_name, status), None before new_info(key, ...)."""
        return self._index.get(key)

    def new_info(self, key: tuple[str, str, str], info: Info) -> int:
        """Add the record for key; its first occurrence is the next reference added."""
        k = self._index[key] = len(self.infos)
        self.infos.append(info)
        self.firsts.append(len(self.which))
        return k

    def add(self, offset: int, line: int, col: int, k: int) -> None:
        self.offsets.append(offset)
        self.lines.append(line)
        self.cols.append(col)
        self.which.append(k)

    def _make(self, i: int) -> Reference:
        return _new(Reference, (self.offsets[i], self.lines[i], self.cols[i], *self.infos[self.which[i]]))

    def __len__(self) -> int:
        return len(self.which)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self._make(j) for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError("reference index out of range")
        return self._make(i)

    def __iter__(self):
        infos = self.infos
        for o, line, c, k in zip(self.offsets, self.lines, self.cols, self.which, strict=True):
            yield _new(Reference, (o, line, c, *infos[k]))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, References | list | tuple):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # mutable, like a list

    def __repr__(self) -> str:
        return f"References({len(self)})"

    def counts(self) -> list[int]:
        """Occurrences per record (parallel to infos)."""
        per = Counter(self.which)
        return [per[k] for k in range(len(self.infos))]

    def select(self, keep) -> list[Reference]:
        """The references whose record passes keep(info), in order (only those are built)."""
        wanted = {k for k, info in enumerate(self.infos) if keep(info)}
        if not wanted:
            return []
        if len(wanted) == len(self.infos):
            return list(self)
        return [self._make(i) for i, k in enumerate(self.which) if k in wanted]

    def where(self, keep):
        """(line, col, info) of the references whose record passes keep(info), in order."""
        wanted = {k for k, info in enumerate(self.infos) if keep(info)}
        if not wanted:
            return
        infos = self.infos
        for line, col, k in zip(self.lines, self.cols, self.which, strict=True):
            if k in wanted:
                yield line, col, infos[k]

    def rename_lines(self):
        """The line of every rename (edits()), in order, read from the arrays at C speed."""
        renamed = [info.status == CONVERTED and info.hip_name != info.name for info in self.infos]
        return compress(self.lines, map(renamed.__getitem__, self.which))

    def edits(self):
        """(start, end, hip_name) of every rename, in offset order: the converted references whose HIP name
        differs from the CUDA one."""
        repl = [info.hip_name if info.status == CONVERTED and info.hip_name != info.name else None
                for info in self.infos]
        width = [len(info.name) for info in self.infos]
        for o, k in zip(self.offsets, self.which, strict=True):
            r = repl[k]
            if r is not None:
                yield o, o + width[k], r


@record
class HeaderChange:
    line: int
    cuda_header: str
    hip_header: str  # "" = dropped
    reason: str  # mapped | dropped | duplicate | added


@record
class Launch:
    line: int
    col: int
    kernel: str
    rewritten: bool
    reason: str = ""  # why a launch was left as <<<>>> when the rewrite was asked for


class Result:
    """Everything one translation produced (a plain class: the command line avoids importing dataclasses)."""

    def __init__(self, source: str, output: str, options) -> None:
        self.source = source
        self.output = output
        self.options = options
        self.references = References()
        self.headers: list[HeaderChange] = []
        self.launches: list[Launch] = []
        self._changed_lines: set[int] = set()
        self._renames_pending = False  # True: the renames' lines are still to be added to _changed_lines
        self.notes: list[tuple[str, int, int]] = []  # (note key, line, col)
        self.lexed = None  # the input's scan (rocm_bridge.hipify.lexer.Lexed), reused by lint
        self.skipped: list[tuple[int, int]] = []  # spans left alone by skip_excluded
        # --rocm-version: each use of a rule of data/hipify_target_rules.csv (rocm_bridge.hipify.target.TargetRewrite)
        self.target_rewrites: list = []
        self.wave_rewrites: list = []  # --wavefront: rocm_bridge.hipify.wavefront.WaveRewrite, line by line
        self.helpers: list[str] = []  # sections of hipify_compat.h written into the output, in order
        self._counts: dict | None = None

    def __repr__(self) -> str:
        return f"Result({len(self.references)} references, {len(self.changed_lines)} lines changed)"

    @property
    def converted(self) -> list[Reference]:
        return self.references.select(lambda info: info.status == CONVERTED)

    @property
    def unconverted(self) -> list[Reference]:
        return self.references.select(lambda info: info.status != CONVERTED)

    @property
    def deprecated(self) -> list[Reference]:
        return self.references.select(lambda info: info.deprecated)

    def counts_by_group(self) -> dict[str, Counter]:
        """{api_group: Counter(status -> references)} (computed once)."""
        if self._counts is None:
            refs = self.references
            out: dict[str, Counter] = {}
            for info, n in zip(refs.infos, refs.counts(), strict=True):
                out.setdefault(info.api_group, Counter())[info.status] += n
            self._counts = out
        return self._counts

    @property
    def changed_lines(self) -> set[int]:
        """1-based lines of the input that changed. The lines of the renames (most of them) are read from the
        reference table on first use: a large file's set is not built while the translation still holds its
        masked text and output."""
        if self._renames_pending:
            # update (one C-level call, idempotent) before clearing the flag: a page thread reading the same
            # cached result at the same moment never sees a partial set
            self._changed_lines.update(self.references.rename_lines())
            self._renames_pending = False
        return self._changed_lines

    def defer_rename_lines(self) -> None:
        """The translator's renames are the reference table's edits(): add their lines when changed_lines is read."""
        self._renames_pending = True

    @property
    def lines_changed(self) -> int:
        return len(self.changed_lines)

    @property
    def changed(self) -> bool:
        return self.output != self.source
