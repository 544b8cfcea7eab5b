"""One benchmark at a time per server process.

Streamlit runs every browser session as a thread of one process, so a process-wide lock is enough to keep
two classrooms' clicks from timing each other's kernels. A second caller does not wait: it gets errors.Busy
and the page says "busy, try again".
"""

from __future__ import annotations

from rocm_bridge.errors import Busy
from rocm_bridge.exclusive import OneAtATime

# clients take turns while another is waiting (rocm_bridge/exclusive.py): a loop of 300 s benchmarks from one
# client does not keep every other visitor at "busy"
_BENCH = OneAtATime(lambda held_s: Busy(), turn=lambda wait: Busy("security.slot_turn", wait=wait))
is_busy = _BENCH.is_busy
holder = _BENCH.holder


def bench_lock(label: str = "benchmark"):
    return _BENCH.hold(label)
