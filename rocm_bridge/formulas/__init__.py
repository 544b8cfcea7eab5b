"""The course's six formulas as pure functions (units in parameter names) plus their LaTeX and symbols.

Every function validates its inputs and raises rocm_bridge.errors.InvalidInput with a message a learner can
act on. The doctests are the worked examples the chapters use.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rocm_bridge.errors import InvalidInput
from rocm_bridge.versions import parse_version


@dataclass(frozen=True)
class FormulaSpec:
    id: str
    chapter: str
    latex: str
    symbols: tuple[tuple[str, str], ...]  # (LaTeX symbol, catalog key of its explanation)

    @property
    def title_key(self) -> str:
        return f"formulas.{self.id}.title"


FORMULAS: dict[str, FormulaSpec] = {
    f.id: f
    for f in (
        FormulaSpec(
            "compatible",
            "ch2",
            r"\mathrm{Compatible} = \mathbb{1}[v_D \ge D_{\min}] \times \mathbb{1}[v_R \ge R_{\min}]"
            r" \times \mathbb{1}[v_T \ge T_{\min}]",
            (
                (r"\mathbb{1}[\cdot]", "formulas.sym.indicator"),
                (r"v_D,\ D_{\min}", "formulas.sym.driver"),
                (r"v_R,\ R_{\min}", "formulas.sym.rocm"),
                (r"v_T,\ T_{\min}", "formulas.sym.tensorflow"),
            ),
        ),
        FormulaSpec(
            "per_op_time",
            "ch3",
            r"T_{\mathrm{ROCm}}(op_i) = T_{\mathrm{dispatch}} + T_{\mathrm{kernel}} + T_{\mathrm{sync}}",
            (
                (r"op_i", "formulas.sym.op_i"),
                (r"T_{\mathrm{dispatch}}", "formulas.sym.t_dispatch"),
                (r"T_{\mathrm{kernel}}", "formulas.sym.t_kernel"),
                (r"T_{\mathrm{sync}}", "formulas.sym.t_sync"),
            ),
        ),
        FormulaSpec(
            "throughput",
            "ch4",
            r"\mathrm{Throughput} = \frac{B}{t_{\mathrm{compute}} + t_{\mathrm{transfer}}}",
            (
                (r"B", "formulas.sym.batch"),
                (r"t_{\mathrm{compute}}", "formulas.sym.t_compute"),
                (r"t_{\mathrm{transfer}}", "formulas.sym.t_transfer"),
            ),
        ),
        FormulaSpec(
            "coverage",
            "ch5",
            r"R_{\mathrm{coverage}} = \frac{N_{\mathrm{supported}}}{N_{\mathrm{total}}}",
            (
                (r"N_{\mathrm{supported}}", "formulas.sym.n_supported"),
                (r"N_{\mathrm{total}}", "formulas.sym.n_total"),
            ),
        ),
        FormulaSpec(
            "occupancy",
            "ch9",
            r"W_{\mathrm{SIMD}} = \min\left(W_{\max},\ \left\lfloor \frac{V_{\mathrm{file}}}{\lceil V + A \rceil_{8}} \right\rfloor,"
            r"\ \left\lfloor \frac{L_{\mathrm{CU}}}{L_{\mathrm{block}}} \right\rfloor \cdot \frac{w_{\mathrm{block}}}{4}\right)",
            (
                (r"W_{\mathrm{SIMD}}", "formulas.sym.waves_per_simd"),
                (r"W_{\max}", "formulas.sym.max_waves"),
                (r"V_{\mathrm{file}},\ V,\ A", "formulas.sym.vgpr_budget"),
                (r"\lceil \cdot \rceil_{8}", "formulas.sym.granule"),
                (r"L_{\mathrm{CU}},\ L_{\mathrm{block}}", "formulas.sym.lds"),
                (r"w_{\mathrm{block}}", "formulas.sym.waves_per_block"),
            ),
        ),
        FormulaSpec(
            "speedup",
            "ch6",
            r"S = \frac{T_{\mathrm{before}}}{T_{\mathrm{after}}}",
            (
                (r"T_{\mathrm{before}}", "formulas.sym.t_before"),
                (r"T_{\mathrm{after}}", "formulas.sym.t_after"),
            ),
        ),
    )
}


def check_number(name: str, value: float, *, positive: bool = False) -> float:
    """A finite, non-negative number (strictly positive when asked), else InvalidInput naming `name`.

    >>> check_number("t_after_s", "0.5")
    0.5
    >>> check_number("batch", 0, positive=True)
    Traceback (most recent call last):
    ...
    rocm_bridge.errors.InvalidInput: 'batch' must be greater than zero.
    """
    if isinstance(value, bool):  # True is 1 to Python, never a time or a count to a learner
        raise InvalidInput("errors.not_a_number", name=name, value=value)
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        raise InvalidInput("errors.not_a_number", name=name, value=str(value)[:40]) from None
    if math.isnan(number) or math.isinf(number):
        raise InvalidInput("errors.not_finite", name=name, value=value)
    if number < 0:
        raise InvalidInput("errors.negative", name=name, value=value)
    if positive and number == 0:
        raise InvalidInput("errors.zero", name=name)
    return number


_number = check_number  # the name other modules used first


def _count(name: str, value: float, *, positive: bool = False) -> float:
    """A whole, non-negative count (operator types are counted, not measured)."""
    number = check_number(name, value, positive=positive)
    if number != int(number):
        raise InvalidInput("formula_lab.errors.not_integer", name=name, value=value)
    return number


# --- 1. Compatible = 1[v_D >= D_min] x 1[v_R >= R_min] x 1[v_T >= T_min] -------------------------------


@dataclass(frozen=True)
class Indicator:
    name: str  # driver | rocm | tensorflow (or cuda, cudnn on NVIDIA)
    installed: str | None
    minimum: str
    ok: bool

    @property
    def value(self) -> int:
        return int(self.ok)


@dataclass(frozen=True)
class Compatibility:
    indicators: tuple[Indicator, ...]

    @property
    def value(self) -> int:
        """The product of the indicators: 1 only when every factor is 1."""
        return math.prod(i.value for i in self.indicators)

    @property
    def failing(self) -> tuple[Indicator, ...]:
        return tuple(i for i in self.indicators if not i.ok)


def compatible(**versions: tuple[str | None, str]) -> Compatibility:
    """Each keyword is a component: (installed version or None, minimum version). Compared as versions.

    >>> c = compatible(driver=("6.10.5", "6.4"), rocm=("6.3.3", "6.4"), tensorflow=("2.18.1", "2.18"))
    >>> c.value, [i.name for i in c.failing]
    (0, ['rocm'])
    >>> compatible(rocm=("6.10", "6.9")).value   # "6.10" is newer than "6.9", not older as text would say
    1
    """
    if not versions:
        raise InvalidInput("errors.no_components")
    indicators = []
    for name, pair in versions.items():
        if not isinstance(pair, tuple | list) or len(pair) != 2:
            raise InvalidInput("errors.bad_version", value=f"{name}={pair!r}"[:60])
        installed, minimum = pair
        parse_version(minimum)  # a bad minimum is a data error: fail loudly
        ok = bool(installed) and parse_version(installed) >= parse_version(minimum)
        indicators.append(Indicator(name, installed or None, minimum, ok))
    return Compatibility(tuple(indicators))


# --- 2. T_ROCm(op_i) = T_dispatch + T_kernel + T_sync ------------------------------------------------------


@dataclass(frozen=True)
class OpTime:
    dispatch_s: float
    kernel_s: float
    sync_s: float

    @property
    def total_s(self) -> float:
        return self.dispatch_s + self.kernel_s + self.sync_s

    @property
    def shares(self) -> dict[str, float]:
        """Each part's fraction of the total (all 0 when the total is 0)."""
        total = self.total_s
        parts = {"dispatch": self.dispatch_s, "kernel": self.kernel_s, "sync": self.sync_s}
        return {k: (v / total if total else 0.0) for k, v in parts.items()}


