"""Build files of a CUDA project -> ROCm: CMake (CUDA language, CUDA::* targets) and Makefiles (nvcc flags).

HIPIFY translates sources only. In tree mode this module converts the build files next to them, table-driven:

* CMake (CMakeLists.txt, *.cmake): the CUDA language becomes CMake's HIP language (`project(... LANGUAGES HIP)`,
  `enable_language(HIP)`, CMake 3.21 or later), CUDA_ARCHITECTURES become HIP_ARCHITECTURES with gfx targets,
  `find_package(CUDAToolkit)` becomes `find_package(hip)` plus one `find_package` per ROCm library the
  `CUDA::*` targets map to (data/hipify_cmake_targets.csv, from ROCm's "Using CMake" page), and literal `.cu`
  sources get `LANGUAGE HIP` (the ROCm docs' way to build `.cu` files as HIP).
* Makefiles (Makefile, GNUmakefile, *.mk): nvcc -> hipcc, `-arch=sm_XX` / `-gencode ...` -> `--offload-arch=`,
  nvcc-only options -> their hipcc (clang) spelling or removed, -lcublas ... -> -lhipblas ...

Anything that needs a person's judgement (the GPU architecture chosen, legacy FindCUDA, separable compilation,
NVTX, CUDA install paths ...) is left in place or converted with a TODO entry in the result, never silently.
"""

from __future__ import annotations

import csv
import re
from functools import lru_cache
from pathlib import Path, PurePosixPath

from rocm_bridge.hipify.records import record

DATA = Path(__file__).resolve().parent.parent.parent / "data" / "hipify_cmake_targets.csv"
DEFAULT_ARCH = "gfx90a"
HIP_CMAKE_MIN = (3, 21)  # ROCm docs: "HIP language support requires 3.21"


@record
class Change:
    line: int
    before: str
    after: str
    key: str  # hipify.build.change.<what>


@record
class Todo:
    line: int
    excerpt: str
    key: str  # hipify.build.todo.<why>


@record
class BuildResult:
    path: str
    kind: str  # "cmake" | "make"
    source: str
    output: str
    changes: list[Change]
    todos: list[Todo]


def build_kind(name: str) -> str | None:
    """'cmake' for CMakeLists.txt / *.cmake, 'make' for Makefile / GNUmakefile / *.mk / *.make, else None."""
    base = PurePosixPath(name.replace("\\", "/")).name
    lower = base.lower()
    if lower == "cmakelists.txt" or lower.endswith(".cmake"):
        return "cmake"
    if base in ("Makefile", "makefile", "GNUmakefile") or lower.endswith((".mk", ".make")):
        return "make"
    return None


@record
class Target:
    cuda: str
    kind: str
    hip_package: str
    hip_target: str
    roc_package: str
    roc_target: str
    person: str  # "" | "check" | "person"
    source: str

    def pick(self, roc: bool) -> tuple[str, str]:
        if roc and self.roc_target:
            return self.roc_package, self.roc_target
        return self.hip_package, self.hip_target


@lru_cache(maxsize=1)
def targets() -> dict[str, Target]:
    with DATA.open(newline="", encoding="utf-8") as fh:
        return {row["cuda"]: Target(**row) for row in csv.DictReader(fh)}


def convert(path: str, text: str, roc: bool = False, arch: str = DEFAULT_ARCH) -> BuildResult:
    kind = build_kind(path)
    if kind == "cmake":
        return _Cmake(path, text, roc, arch).run()
    if kind == "make":
        return _make(path, text, roc, arch)
    raise ValueError(f"not a build file: {path}")


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _excerpt(text: str, pos: int) -> str:
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return text[start:end if end >= 0 else len(text)].strip()[:160]


# ---------------------------------------------------------------------------------------------------- nvcc flags

