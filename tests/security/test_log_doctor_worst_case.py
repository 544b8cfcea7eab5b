"""Threat: one paste freezes the server (docs/security.md #1). Before the fix the `rocm_lib_missing` pattern took
8.7 s on 160k characters of `librocblas` and 56 s on 320k; the box accepts 2,000,000.

Every signature meets its worst inputs at the maximum size. CPU time of the matching thread is measured (not wall
time, so other load on the machine does not decide the result); the bound is a fifth of the old 160k-char time.
"""

from __future__ import annotations

import threading
import time

import pytest
from payloads import LOG_ISSUE_CASE, LOG_SAMPLES, fill, log_worst_cases

from rocm_bridge.data import read_csv
from rocm_bridge.doctor import logs
from rocm_bridge.errors import Busy

MAX = logs.MAX_LOG_BYTES
BUDGET_S = 1.0  # per signature and input, CPU seconds, at 2,000,000 characters


def _cpu(fn, *args) -> tuple[float, object]:
    t0 = time.thread_time()
    out = fn(*args)
    return time.thread_time() - t0, out


def _match_one(sig: logs.Signature, text: str) -> int:
    searched = logs.bounded_lines(text)
    n = 0
    for _ in sig.pattern.finditer(searched):
        n += 1
        if n >= logs.MAX_MATCHES:
            break
    return n


def test_every_signature_has_a_worst_case_sample():
    assert set(LOG_SAMPLES) == {r["id"] for r in read_csv("log_signatures.csv")}


def test_every_pattern_compiles_under_re2():
    # RE2 refuses backreferences and lookaround: the catalogue cannot grow a backtracking pattern
    for row in read_csv("log_signatures.csv"):
        logs.compile_pattern(row["pattern"])
    import re2

    with pytest.raises(re2.error):
        logs.compile_pattern(r"(a+)\1")


@pytest.mark.parametrize("sig_id", sorted(LOG_SAMPLES))
def test_sample_is_found(sig_id):
    assert sig_id in [f.id for f in logs.diagnose(LOG_SAMPLES[sig_id])]


@pytest.mark.parametrize("sig_id", sorted(LOG_SAMPLES))
def test_worst_inputs_at_max_size_are_fast(sig_id):
    sig = logs.signatures_by_id()[sig_id]
    for kind, text in log_worst_cases(LOG_SAMPLES[sig_id], MAX, logs.MAX_LINE_CHARS).items():
        assert len(text) == MAX
        cpu, _ = _cpu(_match_one, sig, text)
        assert cpu < BUDGET_S, (sig_id, kind, cpu)


def test_issue_reproduction_whole_diagnosis():
    # all 26 signatures over 2,000,000 characters of the issue's token run, and the same as many short lines
    for text in (fill(LOG_ISSUE_CASE, MAX), fill(LOG_ISSUE_CASE, MAX, "\n"), fill("x", MAX, "\n")):
        cpu, found = _cpu(logs._diagnose, text)
        assert cpu < 2 * BUDGET_S, cpu
        assert found == []


def test_many_matches_are_counted_up_to_the_cap():
    text = fill(LOG_SAMPLES["oom"], MAX, "\n")
    (f,) = [x for x in logs.diagnose(text) if x.id == "oom"]
    assert f.count == logs.MAX_MATCHES and f.line_no == 1


def test_long_line_is_searched_in_its_head_only():
    head = "x" * (logs.MAX_LINE_CHARS + 10) + LOG_SAMPLES["oom"]
    assert logs.diagnose(head) == []
    (f,) = logs.diagnose("\n".join(["ok"] * 3 + [LOG_SAMPLES["oom"] + "y" * 10_000]))
    assert f.line_no == 4 and len(f.line) == 500


def test_wrapped_message_still_matches_across_lines():
    assert "numpy2_old_tf" in [f.id for f in logs.diagnose(LOG_SAMPLES["numpy2_old_tf"])]


def test_diagnosis_runs_off_the_callers_thread_and_times_out_with_a_message():
    names = []
    logs._pool().submit(lambda: names.append(threading.current_thread().name)).result()
    assert names[0].startswith("log-doctor") and names[0] != threading.current_thread().name
    gate = threading.Event()
    logs._pool().submit(gate.wait, 5)  # the worker is busy with someone else's log
    try:
        with pytest.raises(Busy) as err:
            logs.diagnose(LOG_SAMPLES["oom"], timeout=0.2)
        assert "busy" in err.value.message("en") and "繁忙" not in err.value.message("en")
        assert "稍后再试" in err.value.message("zh")
    finally:
        gate.set()
