"""Generated questions: fresh random values each time, answers computed from the formulas and the data tables.

Each generator takes a random.Random and returns a validated Question with set "generated". Its `template`
(e.g. "gen.throughput") is what the database stores, so progress is tracked per kind of question while
every instance has new numbers. Prompts and explanations come from the catalog (quiz.gen.*) in both languages.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from rocm_bridge import formulas
from rocm_bridge.data import read_csv
from rocm_bridge.i18n import LANGS, t
from rocm_bridge.quiz.model import Question, question_from_dict
from rocm_bridge.versions import parse_version

FORMULA_SOURCE = "rocm_bridge.formulas.{name} (course formula, {chapter})"


def _both(key: str, **params: object) -> dict[str, str]:
    return {lang: t(key, lang, **params) for lang in LANGS}


def _build(template: str, rng: random.Random, **raw: object) -> Question:
    suffix = f"{rng.getrandbits(40):010x}"
    data = {"id": f"{template}.{suffix}", "template": template, **raw}
    return question_from_dict(data, set_name="generated", origin=template)


# --- formula numerics -------------------------------------------------------------------------------------


def gen_throughput(rng: random.Random) -> Question:
    batch = rng.choice((16, 32, 64, 128, 256, 512))
    t_compute_ms = rng.randrange(20, 205, 5)
    t_transfer_ms = rng.randrange(2, 62, 2)
    value = formulas.throughput(batch, t_compute_ms / 1000, t_transfer_ms / 1000)
    params = {"batch": batch, "t_compute_ms": t_compute_ms, "t_transfer_ms": t_transfer_ms}
    return _build(
        "gen.throughput",
        rng,
        chapter="ch4",
        type="numeric",
        difficulty=2,
        page="formulas",
        prompt=_both("quiz.gen.throughput.prompt", **params),
        explanation=_both("quiz.gen.throughput.explanation", answer=f"{value:.1f}", **params),
        answer=value,
        tolerance=max(0.01 * value, 0.5),
        unit="samples/s",
        source=FORMULA_SOURCE.format(name="throughput", chapter="ch4"),
        params=params,
    )


def gen_speedup(rng: random.Random) -> Question:
    t_before_s = round(rng.uniform(20, 300), 1)
    factor = rng.choice((rng.uniform(1.1, 4.0), rng.uniform(1.1, 4.0), rng.uniform(0.6, 0.95)))
    t_after_s = round(t_before_s / factor, 1)
    value = formulas.speedup(t_before_s, t_after_s)
    params = {"t_before_s": t_before_s, "t_after_s": t_after_s}
    return _build(
        "gen.speedup",
        rng,
        chapter="ch6",
        type="numeric",
        difficulty=1,
        page="formulas",
        prompt=_both("quiz.gen.speedup.prompt", **params),
        explanation=_both(
            "quiz.gen.speedup.explanation" if value >= 1 else "quiz.gen.speedup.explanation_slower",
            answer=f"{value:.2f}",
            **params,
        ),
        answer=value,
        tolerance=0.01,
        unit="×",
        source=FORMULA_SOURCE.format(name="speedup", chapter="ch6"),
        params=params,
    )


def gen_coverage(rng: random.Random) -> Question:
    n_total = rng.randrange(20, 401)
    n_supported = rng.randrange(int(n_total * 0.6), n_total + 1)
    value = 100 * formulas.coverage(n_supported, n_total)
    params = {"n_supported": n_supported, "n_total": n_total, "n_missing": n_total - n_supported}
    return _build(
        "gen.coverage",
        rng,
        chapter="ch5",
        type="numeric",
        difficulty=1,
        page="coverage",
        prompt=_both("quiz.gen.coverage.prompt", **params),
        explanation=_both("quiz.gen.coverage.explanation", answer=f"{value:.1f}", **params),
        answer=value,
        tolerance=0.1,
        unit="%",
        source=FORMULA_SOURCE.format(name="coverage", chapter="ch5"),
        params=params,
    )


def gen_per_op_time(rng: random.Random) -> Question:
    dispatch_us = rng.randrange(3, 21)
    kernel_us = rng.randrange(5, 400)
    sync_us = rng.randrange(2, 31)
    op = formulas.per_op_time(dispatch_us * 1e-6, kernel_us * 1e-6, sync_us * 1e-6)
    value = 100 * (op.dispatch_s + op.sync_s) / op.total_s
    params = {"dispatch_us": dispatch_us, "kernel_us": kernel_us, "sync_us": sync_us}
    return _build(
        "gen.per_op_time",
        rng,
        chapter="ch3",
        type="numeric",
        difficulty=2,
        page="formulas",
        prompt=_both("quiz.gen.per_op_time.prompt", **params),
        explanation=_both(
            "quiz.gen.per_op_time.explanation",
            answer=f"{value:.1f}",
            total_us=dispatch_us + kernel_us + sync_us,
            **params,
        ),
        answer=value,
        tolerance=0.2,
        unit="%",
        source=FORMULA_SOURCE.format(name="per_op_time", chapter="ch3"),
        params=params,
    )


# Version pairs chosen to exercise the "compare as versions, not as text" trap (6.10 > 6.9, 2.9 < 2.14).
_DRIVERS = ("6.2", "6.3.1", "6.4", "6.10.5", "30.10", "30.20")
_ROCMS = ("5.7", "6.0.2", "6.3.3", "6.4", "6.10", "7.0", "7.2.1")
_TFS = ("2.9", "2.13.1", "2.14", "2.16.2", "2.18.1", "2.19.1", "2.20")


def gen_compatible(rng: random.Random) -> Question:
    pools = {"driver": _DRIVERS, "rocm": _ROCMS, "tensorflow": _TFS}
    minimum = {k: rng.choice(v[1:-1]) for k, v in pools.items()}
    # About half of the machines pass; a failing one misses one or two minimums.
    failing = set() if rng.random() < 0.5 else set(rng.sample(sorted(pools), rng.choice((1, 1, 2))))
    installed = {}
    for k, values in pools.items():
        newer = [v for v in values if parse_version(v) >= parse_version(minimum[k])]
        older = [v for v in values if parse_version(v) < parse_version(minimum[k])]
        installed[k] = rng.choice(older if k in failing and older else newer)
    result = formulas.compatible(**{k: (installed[k], minimum[k]) for k in installed})
    params = {f"{k}_installed": v for k, v in installed.items()} | {f"{k}_min": v for k, v in minimum.items()}
    failing = ", ".join(i.name for i in result.failing)
    return _build(
        "gen.compatible",
        rng,
        chapter="ch2",
        type="true_false",
        difficulty=2,
        page="doctor",
        prompt=_both("quiz.gen.compatible.prompt", **params),
        explanation=_both(
            "quiz.gen.compatible.explanation_ok" if result.value else "quiz.gen.compatible.explanation_fail",
            failing=failing,
            **params,
        ),
        answer=bool(result.value),
        source=FORMULA_SOURCE.format(name="compatible", chapter="ch2"),
        params=params,
    )


# --- from the data tables ---------------------------------------------------------------------------------

_HIP_GROUPS = ("runtime", "driver", "blas", "sparse", "rand", "fft", "rtc")


@lru_cache(maxsize=1)
def _hip_rows() -> dict[str, tuple[dict[str, str], ...]]:
    """Current, supported function mappings of hipify's default (HIP) target, by API group."""
    out: dict[str, list[dict[str, str]]] = {g: [] for g in _HIP_GROUPS}
    for r in read_csv("hipify_mappings.csv"):
        if (
            r["variant"] == "hip"
            and r["api_group"] in out
            and r["kind"] == "function"
            and r["hip_name"]
            and not (r["hip_removed"] or r["cuda_removed"] or r["hip_experimental"])
            and not (r["hip_deprecated"] or r["cuda_deprecated"])
        ):
            out[r["api_group"]].append(r)
    return {g: tuple(rows) for g, rows in out.items() if rows}