# nvcc option -> hipcc spelling ("" = drop), with the change / todo key. hipcc drives clang: clang's HIP options
# (--offload-arch, -fgpu-rdc, -ffast-math, -fgpu-default-stream) per the clang and HIP documentation.
NVCC_FLAGS: dict[str, tuple[str, str]] = {
    "--use_fast_math": ("-ffast-math", "flag"), "-use_fast_math": ("-ffast-math", "flag"),
    "--expt-relaxed-constexpr": ("", "flag_dropped"), "-expt-relaxed-constexpr": ("", "flag_dropped"),
    "--expt-extended-lambda": ("", "flag_dropped"), "-expt-extended-lambda": ("", "flag_dropped"),
    "--extended-lambda": ("", "flag_dropped"), "-extended-lambda": ("", "flag_dropped"),
    "-rdc=true": ("-fgpu-rdc", "rdc"), "--relocatable-device-code=true": ("-fgpu-rdc", "rdc"),
    "-dc": ("-fgpu-rdc -c", "rdc"), "--device-c": ("-fgpu-rdc -c", "rdc"),
    "-rdc=false": ("", "flag_dropped"), "--relocatable-device-code=false": ("", "flag_dropped"),
    "-lineinfo": ("-gline-tables-only", "flag"), "--generate-line-info": ("-gline-tables-only", "flag"),
    "--default-stream=per-thread": ("-fgpu-default-stream=per-thread", "flag"),
    "-default-stream=per-thread": ("-fgpu-default-stream=per-thread", "flag"),
    "--keep": ("-save-temps", "flag"), "-keep": ("-save-temps", "flag"),
}
# nvcc options with no hipcc counterpart: removed and reported (value taken from the next word when separate)
NVCC_DROP_TODO = ("-Xptxas", "--ptxas-options", "-maxrregcount", "--maxrregcount", "-ccbin", "--compiler-bindir",
                  "-cudart", "--cudart", "-G", "--device-debug", "-Xnvlink", "--nvlink-options", "-res-usage",
                  "--resource-usage", "-src-in-ptx", "--source-in-ptx", "-Wno-deprecated-gpu-targets",
                  "--Wno-deprecated-gpu-targets", "-Werror=cross-execution-space-call", "-code", "--gpu-code",
                  "-ptx", "--ptx", "-cubin", "--cubin", "-fatbin", "--fatbin")
TAKES_VALUE = ("-Xptxas", "--ptxas-options", "-maxrregcount", "--maxrregcount", "-ccbin", "--compiler-bindir",
               "-cudart", "--cudart", "-Xnvlink", "--nvlink-options", "-code", "--gpu-code")
LIBS = {"-lcudart": "", "-lcudart_static": "", "-lcuda": "", "-lcudadevrt": "", "-lcublas": "-lhipblas",
        "-lcublasLt": "-lhipblaslt", "-lcufft": "-lhipfft", "-lcurand": "-lhiprand", "-lcusparse": "-lhipsparse",
        "-lcusolver": "-lhipsolver", "-lcudnn": "-lMIOpen", "-lnccl": "-lrccl", "-lnvrtc": ""}
ROC_LIBS = {"-lcublas": "-lrocblas", "-lcurand": "-lrocrand", "-lcusparse": "-lrocsparse",
            "-lcusolver": "-lrocsolver"}
LIBS_TODO = ("-lnvToolsExt", "-lnvtx3", "-lcupti", "-lnvidia-ml", "-lnppc", "-lnpps", "-lnppi", "-lOpenCL")

ARCH_WORD = re.compile(
    r"^(?:-arch|--gpu-architecture|-gencode|--generate-code)(?:=(?P<val>\S+))?$")
SM = re.compile(r"(?:sm|compute)_(\d+)")


