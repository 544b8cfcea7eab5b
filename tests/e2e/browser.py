"""Helpers for browser tests (import as `from browser import wait_for_app, screenshot`)."""

from __future__ import annotations

from pathlib import Path

SCREENSHOTS = Path(__file__).parent / "screenshots"
EXCEPTION = '[data-testid="stException"]'


def wait_for_app(page, timeout_ms: int = 30_000) -> None:
    """Wait until Streamlit has rendered a page title and finished running the script."""
    page.wait_for_selector("h1", timeout=timeout_ms)
    page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=timeout_ms)


def screenshot(page, name: str) -> Path:
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    return path