def _naive_names(cuda_name: str) -> list[str]:
    """Names a learner might guess by swapping prefixes mechanically."""
    guesses = []
    for prefix, hip, roc in (
        ("cublas", "hipblas", "rocblas"),
        ("cusparse", "hipsparse", "rocsparse"),
        ("curand", "hiprand", "rocrand"),
        ("cufft", "hipfft", "rocfft"),
        ("nvrtc", "hiprtc", "rocrtc"),
        ("cuda", "hip", "roc"),
        ("cu", "hip", "roc"),
    ):
        if cuda_name.startswith(prefix):
            rest = cuda_name[len(prefix) :]
            guesses += [hip + rest, roc + rest, "hip" + cuda_name[0].upper() + cuda_name[1:]]
            break
    return guesses


def gen_hip_name(rng: random.Random) -> Question:
    groups = _hip_rows()
    group = rng.choice(sorted(groups))
    row = rng.choice(groups[group])
    correct = row["hip_name"]
    distractors: list[str] = []
    for guess in _naive_names(row["cuda_name"]):
        if guess != correct and guess not in distractors and len(distractors) < 1:
            distractors.append(guess)
    same_section = [r["hip_name"] for r in groups[group] if r["section"] == row["section"]]
    pool = sorted(set(same_section) | {r["hip_name"] for r in rng.sample(groups[group], min(20, len(groups[group])))})
    rng.shuffle(pool)
    for name in pool:
        if len(distractors) >= 3:
            break
        if name != correct and name not in distractors:
            distractors.append(name)
    options = [correct, *distractors]
    rng.shuffle(options)
    params = {
        "cuda_name": row["cuda_name"],
        "hip_name": correct,
        "library": row["target_library"],
        "section": row["section"],
        "hip_added": row["hip_added"] or "?",
    }
    return _build(
        "gen.hip_name",
        rng,
        chapter="ch5",
        type="single",
        difficulty=1,
        page="hipify",
        prompt=_both("quiz.gen.hip_name.prompt", **params),
        explanation=_both("quiz.gen.hip_name.explanation", **params),
        options=options,
        answer=options.index(correct),
        source=f"data/hipify_mappings.csv ({row['source_table']}, ROCm/HIPIFY 014177b)",
        params=params,
    )