def convert_flags(words: list[str], roc: bool, arch: str) -> tuple[list[str], list[tuple[str, str, str]]]:
    """nvcc command words -> hipcc words; returns (words, [(before, after, key)]) (key starts with 'todo.' for
    things a person must look at)."""
    out: list[str] = []
    notes: list[tuple[str, str, str]] = []
    arch_done = False
    i = 0
    while i < len(words):
        w = words[i]
        m = ARCH_WORD.match(w)
        if m:
            val = m["val"]
            if val is None and i + 1 < len(words):
                i += 1
                val = words[i]
            sms = SM.findall(val or "")
            if not arch_done:
                out.append(f"--offload-arch={arch}")
                arch_done = True
                notes.append((f"{w} {val}" if m["val"] is None else w, f"--offload-arch={arch}", "todo.arch"
                              if sms else "todo.arch"))
            else:
                notes.append((w if m["val"] else f"{w} {val}", "", "arch_merged"))
            i += 1
            continue
        if w == "-x" and i + 1 < len(words) and words[i + 1] == "cu":
            out.extend(["-x", "hip"])
            notes.append(("-x cu", "-x hip", "flag"))
            i += 2
            continue
        if w == "nvcc" or w.endswith("/nvcc"):
            out.append("hipcc")
            notes.append((w, "hipcc", "compiler" if w == "nvcc" else "todo.path"))
        elif w in NVCC_FLAGS:
            new, key = NVCC_FLAGS[w]
            if new:
                out.extend(new.split())
            notes.append((w, new, key))
        elif w.split("=", 1)[0] in NVCC_DROP_TODO:
            name = w.split("=", 1)[0]
            shown = w
            if "=" not in w and name in TAKES_VALUE and i + 1 < len(words):
                i += 1
                shown = f"{w} {words[i]}"
            notes.append((shown, "", "todo.nvcc_only"))
        elif w in ("-Xcompiler", "--compiler-options") and i + 1 < len(words):
            i += 1
            host = [x for x in words[i].strip("\"'").split(",") if x]
            out.extend(host)
            notes.append((f"{w} {words[i]}", " ".join(host), "xcompiler"))
        elif w.startswith(("-Xcompiler=", "--compiler-options=")):
            host = [x for x in w.split("=", 1)[1].strip("\"'").split(",") if x]
            out.extend(host)
            notes.append((w, " ".join(host), "xcompiler"))
        elif w in LIBS or w in LIBS_TODO:
            if w in LIBS_TODO:
                out.append(w)
                notes.append((w, w, "todo.library"))
            else:
                new = (ROC_LIBS.get(w) if roc else None) or LIBS[w]
                if new:
                    out.append(new)
                notes.append((w, new, "library"))
        elif "/usr/local/cuda" in w or re.search(r"\$[({]CUDA_(?:PATH|HOME|ROOT|TOOLKIT_ROOT_DIR)[)}]", w):
            out.append(w)
            notes.append((w, w, "todo.path"))
        else:
            out.append(w)
        i += 1
    return out, notes


# -------------------------------------------------------------------------------------------------- Makefiles

_MAKE_WORD = re.compile(r"\S+")


def _make(path: str, text: str, roc: bool, arch: str) -> BuildResult:
    changes: list[Change] = []
    todos: list[Todo] = []
    out_lines = []
    for n, line in enumerate(text.splitlines(keepends=True), 1):
        body = line.rstrip("\r\n")
        end = line[len(body):]
        code, hash_, comment = _split_make_comment(body)
        if not code.strip():
            out_lines.append(line)
            continue
        lead = code[: len(code) - len(code.lstrip())]
        words = code.split()
        new_words, notes = convert_flags(words, roc, arch)
        # keep the variable / rule head intact ("NVCC ?= nvcc", "CFLAGS := ...")
        if not notes:
            out_lines.append(line)
            continue
        new_code = lead + " ".join(new_words)
        if code.endswith((" ", "\t")) and hash_:
            new_code += " "
        out_lines.append(new_code + hash_ + comment + end)
        for before, after, key in notes:
            if key.startswith("todo."):
                todos.append(Todo(n, before if key != "todo.arch" else f"{before} -> {after}", key.removeprefix("todo.")))
            if before != after:
                changes.append(Change(n, before, after, key.removeprefix("todo.")))
    return BuildResult(path, "make", text, "".join(out_lines), changes, todos)


def _split_make_comment(line: str) -> tuple[str, str, str]:
    i = 0
    while True:
        i = line.find("#", i)
        if i < 0:
            return line, "", ""
        if i > 0 and line[i - 1] == "\\":
            i += 1
            continue
        return line[:i], "#", line[i + 1:]


