"""Quiz store under concurrent writers: answers/s and lost writes for SQLite (WAL) in a temp dir.

    python bench/quiz_store.py            # prints a table; timings never go into tests
"""

from __future__ import annotations

import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rocm_bridge.quiz.store import Store  # noqa: E402


def run(n_threads: int, per_thread: int) -> tuple[float, int]:
    with tempfile.TemporaryDirectory() as tmp:
        s = Store(f"sqlite:///{tmp}/bench.sqlite3")
        ids = [s.learner_id(f"learner{i}") for i in range(n_threads)]
        barrier = threading.Barrier(n_threads)

        def work(i: int) -> None:
            barrier.wait()
            for k in range(per_thread):
                s.record_answer(ids[i], question_id=f"ch1.q{k % 50}", chapter="ch1", set_name="bank",
                                mode="practice", given=k, correct=bool(k % 3))  # fmt: skip

        threads = [threading.Thread(target=work, args=(i,)) for i in range(n_threads)]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - t0
        lost = n_threads * per_thread - s.count_answers()
        s.engine.dispose()
        return elapsed, lost


def main() -> None:
    print(f"{'threads':>8} {'answers':>8} {'seconds':>8} {'answers/s':>10} {'lost':>5}")
    for n_threads, per_thread in ((1, 400), (4, 100), (16, 50), (32, 25)):
        elapsed, lost = run(n_threads, per_thread)
        total = n_threads * per_thread
        print(f"{n_threads:>8} {total:>8} {elapsed:>8.2f} {total / elapsed:>10.0f} {lost:>5}")


if __name__ == "__main__":
    main()