@lru_cache(maxsize=1)
def _fp64_rows() -> tuple[dict[str, str], ...]:
    return tuple(r for r in read_csv("gpu_specs.csv") if r["fp64_tflops"].strip())


def gen_fp64(rng: random.Random) -> Question:
    rows = _fp64_rows()
    while True:
        a, b = rng.sample(rows, 2)
        if float(a["fp64_tflops"]) != float(b["fp64_tflops"]):
            break
    winner = a if float(a["fp64_tflops"]) > float(b["fp64_tflops"]) else b
    options = [a["model"], b["model"]]
    params = {
        "gpu_a": a["model"],
        "gpu_b": b["model"],
        "fp64_a": a["fp64_tflops"],
        "fp64_b": b["fp64_tflops"],
        "winner": winner["model"],
    }
    key = "quiz.gen.fp64.explanation"
    if any("MI250" in r["model"] for r in (a, b)):
        key = "quiz.gen.fp64.explanation_gcd"
    first_source = lambda r: r["source"].split(" | ")[0]  # noqa: E731
    return _build(
        "gen.fp64",
        rng,
        chapter="ch1",
        type="single",
        difficulty=1,
        page="hardware",
        prompt=_both("quiz.gen.fp64.prompt", **params),
        explanation=_both(key, **params),
        options=options,
        answer=options.index(winner["model"]),
        source=f"data/gpu_specs.csv ({first_source(a)}; {first_source(b)})",
        params=params,
    )


def _tf_rocm_lines() -> list[str]:
    """Release lines whose TensorFlow list is a clean set of full versions (6.0.x and newer, previews excluded)."""
    from rocm_bridge import compat

    lines = []
    for line in compat.rocm_releases():
        versions = compat.tensorflow_versions_for_rocm(line, ("rocm_release",))
        recent = line.endswith(".x") and parse_version(line.removesuffix(".x")) >= (6,)
        if recent and len(versions) >= 2 and all(v.count(".") == 2 for v in versions):
            lines.append(line)
    return lines


