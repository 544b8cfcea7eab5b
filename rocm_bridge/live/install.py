"""How to install each framework the live lab can use, per platform, from data/framework_install.csv."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rocm_bridge.data import read_csv

PLATFORMS: tuple[str, ...] = ("amd", "nvidia", "cpu")


@dataclass(frozen=True)
class InstallHint:
    framework: str
    platform: str
    command: str
    note: str
    note_zh: str  # the note in Chinese (the page shows it on a Chinese page)
    source: str
    as_of: str


def install_hints(framework: str) -> tuple[InstallHint, ...]:
    """The install commands for one framework (tensorflow, torch, jax), AMD first.

    >>> [h.platform for h in install_hints("jax")]
    ['amd', 'nvidia', 'cpu']
    """
    rows = [InstallHint(**r) for r in read_csv("framework_install.csv") if r["framework"] == framework]
    return tuple(sorted(rows, key=lambda h: PLATFORMS.index(h.platform)))


def this_platform(root: Path = Path("/")) -> str:
    """'amd' where the ROCm kernel driver's device exists, 'nvidia' where NVIDIA's driver is loaded, else 'cpu'."""
    if (root / "dev/kfd").exists():
        return "amd"
    if (root / "proc/driver/nvidia/version").exists():
        return "nvidia"
    return "cpu"
