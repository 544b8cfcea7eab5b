"""Timing helpers shared by every backend: warm-up, device sync before reading the clock, median of repeats,
and a deadline so no run outlives its budget."""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from rocm_bridge.errors import TimedOut


class Deadline:
    """A wall-clock budget. `left()` in seconds; `expired()` once it has passed."""

    def __init__(self, budget_s: float, clock: Callable[[], float] = time.perf_counter) -> None:
        if not budget_s > 0:
            raise ValueError("budget_s must be positive")
        self.budget_s = float(budget_s)
        self._clock = clock
        self.start = clock()

    def elapsed(self) -> float:
        return self._clock() - self.start

    def left(self) -> float:
        return self.budget_s - self.elapsed()

    def expired(self) -> bool:
        return self.left() <= 0


@dataclass
class Timing:
    median_s: float
    samples_s: list[float] = field(default_factory=list)
    inner: int = 1  # calls per timed sample (the clock is read once per `inner` calls)

    @property
    def spread(self) -> float:
        """(max - min) / median of the samples: how far to trust a difference between two timings."""
        if len(self.samples_s) < 2 or self.median_s <= 0:
            return 0.0
        return (max(self.samples_s) - min(self.samples_s)) / self.median_s


def measure(
    fn: Callable[[], object],
    sync: Callable[[object], None],
    *,
    deadline: Deadline | None = None,
    warmup: int = 2,
    warmup_s: float = 0.0,
    repeats: int = 7,
    min_sample_s: float = 0.02,
    max_inner: int = 10_000,
    inner: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Timing:
    """Median seconds per call of fn.

    fn launches work (possibly asynchronously) and returns something `sync` can wait on. Each sample runs
    fn `inner` times and then syncs, so a device's launch queue is drained before the clock is read; `inner`
    is chosen so a sample lasts about min_sample_s, which keeps the sync's own cost out of fast kernels.
    """
    out = None
    t_warm = clock()
    calls = 0
    # At least `warmup` calls and warmup_s seconds: the first calls pay for compilation and handle creation,
    # and an idle GPU needs a fraction of a second of work before its clocks are up.
    while calls < warmup or (warmup_s > 0 and clock() - t_warm < warmup_s):
        out = fn()
        calls += 1
        if calls % 8 == 0 or calls >= warmup:
            sync(out)
        if calls >= 100_000:
            break
    sync(out)
    if inner is None:
        t0 = clock()
        out = fn()
        sync(out)
        one = max(clock() - t0, 1e-9)
        inner = int(min(max_inner, max(1, math.ceil(min_sample_s / one))))
    samples: list[float] = []
    for _ in range(max(1, repeats)):
        if deadline is not None and deadline.expired() and samples:
            break
        sync(out)
        t0 = clock()
        for _ in range(inner):
            out = fn()
        sync(out)
        samples.append((clock() - t0) / inner)
    if not samples:  # pragma: no cover - repeats >= 1 always gives one sample
        raise TimedOut(what="measurement", seconds=0)
    return Timing(statistics.median(samples), samples, inner)
