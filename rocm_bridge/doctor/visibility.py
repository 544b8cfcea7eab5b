"""What a process will see through the GPU visibility variables, with the runtimes' real parsing rules.

ROCr (ROCR_VISIBLE_DEVICES) filters first, HIP (HIP_VISIBLE_DEVICES, else CUDA_VISIBLE_DEVICES) then indexes the
GPUs ROCr kept. Sources (data/env_checks.csv rows visible_devices_rocr, visible_devices_hip):

- ROCr, github.com/ROCm/ROCR-Runtime runtime/hsa-runtime/core/runtime/amd_filter_device.cpp: set but empty -> zero
  GPUs; tokens are trimmed, only the first <GPU count> tokens are read; a UUID token ('GPU-...') must match one GPU;
  an index is strtol(token, base 0) with nothing left over and 0 <= index < count; a repeated index ends the list;
  the first bad token ends the list (the GPUs before it stay).
- HIP, github.com/ROCm/clr rocclr/device/rocm/rocdevice.cpp (Device::init): HIP_VISIBLE_DEVICES when non-empty, else
  CUDA_VISIBLE_DEVICES; empty means no filter; an entry must be exactly a decimal index (atoi round-trips) in range or
  a UUID; the first invalid entry drops it and everything after it; a repeated index is skipped.
- CUDA, CUDA C++ Programming Guide (CUDA Environment Variables): an invalid index keeps only the devices listed before
  it; an empty value hides every device.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass
class Step:
    var: str
    value: str
    pool: int  # GPUs this variable indexes
    kept: list[str] = field(default_factory=list)  # labels of the kept GPUs ("2" = position in the pool)
    dropped: list[str] = field(default_factory=list)  # entries ignored, in order
    reason: str = ""  # empty | not_index | out_of_range | repeated | uuid_unknown | beyond_count | negative


@dataclass
class Visibility:
    total: int
    steps: list[Step] = field(default_factory=list)
    visible: int = 0
    ignored: list[str] = field(default_factory=list)  # variables set but not read by this path
    physical: list[int] = field(default_factory=list)  # machine (KFD) index of each GPU the process sees, in order

    @property
    def filtered(self) -> bool:
        return bool(self.steps)

    def evidence(self) -> list[str]:
        lines = [f"GPUs on the machine (KFD topology / driver): {self.total}"]
        for s in self.steps:
            how = f"keeps {', '.join(s.kept) or 'none'} of {s.pool}"
            if s.reason == "empty":
                how += " (set but empty: no GPU)"
            if s.dropped:
                how += f"; drops {', '.join(repr(d) for d in s.dropped)} ({s.reason})"
            lines.append(f"{s.var}={s.value!r}: {how}")
        lines += [f"{v} is set but not read by this runtime path" for v in self.ignored]
        lines.append(f"=> this process sees {self.visible} GPU(s)")
        return lines


def _strtol0(token: str) -> int | None:
    """C strtol(token, &end, 0) with *end == 0: decimal, 0x hex, leading-0 octal, optional sign."""
    t = token.strip()
    if re.fullmatch(r"[+-]?0[xX][0-9a-fA-F]+", t):
        return int(t, 16)
    if re.fullmatch(r"[+-]?0[0-7]+", t):
        return int(t, 8)
    if re.fullmatch(r"[+-]?\d+", t):
        return int(t, 10)
    return None


def rocr_filter(value: str, pool: int, uuids: list[str]) -> Step:
    step = Step("ROCR_VISIBLE_DEVICES", value, pool)
    if value == "":
        step.reason = "empty"
        return step
    tokens = [t.strip().upper() for t in value.split(",")]
    seen: list[int] = []
    for i, token in enumerate(tokens):
        if i >= pool:
            step.dropped, step.reason = tokens[i:], "beyond_count"
            break
        if token.startswith("G"):
            matches = [k for k, u in enumerate(uuids) if u.upper().startswith(token)] if uuids else None
            if matches is None:  # UUIDs unknown here: assume it names the next GPU
                index = next(k for k in range(pool) if k not in seen)
            elif len(matches) != 1:
                step.dropped, step.reason = tokens[i:], "uuid_unknown"
                break
            else:
                index = matches[0]
        else:
            index = _strtol0(token)
            if index is None:
                step.dropped, step.reason = tokens[i:], "not_index"
                break
        if not 0 <= index < pool:
            step.dropped, step.reason = tokens[i:], "out_of_range"
            break
        if index in seen:
            step.dropped, step.reason = tokens[i:], "repeated"
            break
        seen.append(index)
    step.kept = [str(k) for k in seen]
    return step


def hip_filter(var: str, value: str, pool: int, uuids: list[str]) -> Step:
    step = Step(var, value, pool)
    seen: list[int] = []
    tokens = value.split(",")
    if value.endswith(","):
        tokens = tokens[:-1]
    for i, token in enumerate(tokens):
        if "GPU-" in token:
            if not uuids:  # UUIDs unknown here: assume it names the next GPU
                index = next((k for k in range(pool) if k not in seen), pool)
                token = str(index)
            else:
                hits = [k for k, u in enumerate(uuids) if token in u]
                token = str(hits[0]) if hits else token
        index = int(token) if re.fullmatch(r"-?\d+", token) else None
        if index is None or str(index) != token or index < 0 or index >= pool:
            step.dropped = tokens[i:]
            step.reason = ("negative" if index is not None and index < 0 else
                           "out_of_range" if index is not None and str(index) == token else "not_index")
            break
        if index in seen:
            step.dropped.append(token)
            step.reason = step.reason or "repeated"
            continue
        seen.append(index)
    step.kept = [str(k) for k in seen]
    return step


def amd_visibility(env: dict[str, str], total: int, uuids: list[str], runtime_uuids: list[str] | None = None
                   ) -> Visibility:
    """uuids: every GPU's UUID in KFD order (sysfs unique_id), [] when unknown; runtime_uuids: what rocminfo listed
    (already filtered by ROCR_VISIBLE_DEVICES), used for HIP's UUID entries when sysfs has none."""
    vis = Visibility(total)
    pool = total
    phys = list(range(total))
    known = [u for u in uuids if u and u != "GPU-XX"]
    uuids = uuids if len(known) == len(uuids) == total else []
    if "ROCR_VISIBLE_DEVICES" in env:
        step = rocr_filter(env["ROCR_VISIBLE_DEVICES"], pool, uuids)
        vis.steps.append(step)
        pool = len(step.kept)
        phys = [phys[int(k)] for k in step.kept]
        uuids = [uuids[int(k)] for k in step.kept] if uuids else (runtime_uuids or [])
    elif not uuids:
        uuids = runtime_uuids or []
    hip = env.get("HIP_VISIBLE_DEVICES", "")
    var, value = ("HIP_VISIBLE_DEVICES", hip) if hip else ("CUDA_VISIBLE_DEVICES", env.get("CUDA_VISIBLE_DEVICES", ""))
    if hip and env.get("CUDA_VISIBLE_DEVICES"):
        vis.ignored.append("CUDA_VISIBLE_DEVICES")
    if value:
        step = hip_filter(var, value, pool, uuids)
        vis.steps.append(step)
        pool = len(step.kept)
        phys = [phys[int(k)] for k in step.kept]
    if "GPU_DEVICE_ORDINAL" in env:
        vis.ignored.append("GPU_DEVICE_ORDINAL")
    vis.visible = pool
    vis.physical = phys
    return vis


def cuda_visibility(env: dict[str, str], total: int) -> Visibility:
    vis = Visibility(total, visible=total)
    if "CUDA_VISIBLE_DEVICES" not in env:
        return vis
    value = env["CUDA_VISIBLE_DEVICES"]
    step = Step("CUDA_VISIBLE_DEVICES", value, total)
    if value.strip() == "":
        step.reason = "empty"
    else:
        seen: list[int] = []
        tokens = [t.strip() for t in value.split(",")]
        for i, token in enumerate(tokens):
            if token.upper().startswith(("GPU-", "MIG-")):
                seen.append(len(seen))  # UUIDs: not resolvable from here, counted as one device each
                continue
            index = int(token) if re.fullmatch(r"\d+", token) else None
            if index is None or index >= total:
                step.dropped = tokens[i:]
                step.reason = "out_of_range" if index is not None else "not_index"
                break
            if index not in seen:
                seen.append(index)
        step.kept = [str(k) for k in seen]
    vis.steps.append(step)
    vis.visible = len(step.kept)
    return vis
