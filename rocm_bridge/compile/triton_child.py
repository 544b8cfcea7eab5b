"""Run INSIDE the compile lab's sandbox (bubblewrap, no network, memory / CPU / time limits): import a Triton
kernel file and compile it for the requested targets with no GPU. Standalone on purpose (stdlib + triton only):
the server never imports or executes the user's Python.

    python -I triton_child.py /src/request.json      -> writes /src/out.json

request: {"source": "/src/kernel.py", "kernel": "" | name, "targets": [{"backend": "hip", "arch": "gfx942",
"warp": 64}, {"backend": "cuda", "arch": 90, "warp": 32}], "nvdisasm": path or ""}
The kernel file defines @triton.jit functions and SIGNATURE / CONSTEXPRS (dicts), NUM_WARPS, NUM_STAGES
(optional); with several kernels, KERNEL names the one to compile (or the request does).
"""

from __future__ import annotations

import importlib.util
import json
import os
import struct
import subprocess
import sys
import time
import traceback

STAGES = ("ttir", "ttgir", "llir", "amdgcn", "ptx")


def _cubin_info(cubin: bytes) -> dict[str, dict[str, int]]:
    """Per kernel of a cubin: registers per thread (EIATTR_REGCOUNT, 0x2f) and frame bytes per thread
    (EIATTR_FRAME_SIZE, 0x11: local memory, spills included) from the .nv.info section (format 4 = value)."""
    out: dict[str, dict[str, int]] = {}
    if cubin[:4] != b"\x7fELF" or cubin[4] != 2:
        return out
    shoff, = struct.unpack_from("<Q", cubin, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", cubin, 0x3A)
    secs = [struct.unpack_from("<IIQQQQIIQQ", cubin, shoff + i * shentsize) for i in range(shnum)]
    names = cubin[secs[shstrndx][4]:secs[shstrndx][4] + secs[shstrndx][5]]

    def name_of(sec) -> str:
        return names[sec[0]:names.index(b"\0", sec[0])].decode()

    symtab = next((s for s in secs if s[1] == 2), None)
    if symtab is None:
        return out
    strtab = secs[symtab[6]]
    strs = cubin[strtab[4]:strtab[4] + strtab[5]]
    syms = []
    for i in range(symtab[5] // 24):
        st_name, = struct.unpack_from("<I", cubin, symtab[4] + i * 24)
        syms.append(strs[st_name:strs.index(b"\0", st_name)].decode())
    for sec in secs:
        if name_of(sec) != ".nv.info":
            continue
        data, i = cubin[sec[4]:sec[4] + sec[5]], 0
        while i + 4 <= len(data):
            fmt, attr, size = data[i], data[i + 1], struct.unpack_from("<H", data, i + 2)[0]
            if fmt == 4:
                if attr in (0x2F, 0x11) and size == 8:
                    sym, val = struct.unpack_from("<II", data, i + 4)
                    if sym < len(syms):
                        out.setdefault(syms[sym], {})["regs" if attr == 0x2F else "frame_bytes"] = val
                i += 4 + size
            else:
                i += 4
    return out


def _load(path: str):
    spec = importlib.util.spec_from_file_location("user_kernel", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["user_kernel"] = mod
    spec.loader.exec_module(mod)
    return mod


def _pick(mod, wanted: str):
    from triton.runtime.jit import JITFunction
    kernels = {k: v for k, v in vars(mod).items() if isinstance(v, JITFunction)}
    name = wanted or getattr(mod, "KERNEL", "") or (next(iter(kernels)) if len(kernels) == 1 else "")
    if name not in kernels:
        raise ValueError(f"no @triton.jit function {name!r}; found {sorted(kernels)} (set KERNEL = 'name')")
    return name, kernels[name]


def _param(mod, key: str, name: str, default):
    v = getattr(mod, key, default)
    return v.get(name, default) if isinstance(v, dict) and name in v and isinstance(v[name], dict) else v


def _write(path: str, data: dict) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh)


def main(req_path: str) -> int:
    with open(req_path, encoding="utf-8") as fh:
        req = json.load(fh)
    out: dict[str, object] = {"results": []}
    try:
        t0 = time.perf_counter()
        import triton
        from triton.backends.compiler import GPUTarget
        from triton.compiler import ASTSource
        out["triton"] = triton.__version__
        out["import_s"] = round(time.perf_counter() - t0, 3)
        mod = _load(req["source"])
        name, fn = _pick(mod, req.get("kernel", ""))
        out["kernel"] = name
        signature = dict(mod.SIGNATURE)
        constexprs = dict(getattr(mod, "CONSTEXPRS", {}) or {})
        for k in constexprs:
            signature.setdefault(k, "constexpr")
        options = {"num_warps": int(getattr(mod, "NUM_WARPS", 4))}
        if hasattr(mod, "NUM_STAGES"):
            options["num_stages"] = int(mod.NUM_STAGES)
    except Exception as err:  # the user's file: report, do not crash
        out["error"] = f"{type(err).__name__}: {err}"
        out["trace"] = traceback.format_exc(limit=4)[-2000:]
        _write(req["out"], out)
        return 0
    for tgt in req["targets"]:
        res: dict[str, object] = {"backend": tgt["backend"], "arch": tgt["arch"], "warp": tgt["warp"]}
        t0 = time.perf_counter()
        try:
            src = ASTSource(fn=fn, signature=signature, constexprs={(fn.arg_names.index(k),): v
                                                                    for k, v in constexprs.items()})
            k = triton.compile(src, target=GPUTarget(tgt["backend"], tgt["arch"], tgt["warp"]), options=options)
            res["asm"] = {s: k.asm[s] for s in STAGES if isinstance(k.asm.get(s), str)}
            md = k.metadata
            res["metadata"] = {x: getattr(md, x) for x in ("name", "shared", "num_warps", "num_stages",
                                                            "num_ctas", "warp_size") if hasattr(md, x)}
            if isinstance(k.asm.get("cubin"), bytes):
                res["cubin"] = _cubin_info(k.asm["cubin"])
                nvdisasm = req.get("nvdisasm", "")
                if nvdisasm:
                    cub = os.path.join(os.path.dirname(req["out"]), f"k{tgt['arch']}.cubin")
                    with open(cub, "wb") as fh:
                        fh.write(k.asm["cubin"])
                    p = subprocess.run([nvdisasm, "-c", cub], capture_output=True, text=True, timeout=60)
                    res["asm"]["sass"] = p.stdout if p.returncode == 0 else ""
            res["ok"] = True
        except Exception as err:
            res["ok"] = False
            res["error"] = f"{type(err).__name__}: {str(err)[-1500:]}"
        res["seconds"] = round(time.perf_counter() - t0, 3)
        out["results"].append(res)
    _write(req["out"], out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