def gen_tf_rocm(rng: random.Random) -> Question:
    from rocm_bridge import compat

    line = rng.choice(_tf_rocm_lines())
    right = compat.tensorflow_versions_for_rocm(line, ("rocm_release",))
    others = sorted(
        {v for other in _tf_rocm_lines() for v in compat.tensorflow_versions_for_rocm(other, ("rocm_release",))}
        - set(right),
        key=parse_version,
    )
    # distractors close to the right window are the instructive ones
    lo, hi = parse_version(right[-1]), parse_version(right[0])
    near = sorted(others, key=lambda v: min(abs(parse_version(v)[1] - lo[1]), abs(parse_version(v)[1] - hi[1])))
    options = sorted([*right, *near[:2]], key=parse_version, reverse=True)
    row = compat.release_row(line)
    params = {"rocm": line, "versions": ", ".join(right)}
    return _build(
        "gen.tf_rocm",
        rng,
        chapter="ch2",
        type="multiple",
        difficulty=2,
        page="doctor",
        prompt=_both("quiz.gen.tf_rocm.prompt", **params),
        explanation=_both("quiz.gen.tf_rocm.explanation", **params),
        options=options,
        answer=[options.index(v) for v in right],
        source=f"data/tf_rocm_compat.csv ({row.source.split(' | ')[0] if row else 'rocm_release rows'})",
        params=params,
    )


def gen_occupancy(rng: random.Random) -> Question:
    """Waves per SIMD on gfx90a from registers and LDS (chapter 9's formula)."""
    vgprs = rng.choice((24, 32, 40, 48, 56, 64, 72, 84, 96, 104, 128, 136, 168, 200, 256))
    agprs = rng.choice((0, 0, 0, 32, 64, 128)) if vgprs <= 256 else 0
    threads = rng.choice((64, 128, 256, 512))
    lds = rng.choice((0, 0, 4096, 8192, 16384, 24576, 32768))
    r = formulas.occupancy(vgprs=vgprs, agprs=agprs, lds_bytes_per_block=lds, block_threads=threads)
    params = {"vgprs": vgprs, "agprs": agprs, "threads": threads, "lds": lds}
    return _build(
        "gen.occupancy",
        rng,
        chapter="ch9",
        type="numeric",
        difficulty=3,
        page="ch9",
        prompt=_both("quiz.gen.occupancy.prompt", **params),
        explanation=_both("quiz.gen.occupancy.explanation", allocated=r.registers_allocated,
                          by_regs=r.by_registers, by_lds=r.by_lds, answer=r.waves_per_simd, **params),
        answer=r.waves_per_simd,
        tolerance=0,
        unit="waves/SIMD",
        source=FORMULA_SOURCE.format(name="occupancy", chapter="ch9"),
        params=params,
    )


# --- registry ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Generator:
    id: str
    chapter: str
    make: Callable[[random.Random], Question]


GENERATORS: dict[str, Generator] = {
    g.id: g
    for g in (
        Generator("gen.fp64", "ch1", gen_fp64),
        Generator("gen.compatible", "ch2", gen_compatible),
        Generator("gen.tf_rocm", "ch2", gen_tf_rocm),
        Generator("gen.per_op_time", "ch3", gen_per_op_time),
        Generator("gen.throughput", "ch4", gen_throughput),
        Generator("gen.coverage", "ch5", gen_coverage),
        Generator("gen.hip_name", "ch5", gen_hip_name),
        Generator("gen.speedup", "ch6", gen_speedup),
        Generator("gen.occupancy", "ch9", gen_occupancy),
    )
}


def generate(template: str, rng: random.Random | None = None) -> Question:
    """A fresh instance of one kind of generated question."""
    return GENERATORS[template].make(rng or random.Random())


def generators_for(chapters: list[str] | tuple[str, ...] | None) -> list[Generator]:
    return [g for g in GENERATORS.values() if chapters is None or g.chapter in chapters]


def sorted_versions(versions: list[str]) -> list[str]:
    return sorted(versions, key=parse_version)
