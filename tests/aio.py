"""asyncio from the tests: Playwright's sync API (the browser tests, earlier in the same run) keeps an event loop
running in pytest's main thread, so `asyncio.run` there raises "cannot be called from a running event loop"."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
    """asyncio.run in a thread of its own, optionally bounded by `timeout` seconds."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, asyncio.wait_for(coro, timeout)).result()