# ------------------------------------------------------------------------------------------------------ CMake

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
RENAMES = {
    "CMAKE_CUDA_STANDARD": "CMAKE_HIP_STANDARD", "CMAKE_CUDA_STANDARD_REQUIRED": "CMAKE_HIP_STANDARD_REQUIRED",
    "CMAKE_CUDA_EXTENSIONS": "CMAKE_HIP_EXTENSIONS", "CMAKE_CUDA_FLAGS": "CMAKE_HIP_FLAGS",
    "CMAKE_CUDA_FLAGS_DEBUG": "CMAKE_HIP_FLAGS_DEBUG", "CMAKE_CUDA_FLAGS_RELEASE": "CMAKE_HIP_FLAGS_RELEASE",
    "CMAKE_CUDA_FLAGS_RELWITHDEBINFO": "CMAKE_HIP_FLAGS_RELWITHDEBINFO",
    "CMAKE_CUDA_FLAGS_MINSIZEREL": "CMAKE_HIP_FLAGS_MINSIZEREL",
    "CUDA_STANDARD": "HIP_STANDARD", "CUDA_STANDARD_REQUIRED": "HIP_STANDARD_REQUIRED",
    "CUDA_EXTENSIONS": "HIP_EXTENSIONS", "CMAKE_CUDA_COMPILER": "CMAKE_HIP_COMPILER",
}
RENAME_TODO = {"CMAKE_CUDA_COMPILER": "compiler_path"}
TODO_WORDS = {
    "CUDA_SEPARABLE_COMPILATION": "separable", "CMAKE_CUDA_SEPARABLE_COMPILATION": "separable",
    "CUDA_RESOLVE_DEVICE_SYMBOLS": "separable", "CMAKE_CUDA_RUNTIME_LIBRARY": "runtime_library",
    "CUDA_RUNTIME_LIBRARY": "runtime_library", "cuda_add_executable": "findcuda", "cuda_add_library": "findcuda",
    "cuda_add_cublas_to_target": "findcuda", "cuda_compile": "findcuda", "CUDA_NVCC_FLAGS": "findcuda",
    "CUDA_INCLUDE_DIRS": "findcuda", "CUDA_LIBRARIES": "findcuda", "CUDA_CUBLAS_LIBRARIES": "findcuda",
    "CUDA_TOOLKIT_ROOT_DIR": "path", "CUDAToolkit_INCLUDE_DIRS": "path", "CUDAToolkit_LIBRARY_DIR": "path",
    "CUDAToolkit_ROOT": "path", "CUDAToolkit_BIN_DIR": "path", "CUDAToolkit_NVCC_EXECUTABLE": "path",
    "CUDAToolkit_VERSION": "version", "CMAKE_CUDA_COMPILER_VERSION": "version",
}
LANG_CMDS = ("enable_language", "check_language")
FLAG_CMDS = ("target_compile_options", "add_compile_options", "target_link_options", "add_link_options")
ARCH_VARS = {"CMAKE_CUDA_ARCHITECTURES": "CMAKE_HIP_ARCHITECTURES", "CUDA_ARCHITECTURES": "HIP_ARCHITECTURES"}
PACKAGES = {"cudatoolkit": "hip", "cudnn": "CUDNN", "nccl": "NCCL", "thrust": "Thrust", "cub": "CUB"}


@record
class _Arg:
    start: int
    end: int
    text: str