def per_op_time(dispatch_s: float, kernel_s: float, sync_s: float) -> OpTime:
    """Time of one op on the GPU.

    >>> t = per_op_time(dispatch_s=5e-6, kernel_s=20e-6, sync_s=5e-6)
    >>> round(t.total_s * 1e6, 3), round(t.shares["kernel"], 3)
    (30.0, 0.667)
    """
    return OpTime(
        _number("dispatch_s", dispatch_s), _number("kernel_s", kernel_s), _number("sync_s", sync_s)
    )


# --- 3. Throughput = B / (t_compute + t_transfer) -----------------------------------------------------------


def throughput(batch: float, t_compute_s: float, t_transfer_s: float) -> float:
    """Samples per second when one step computes a batch of B samples and transfers its data.

    >>> throughput(batch=256, t_compute_s=0.08, t_transfer_s=0.02)
    2560.0
    """
    batch = _number("batch", batch, positive=True)
    t_compute_s = _number("t_compute_s", t_compute_s)
    t_transfer_s = _number("t_transfer_s", t_transfer_s)
    step_s = t_compute_s + t_transfer_s
    if step_s == 0:
        raise InvalidInput("errors.zero", name="t_compute_s + t_transfer_s")
    return batch / step_s


# --- 4. R_coverage = N_supported / N_total -----------------------------------------------------------------


def coverage(n_supported: int, n_total: int) -> float:
    """Share of a model's operator types that have a GPU kernel on the target.

    >>> coverage(n_supported=47, n_total=50)
    0.94
    """
    n_supported = _count("n_supported", n_supported)
    n_total = _count("n_total", n_total, positive=True)
    if n_supported > n_total:
        raise InvalidInput("errors.more_than_total", part=n_supported, total=n_total)
    return n_supported / n_total


