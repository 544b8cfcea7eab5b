"""Compilers the tests run for real: found, or skipped with the reason (failed under CI, which installs them)."""

from __future__ import annotations

import os
import shutil

import pytest


def required(tool: str, package: str) -> str:
    """The path of `tool`; skipped where it is not installed, a failure under CI (`.ci/run` installs `package`)."""
    path = shutil.which(tool)
    if path is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{tool} is missing but CI installs it ({package})")
        pytest.skip(f"{tool} ({package}) is not installed here")
    return path


def hipcc() -> str:
    return required("hipcc", "Debian hipcc, ROCm 5.2")
