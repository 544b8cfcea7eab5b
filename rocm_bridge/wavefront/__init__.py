"""Lanes of a wavefront, LDS banks and wave slots, headless: the models behind chapter 9's pictures.

- lanes: a CUDA warp has 32 lanes, a CDNA wavefront 64 (HIP's `warpSize`); a lane mask has one bit per lane, so a
  32-bit mask such as 0xffffffff names lanes 0-31 only and leaves lanes 32-63 of a wave64 out ("dark"); HIP's
  `__ballot` returns a 64-bit mask (HIP docs, "Warp cross-lane functions"), which a 32-bit variable truncates;
- LDS banks: on CDNA the LDS has 32 banks, each 4 bytes wide, 128 bytes per clock (ROCm Compute Profiler docs,
  "Local data share"; HIP docs, "Hardware implementation": "The LDS contains 32 banks, each 4-bytes wide ...
  Conflicts are resolved by serializing accesses"). 32 banks serve 32 four-byte lanes per pass, so a wave64 access
  takes at least two passes (lanes 0-31, then 32-63); within a pass, lanes that touch different words of one bank
  are served one after another (an n-way conflict), lanes reading the same word share it (broadcast);
- wave slots: rocm_bridge.compile.occupancy (the compile lab's model) on data/amdgpu_targets.csv.
"""

from __future__ import annotations

from dataclasses import dataclass

WARP = 32  # NVIDIA
WAVE64 = 64  # CDNA (MI100, MI200, MI300)
LDS_BANKS = 32
LDS_BANK_BYTES = 4


def mask_lanes(mask: int, wave: int = WAVE64) -> tuple[int, ...]:
    """The lanes a lane mask names (bit i = lane i) in a wave of `wave` lanes."""
    return tuple(lane for lane in range(wave) if mask >> lane & 1)


def dark_lanes(mask: int, wave: int = WAVE64) -> tuple[int, ...]:
    """The lanes a mask leaves out: 0xffffffff on a wave64 leaves lanes 32-63."""
    named = set(mask_lanes(mask, wave))
    return tuple(lane for lane in range(wave) if lane not in named)


def ballot(votes: tuple[bool, ...]) -> int:
    """`__ballot(pred)`: bit i set where lane i voted true (64 bits wide on a wave64)."""
    return sum(1 << lane for lane, vote in enumerate(votes) if vote)


def truncate(mask: int, bits: int = 32) -> int:
    """What a `bits`-wide variable keeps of a mask (`unsigned m = __ballot(p)` keeps the low 32 bits)."""
    return mask & ((1 << bits) - 1)


def shuffle_down_reach(offsets: tuple[int, ...], wave: int = WAVE64, target: int = 0) -> tuple[int, ...]:
    """The lanes whose values reach `target` in a tree reduction `v += __shfl_down(v, o)` over `offsets`.

    Offsets 16, 8, 4, 2, 1 (written for a 32-lane warp) gather lanes 0-31 into lane 0 and never lanes 32-63;
    32, 16, ..., 1 (from warpSize / 2) gather all 64.
    """
    holds = [{lane} for lane in range(wave)]  # the lanes each lane's running sum contains
    for off in offsets:
        holds = [holds[lane] | holds[lane + off] if lane + off < wave else holds[lane] for lane in range(wave)]
    return tuple(sorted(holds[target]))


def halving_offsets(width: int) -> tuple[int, ...]:
    """width / 2, width / 4, ..., 1: a reduction loop starting at `width / 2`."""
    out, o = [], width // 2
    while o >= 1:
        out.append(o)
        o //= 2
    return tuple(out)


@dataclass(frozen=True)
class LdsAccess:
    """One LDS instruction of a wave: lane i reads the 4-byte word i * stride."""

    stride: int
    wave: int
    bank: tuple[int, ...]  # per lane
    turn: tuple[int, ...]  # per lane: in which replay of its pass it is served (0 = first)
    degree: tuple[int, ...]  # per pass (32 lanes): the n of its n-way conflict (1 = none)

    @property
    def passes(self) -> int:
        """Bank cycles the whole wave needs: the sum of each pass's degree."""
        return sum(self.degree)

    def conflicting(self, lane: int) -> bool:
        return self.degree[lane // LDS_BANKS] > 1


def lds_access(stride_words: int, wave: int = WAVE64, banks: int = LDS_BANKS) -> LdsAccess:
    """Banks and replays of `x = lds[lane * stride_words]` (4-byte words).

    >>> [lds_access(s).degree[0] for s in (1, 2, 32, 33)]
    [1, 2, 32, 1]
    """
    if stride_words < 0:
        raise ValueError("stride_words must be >= 0")
    bank, turn, degree = [], [], []
    for start in range(0, wave, banks):
        words_in_bank: dict[int, list[int]] = {}
        for lane in range(start, min(start + banks, wave)):
            word = lane * stride_words
            b = word % banks
            seen = words_in_bank.setdefault(b, [])
            if word not in seen:  # the same word is broadcast, not replayed
                seen.append(word)
            bank.append(b)
            turn.append(seen.index(word))
        degree.append(max(len(v) for v in words_in_bank.values()))
    return LdsAccess(stride_words, wave, tuple(bank), tuple(turn), tuple(degree))