# --- 5. S = T_before / T_after ------------------------------------------------------------------------------


def speedup(t_before_s: float, t_after_s: float) -> float:
    """How many times faster the optimised run is (S < 1 is a slowdown).

    >>> speedup(t_before_s=12.0, t_after_s=8.0)
    1.5
    """
    return _number("t_before_s", t_before_s, positive=True) / _number("t_after_s", t_after_s, positive=True)


def amdahl_speedup(fraction_optimised: float, local_speedup: float) -> float:
    """Whole-run speedup when a fraction p of the time gets s times faster: 1 / ((1 - p) + p / s).

    >>> round(amdahl_speedup(0.6, 3.0), 3)
    1.667
    """
    p = _number("fraction_optimised", fraction_optimised)
    if p > 1:
        raise InvalidInput("errors.more_than_total", part=p, total=1)
    s = _number("local_speedup", local_speedup, positive=True)
    return 1.0 / ((1.0 - p) + p / s)


# --- 6. Occupancy: waves per SIMD = min(hardware, register, LDS limits) -------------------------------------

# gfx90a (MI200): 4 SIMDs per CU, at most 8 waves per SIMD, a unified file of 512 registers per lane per SIMD
# shared by VGPRs and AGPRs (AGPRs start at the next multiple of 4), allocated in granules of 8, 64 KiB LDS per
# CU, wave64. Sources: LLVM AMDGPUUsage and llvm-calc-occupancy (gfx90a: 8 waves/EU, 4 EUs per CU), ROCm MI200
# architecture docs (LDS 64 KiB per CU). SGPRs only limit occupancy above 100 per wave on CDNA and are left out.
GFX90A = {"max_waves": 8, "vgpr_file": 512, "granule": 8, "lds_per_cu_bytes": 65536, "simds_per_cu": 4, "wave": 64}


@dataclass(frozen=True)
class OccupancyResult:
    waves_per_simd: int
    by_hardware: int
    by_registers: int
    by_lds: int
    registers_allocated: int  # per lane, after rounding to the granule

    @property
    def binding(self) -> tuple[str, ...]:
        """The limits that set the result ('hardware' when nothing else binds)."""
        limits = {"registers": self.by_registers, "lds": self.by_lds}
        found = tuple(k for k, v in limits.items() if v == self.waves_per_simd and v < self.by_hardware)
        return found or ("hardware",)

    @property
    def waves_per_cu(self) -> int:
        return self.waves_per_simd * GFX90A["simds_per_cu"]


def occupancy(vgprs: int, agprs: int = 0, lds_bytes_per_block: int = 0, block_threads: int = 256) -> OccupancyResult:
    """Waves per SIMD of a kernel on gfx90a (MI200): the minimum of the hardware, register and LDS limits.

    >>> occupancy(vgprs=64).waves_per_simd        # 512 // 64 = 8: the hardware maximum
    8
    >>> occupancy(vgprs=128).waves_per_simd       # 512 // 128
    4
    >>> r = occupancy(vgprs=90, agprs=64)          # 92 + 64 = 156 -> 160 allocated; 512 // 160
    >>> (r.waves_per_simd, r.registers_allocated, r.binding)
    (3, 160, ('registers',))
    >>> occupancy(vgprs=32, lds_bytes_per_block=32768, block_threads=256).waves_per_simd  # 2 blocks x 4 waves / 4
    2
    """
    hw = GFX90A
    v = int(_count("vgprs", vgprs, positive=True))
    a = int(_count("agprs", agprs))
    lds = int(_count("lds_bytes_per_block", lds_bytes_per_block))
    threads = int(_count("block_threads", block_threads, positive=True))
    for name, value, limit in (("vgprs", v, 512), ("agprs", a, 256), ("block_threads", threads, 1024),
                               ("lds_bytes_per_block", lds, hw["lds_per_cu_bytes"])):
        if value > limit:
            raise InvalidInput("formulas.errors.too_large", name=name, value=value, limit=limit)
    used = (-(-v // 4) * 4 + a) if a else v
    if used > hw["vgpr_file"]:
        raise InvalidInput("formulas.errors.too_large", name="vgprs + agprs", value=used, limit=hw["vgpr_file"])
    allocated = -(-used // hw["granule"]) * hw["granule"]
    by_registers = min(hw["vgpr_file"] // allocated, hw["max_waves"])
    waves_per_block = -(-threads // hw["wave"])
    if lds == 0:
        by_lds = hw["max_waves"]
    else:
        blocks = hw["lds_per_cu_bytes"] // lds
        by_lds = min(max(blocks * waves_per_block // hw["simds_per_cu"], 1 if blocks else 0), hw["max_waves"])
    best = min(hw["max_waves"], by_registers, by_lds)
    return OccupancyResult(best, hw["max_waves"], by_registers, by_lds, allocated)