class _Cmake:
    def __init__(self, path: str, text: str, roc: bool, arch: str) -> None:
        self.path, self.text, self.roc, self.arch = path, text, roc, arch
        self.edits: list[tuple[int, int, str]] = []
        self.changes: list[Change] = []
        self.todos: list[Todo] = []
        self.packages: list[str] = []  # ROCm packages the targets need, in order of first use
        self.find_at: int | None = None  # end of find_package(CUDAToolkit ...)
        self.edited: set[int] = set()  # argument starts already rewritten (one rewrite per argument)

    def edit(self, start: int, end: int, new: str, key: str) -> None:
        self.edited.add(start)
        old = self.text[start:end]
        self.edits.append((start, end, new))
        self.changes.append(Change(_line_of(self.text, start), old, new, key))

    def todo(self, pos: int, key: str) -> None:
        self.todos.append(Todo(_line_of(self.text, pos), _excerpt(self.text, pos), key))

    def run(self) -> BuildResult:
        for name, start, args in self.commands():
            self.command(name.lower(), start, args)
        if self.find_at is not None and self.packages:
            indent = _indent_of(self.text, self.find_at)
            extra = "".join(f"\n{indent}find_package({p} REQUIRED)" for p in self.packages if p != "hip")
            if extra:
                self.edits.append((self.find_at, self.find_at, extra))
                self.changes.append(Change(_line_of(self.text, self.find_at), "", extra.strip(), "find_package"))
        elif self.packages and self.find_at is None:
            self.todo(0, "no_find_package")
        out = self.text
        for start, end, new in sorted(self.edits, key=lambda e: (e[0], e[1]), reverse=True):
            out = out[:start] + new + out[end:]
        self.changes.sort(key=lambda c: c.line)
        self.todos.sort(key=lambda t: t.line)
        return BuildResult(self.path, "cmake", self.text, out, self.changes, self.todos)

    # --- scanning: commands outside comments, arguments with quotes and nested parentheses

    def commands(self):
        text, n, i = self.text, len(self.text), 0
        while i < n:
            c = text[i]
            if c == "#":
                i = self._skip_comment(i)
                continue
            m = _IDENT.match(text, i) if (c.isalpha() or c == "_") and (i == 0 or not _word(text[i - 1])) else None
            if not m:
                i += 1
                continue
            j = m.end()
            while j < n and text[j] in " \t":
                j += 1
            if j < n and text[j] == "(":
                args, close = self._args(j + 1)
                yield m.group(0), i, args
                i = close + 1
            else:
                i = m.end()

    def _skip_comment(self, i: int) -> int:
        text = self.text
        b = re.match(r"#\[(=*)\[", text[i:i + 20])
        if b:
            end = text.find(f"]{b.group(1)}]", i)
            return len(text) if end < 0 else end + len(b.group(1)) + 2
        end = text.find("\n", i)
        return len(text) if end < 0 else end

    def _args(self, i: int) -> tuple[list[_Arg], int]:
        text, n = self.text, len(self.text)
        args: list[_Arg] = []
        depth = 0
        while i < n:
            c = text[i]
            if c in " \t\r\n":
                i += 1
            elif c == "#":
                i = self._skip_comment(i)
            elif c == ")" and depth == 0:
                return args, i
            elif c in "()":
                depth += 1 if c == "(" else -1
                i += 1
            elif c == '"':
                j = i + 1
                while j < n and text[j] != '"':
                    j += 2 if text[j] == "\\" else 1
                args.append(_Arg(i, min(j + 1, n), text[i:j + 1]))
                i = j + 1
            else:
                j = i
                while j < n and text[j] not in " \t\r\n()#\"":
                    j += 1
                args.append(_Arg(i, j, text[i:j]))
                i = j
        return args, n

    # --- rewrites

    def command(self, name: str, start: int, args: list[_Arg]) -> None:
        if name == "message":  # text for people, not build logic
            return
        if name == "cmake_minimum_required":
            self.minimum(args)
        elif name == "project":
            self.languages(args[1:], positional=True)
        elif name in LANG_CMDS:
            self.languages(args, positional=True)
        elif name == "find_package" and args:
            self.find_package(start, args)
            return
        elif name in ("add_executable", "add_library", "cuda_add_executable", "cuda_add_library"):
            self.sources(start, args)
        elif name in FLAG_CMDS:
            self.flags(args)
        elif name == "set" and args and args[0].text.strip('"').startswith("CMAKE_CUDA_FLAGS") or (
                name == "string" and len(args) > 2 and args[1].text == "CMAKE_CUDA_FLAGS"):
            self.flags(args[1:] if name == "set" else args[2:])
        if name in ("find_package",):
            return
        self.words(name, args)

    def minimum(self, args: list[_Arg]) -> None:
        for k, a in enumerate(args):
            if a.text == "VERSION" and k + 1 < len(args):
                v = args[k + 1]
                low = v.text.split("...")[0]
                try:
                    parts = tuple(int(p) for p in low.split(".")[:2])
                except ValueError:
                    return
                if parts < HIP_CMAKE_MIN:
                    rest = v.text[len(low):]
                    self.edit(v.start, v.end, "3.21" + rest, "cmake_version")

    def languages(self, args: list[_Arg], positional: bool) -> None:
        texts = [a.text for a in args]
        for a in args:
            if a.text == "CUDA":
                if "HIP" in texts:
                    self.edit(a.start, a.end, "", "language")
                else:
                    self.edit(a.start, a.end, "HIP", "language")

    def find_package(self, start: int, args: list[_Arg]) -> None:
        pkg = args[0].text
        low = pkg.lower()
        if low == "cuda":
            self.todo(start, "findcuda")
            return
        if low not in PACKAGES:
            return
        if low == "cudatoolkit":
            # find_package(CUDAToolkit 11.0 REQUIRED COMPONENTS ...) -> find_package(hip REQUIRED)
            self.edit(args[0].start, args[-1].end, "hip REQUIRED", "find_package")
            self.find_at = self._close_paren(args[-1].end) + 1
            return
        target = targets()[PACKAGES[low]]
        package, _ = target.pick(self.roc)
        keep = [a.text for a in args[1:] if a.text in ("REQUIRED", "QUIET", "CONFIG")]
        self.edit(args[0].start, args[-1].end, " ".join([package, *keep]), "find_package")

    def _close_paren(self, pos: int) -> int:
        close = self.text.find(")", pos)
        return close if close >= 0 else len(self.text) - 1

    def sources(self, start: int, args: list[_Arg]) -> None:
        cu = [a.text for a in args[1:] if a.text.strip('"').endswith(".cu")]
        if any("${" in a.text for a in args[1:]):
            self.todo(start, "sources_variable")
        if cu:
            close = self._close_paren(args[-1].end)
            indent = _indent_of(self.text, start)
            line = f"\n{indent}set_source_files_properties({' '.join(cu)} PROPERTIES LANGUAGE HIP)"
            self.edits.append((close + 1, close + 1, line))
            self.changes.append(Change(_line_of(self.text, start), "", line.strip(), "cu_language"))

    def flags(self, args: list[_Arg]) -> None:
        for a in args:
            inner = a.text.strip('"')
            if not inner or "$<" in inner or inner.isupper():
                continue
            words = inner.split()
            new, notes = convert_flags(words, self.roc, self.arch)
            if notes and new != words:
                text = _rename_refs(" ".join(new))
                self.edit(a.start, a.end, f'"{text}"' if a.text.startswith('"') else text, "flag")
            for _before, _after, key in notes:
                if key.startswith("todo."):
                    self.todo(a.start, key.removeprefix("todo."))

    def words(self, name: str, args: list[_Arg]) -> None:
        for k, a in enumerate(args):
            t = a.text
            if a.start in self.edited:
                continue
            if t in ARCH_VARS:
                self.edit(a.start, a.end, ARCH_VARS[t], "architectures")
                values = []
                for b in args[k + 1:]:
                    if b.text in ("CACHE", "PARENT_SCOPE", "PROPERTIES") or b.text.isupper() and not b.text.isdigit():
                        break
                    values.append(b)
                if values:
                    self.edit(values[0].start, values[-1].end, f'"{self.arch}"' if values[0].text.startswith('"')
                              else self.arch, "architectures")
                    self.todos.append(Todo(_line_of(self.text, a.start),
                                           f"{' '.join(v.text for v in values)} -> {self.arch}", "arch"))
                continue
            if t in RENAMES:
                self.edit(a.start, a.end, RENAMES[t], "variable")
                if t in RENAME_TODO:
                    self.todo(a.start, RENAME_TODO[t])
                continue
            if "CUDA::" in t or t in ("CUDNN::cudnn", "Thrust::Thrust", "CUB::CUB"):
                self.target(a)
                continue
            if "COMPILE_LANGUAGE:CUDA" in t or "COMPILE_LANG_AND_ID:CUDA" in t or "LINK_LANGUAGE:CUDA" in t:
                new = re.sub(r"(COMPILE_LANGUAGE|COMPILE_LANG_AND_ID|LINK_LANGUAGE):CUDA\b", r"\1:HIP", t)
                if name in FLAG_CMDS:  # $<$<COMPILE_LANGUAGE:CUDA>:--use_fast_math> : the flags inside too
                    m = re.match(r"^(.*:)([^<>:]*)(>+)$", new)
                    if m and m.group(2).strip():
                        words = m.group(2).replace(";", " ").split()
                        conv, notes = convert_flags(words, self.roc, self.arch)
                        new = m.group(1) + ";".join(conv) + m.group(3) if conv != words else new
                        for _before, _after, key in notes:
                            if key.startswith("todo."):
                                self.todo(a.start, key.removeprefix("todo."))
                self.edit(a.start, a.end, new, "language")
                continue
            if "${" in t:  # ${CMAKE_CUDA_FLAGS} inside an argument
                new = _rename_refs(t)
                if new != t:
                    self.edit(a.start, a.end, new, "variable")
                    continue
            for word in set(_IDENT.findall(t)):
                if word in TODO_WORDS:
                    self.todo(a.start, TODO_WORDS[word])
                    break

    def target(self, a: _Arg) -> None:
        table = targets()

        def swap(m: re.Match) -> str:
            target = table.get(m.group(0))
            if target is None or target.person == "person" or not target.hip_target:
                self.todo(a.start, "target")
                return m.group(0)
            package, name = target.pick(self.roc)
            if package not in self.packages:
                self.packages.append(package)
            if target.person == "check":
                self.todo(a.start, "target_check")
            return name

        new = re.sub(r"(?:CUDA|CUDNN|Thrust|CUB)::\w+", swap, a.text)
        if new != a.text:
            self.edit(a.start, a.end, new, "target")


def _rename_refs(text: str) -> str:
    """${CMAKE_CUDA_FLAGS} -> ${CMAKE_HIP_FLAGS} inside an argument."""
    return re.sub(r"\$\{(\w+)\}", lambda m: "${" + RENAMES.get(m.group(1), m.group(1)) + "}", text)


def _word(c: str) -> bool:
    return c.isalnum() or c in "_$"


def _indent_of(text: str, pos: int) -> str:
    start = text.rfind("\n", 0, pos) + 1
    line = text[start:pos]
    return line[: len(line) - len(line.lstrip())]
