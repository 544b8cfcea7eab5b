"""Argument rewrites: calls whose HIP / ROCm counterpart takes its arguments differently.

The rules are data: for each CUDA name, the target it applies to and a list of operations on the call's
arguments, numbered as in the CUDA call (zero-based), in HIPIFY's own vocabulary (src/HipifyAction.cpp,
FuncArgCasts, read at ROCm/HIPIFY f0621efc, 2026-12-01):

    ("wrap", i, "reinterpret_cast<const void*>")   argument i becomes reinterpret_cast<const void*>(arg)
    ("insert", i, "rocsparse_operation_none")      a constant goes before argument i (after the last one if i
                                                   is past the end)
    ("replace", i, "rocsparse_solve_policy_auto")  argument i is replaced by a constant
    ("remove", i, "")                              argument i is dropped
    ("copy", i, "j")                               argument i is copied before argument j
    ("datatype", i, "rocsparse")                   argument i, when it is a rocBLAS data type constant (the table's
                                                   --roc name of CUDA_R_32F ...), becomes rocSPARSE's own constant
    ("declare", i, "bool hipify_use_mask")         an argument the CUDA call does not have: a variable of that type
                                                   and name is declared, value-initialised (`bool hipify_use_mask =
                                                   {};`), on the lines before the call, and goes in as argument i
    ("declare_addr", i, "T hipify_x")              the same, passed by address (&hipify_x: an output argument)
    ("field", i, "hipMemLocation.id")              argument i becomes (arg).id (a braced list: hipMemLocation{...}.id)
    ("drop_null", i, "")                           argument i is dropped when it is a null pointer (nullptr, NULL,
                                                   0); otherwise the rule is not applied and its note says why

The declared variables follow HIPIFY's e_insert_new_argument (HipifyAction.cpp at 09c2ef1d, the version of its test
cudnn_insert_new_arg.cu): each declaration goes at the start of the line where the call begins, with that line's
indentation; a name used again in the same file gets a suffix _1, _2 ... (one counter per name and file,
InsertedVarCounter); arguments past the end are appended after the last one, in the rule's order.

Targets: "hip" (the call was mapped to a HIP library: hipSPARSE, the HIP runtime ...), "roc" (mapped to a
ROCm library under --roc: rocSPARSE ...), "miopen" (cuDNN mapped to MIOpen under --miopen). `arity` is the CUDA argument count a rule was written for; a call
with another count is left alone (an overload or macro we do not understand) and reported.

Where HIPIFY has no rule but HIP 5.x does not compile the translated call, we add one and say why (found by
compiling real-world CUDA with ROCm 5.2's hipcc, bench/hipify_realworld.py, and by comparing CUDA 13's
cuda_runtime_api.h defaults with hip_runtime_api.h):
- arguments CUDA gives a default and HIP 5.2 does not (cudaStreamWaitEvent's flags ...) are written out, and
  CUDA's T** overloads that HIP 5.2 lacks (cudaHostAlloc ...) get a void** cast;
- the kernel argument of the execution-control and occupancy APIs: HIP declares it `const void*` (a function
  pointer does not convert implicitly) and ROCm 5.2's templates cover only some of the calls, so the symbol is
  cast as AMD's own samples do (hip_runtime_api.h, ROCm 5.2: hipFuncSetAttribute, hipFuncGetAttributes,
  hipLaunchKernel have no template overload);
- cuOccupancyMaxPotentialBlockSize[WithFlags]: HIP has no CUoccupancyB2DSize parameter (HIPIFY removes it too,
  with a data-loss warning);
- the cudaDataType argument of the rocSPARSE generic API (descriptor creation, SpVV, SpMV, SpMM, SpSV, SpSM, SDDMM):
  HIPIFY's table gives CUDA_R_32F ... the rocBLAS names (they live in its BLAS map), but rocSPARSE takes its own
  rocsparse_datatype (rocsparse-types.h: rocsparse_datatype_f32_r ...); HIPIFY leaves this open (the TODO "#899
  There should be rocsparse_datatype instead of hipDataType" in its test cusparse2rocsparse.cu, which runs with
  --use-hip-data-types). A literal constant is rewritten; a cudaDataType variable keeps the table's rocBLAS type,
  which rocSPARSE rejects.

The rules for CUDA 12 / 13 signatures that HIP declares differently are data too: data/hipify_signature_rules.csv,
written from the comparison tools/extract_hipify_signatures.py generates (data/hipify_signatures.csv); its
`rewrite` rows become rules here, its `manual` rows rules without operations that only report their note
(tests/test_hipify_signatures.py: every difference has a rule or a verdict).

Constants a rule inserts that a ROCm release added later than the API itself are dated in the table below the
rules' helpers (checked with the real compiler: tests/test_hipify_compile.py).
"""

from __future__ import annotations

import os
import re

from rocm_bridge.hipify.index import DATA_DIR

_VOID_CAST = "reinterpret_cast<const void*>"
_SIZE_T_CAST = "reinterpret_cast<size_t*>"
_VOID_PP_CAST = "reinterpret_cast<void**>"
_SOLVE = "rocsparse_solve_policy_auto"
_FORCE = "rocsparse_analysis_policy_force"
# rocBLAS data type constant (the table's --roc name of CUDA_R_32F ...) -> rocSPARSE's (rocsparse-types.h, 5.3.0)
SPARSE_DATATYPES = {f"rocblas_datatype_{t}": f"rocsparse_datatype_{t}" for t in ("f32_r", "f64_r", "f32_c", "f64_c")}
# constants inserted by the rules below -> (the ROCm release that added them, API group, source)
_SPMV_STAGE = ("5.4.0", "sparse", "rocSPARSE 2.4 (ROCm 5.4) added rocsparse_spmv_ex with a stage argument and 3.0 "
               "(ROCm 6.0) gave rocsparse_spmv that signature (HIPIFY's version map: rocsparse_spmv changed 6.0.0); "
               "rocSPARSE 5.3.0's rocsparse-types.h has no rocsparse_spmv_stage")
ARG_CONSTANT_SINCE: dict[str, tuple[str, str, str]] = {
    "rocsparse_spmv_stage_buffer_size": _SPMV_STAGE,
    "rocsparse_spmv_stage_compute": _SPMV_STAGE,
}


class Rule:
    """One rewrite (a plain class: a NamedTuple costs more to create than the command line can spare)."""

    __slots__ = ("target", "arity", "ops", "note")

    def __init__(self, target: str, arity: int | None, ops: tuple[tuple[str, int, str], ...], note: str = ""):
        self.target = target  # "hip" | "roc" | "miopen"
        self.arity = arity  # CUDA argument count the rule is for (None: any)
        self.ops = ops
        self.note = note  # catalog key of a warning to report at the call ("" = none)

    def __repr__(self) -> str:
        return f"Rule({self.target!r}, {self.arity!r}, {self.ops!r}, {self.note!r})"


def _wrap(i: int) -> tuple[str, int, str]:
    return ("wrap", i, _VOID_CAST)


def _dt(i: int) -> tuple[str, int, str]:
    return ("datatype", i, "rocsparse")


RULES: dict[str, tuple[Rule, ...]] = {
    # kernel symbols (HIP 5.x: const void*)
    "cudaFuncSetAttribute": (Rule("hip", 3, (_wrap(0),)),),
    "cudaFuncGetAttributes": (Rule("hip", 2, (_wrap(1),)),),
    "cudaFuncSetCacheConfig": (Rule("hip", 2, (_wrap(0),)),),
    "cudaFuncSetSharedMemConfig": (Rule("hip", 2, (_wrap(0),)),),
    "cudaLaunchKernel": (Rule("hip", 6, (_wrap(0),)), Rule("hip", 5, (_wrap(0),)), Rule("hip", 4, (_wrap(0),))),
    "cudaLaunchCooperativeKernel": (Rule("hip", 6, (_wrap(0),)), Rule("hip", 5, (_wrap(0),)),
                                    Rule("hip", 4, (_wrap(0),))),
    "cudaOccupancyMaxActiveBlocksPerMultiprocessor": (Rule("hip", 4, (_wrap(1),)),),
    "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags": (Rule("hip", 5, (_wrap(1),)),),
    "cudaOccupancyMaxPotentialBlockSize": tuple(Rule("hip", n, (_wrap(2),)) for n in (5, 4, 3)),
    "cudaOccupancyMaxPotentialBlockSizeWithFlags": tuple(Rule("hip", n, (_wrap(2),)) for n in (6, 5, 4, 3)),
    # driver occupancy: HIP has no block-size -> dynamic-shared-memory callback
    "cuOccupancyMaxPotentialBlockSize": (Rule("hip", 6, (("remove", 3, ""),), "hipify.tr.b2d_dropped"),),
    "cuOccupancyMaxPotentialBlockSizeWithFlags": (Rule("hip", 7, (("remove", 3, ""),), "hipify.tr.b2d_dropped"),),
    # pinned host memory: hipHostMalloc takes the flags cudaMallocHost does not have
    "cudaMallocHost": (Rule("hip", 2, (("insert", 2, "hipHostMallocDefault"),)),),
    # CUDA's T** overloads (cuda_runtime.h) that ROCm 5.2's hip_runtime_api.h does not have: a float** does not
    # convert to void** implicitly
    "cudaHostAlloc": (Rule("hip", 3, (("wrap", 0, _VOID_PP_CAST),)),),
    "cudaHostGetDevicePointer": (Rule("hip", 3, (("wrap", 0, _VOID_PP_CAST),)),),
    "cudaMallocPitch": (Rule("hip", 4, (("wrap", 0, _VOID_PP_CAST),)),),
    # arguments CUDA declares with a default (__dv(0), cuda_runtime_api.h) and ROCm 5.2 without one
    "cudaStreamWaitEvent": (Rule("hip", 2, (("insert", 2, "0"),)),),
    "cudaMalloc3DArray": (Rule("hip", 3, (("insert", 3, "0"),)),),
    "cudaSignalExternalSemaphoresAsync": (Rule("hip", 3, (("insert", 3, "0"),)),),
    "cudaWaitExternalSemaphoresAsync": (Rule("hip", 3, (("insert", 3, "0"),)),),
    "cudaStreamGetCaptureInfo": (Rule("hip", 2, (("insert", 2, "nullptr"),)),),
    # CUDA 12 made cudaGraphInstantiate (exec, graph, flags = 0); HIP keeps CUDA 11's (exec, graph, error node,
    # log buffer, log size). The three-argument call already becomes hipGraphInstantiateWithFlags (overloads)
    "cudaGraphInstantiate": (Rule("hip", 2, (("insert", 2, "nullptr, nullptr, 0"),)),),
    # cuDNN -> MIOpen (--miopen): MIOpen has no NaN-propagation argument; LRN takes its mode; FindEx is exhaustive
    "cudnnSetPooling2dDescriptor": (Rule("miopen", 9, (("remove", 2, ""),)),),
    "cudnnGetPooling2dDescriptor": (Rule("miopen", 9, (("remove", 2, ""),)),),
    "cudnnSetPoolingNdDescriptor": (Rule("miopen", 7, (("remove", 2, ""),)),),
    "cudnnGetPoolingNdDescriptor": (Rule("miopen", 8, (("remove", 3, ""),)),),
    "cudnnSetLRNDescriptor": (Rule("miopen", 5, (("insert", 1, "miopenLRNCrossChannel"),)),),
    "cudnnFindConvolutionForwardAlgorithmEx": (Rule("miopen", 13, (("insert", 13, "true"),)),),
    # the _V2 RNN descriptor calls take no handle (HIPIFY) and have a bias mode before the algorithm. HIPIFY's
    # test copies before 09c2ef1d leave it out (its TODO #837: the call cannot compile); since 09c2ef1d HIPIFY
    # declares a value-initialised miopenRNNBiasMode_t for it, i.e. miopenRNNNoBias. cuDNN's v6 RNNs always have
    # biases, so the Set call gets miopenRNNwithBias (not HIPIFY's); the Get call returns the mode through a
    # new variable, as HIPIFY's now does
    "cudnnSetRNNDescriptor_v6": (Rule("miopen", 10, (("remove", 0, ""), ("insert", 8, "miopenRNNwithBias"))),),
    "cudnnGetRNNDescriptor_v6": (Rule("miopen", 10, (("remove", 0, ""),
                                                     ("declare_addr", 8, "miopenRNNBiasMode_t hipify_biasMode")),
                                      "hipify.tr.new_args"),),
    # MIOpen's dropout descriptor also takes use_mask, state_evo and rng_mode (miopen.h; MIOpen docs 5.0.0
    # dropout.html): HIPIFY (09c2ef1d) declares them as variables and appends them
    "cudnnSetDropoutDescriptor": (Rule("miopen", 6, (("declare", 6, "bool hipify_use_mask"),
                                                     ("declare", 7, "bool hipify_state_evo"),
                                                     ("declare", 8, "miopenRNGType_t hipify_rng_mode")),
                                       "hipify.tr.new_args"),),
    # cuSPARSE generic API -> hipSPARSE: the external buffer argument
    "cusparseSpSM_solve": (Rule("hip", None, (("insert", 10, "nullptr"),)),
                           Rule("roc", None, (("replace", 9, "rocsparse_spsm_stage_compute"), ("insert", 10, "nullptr"),
                                              ("insert", 11, "nullptr"), _dt(7)))),
    # cuSPARSE -> rocSPARSE (--roc), non-typed calls
    "cusparseCsr2cscEx2_bufferSize": (Rule("roc", None, tuple(("remove", i, "") for i in (4, 7, 8, 9, 10, 12, 13))),),
    "cusparseSparseToDense": (Rule("roc", None, (("insert", 4, "nullptr"),)),),
    "cusparseSparseToDense_bufferSize": (Rule("roc", None, (("insert", 5, "nullptr"),)),),
    "cusparseDenseToSparse_bufferSize": (Rule("roc", None, (("insert", 5, "nullptr"),)),),
    "cusparseDenseToSparse_analysis": (Rule("roc", None, (("insert", 4, "nullptr"),)),),
    "cusparseSpMM_bufferSize": (Rule("roc", None, (("insert", 10, "rocsparse_spmm_stage_compute"),
                                                   ("insert", 12, "nullptr"), _dt(8))),),
    "cusparseSpSM_analysis": (Rule("roc", None, (("replace", 9, "rocsparse_spsm_stage_compute"),
                                                 ("insert", 10, "nullptr"), _dt(7))),),
    "cusparseXcsrgeam2Nnz": (Rule("roc", None, (("remove", 14, ""),)),),
    "cusparseSpMM": (Rule("roc", None, (("insert", 10, "rocsparse_spmm_stage_compute, nullptr"), _dt(8))),),
    "cusparseSpVV_bufferSize": (Rule("roc", None, (("insert", 7, "nullptr"), _dt(5))),),
    "cusparseSpVV": (Rule("roc", None, (("insert", 6, "nullptr"), _dt(5))),),
    "cusparseSpMV_bufferSize": (Rule("roc", None, (("insert", 9, "rocsparse_spmv_stage_buffer_size"),
                                                   ("insert", 11, "nullptr"), _dt(7))),),
    "cusparseSpMV": (Rule("roc", None, (("insert", 9, "rocsparse_spmv_stage_compute"), _dt(7))),),
    "cusparseSpMM_preprocess": (Rule("roc", None, (("insert", 10, "rocsparse_spmm_stage_preprocess, nullptr"),
                                                   _dt(8))),),
    "cusparseSpSV_bufferSize": (Rule("roc", None, (("replace", 8, "rocsparse_spsv_stage_buffer_size"),
                                                   ("insert", 10, "nullptr"), _dt(6))),),
    # cudaDataType arguments only (the argument lists are those of rocSPARSE 5.3.0's rocsparse-auxiliary.h and
    # rocsparse-functions.h: rocsparse_create_csr_descr ... rocsparse_sddmm)
    **{f"cusparseCreate{c}{m}": (Rule("roc", None, (_dt(i),)),)
       for c in ("", "Const") for m, i in (("SpVec", 7), ("Coo", 9), ("Csr", 10), ("Csc", 10), ("DnVec", 3),
                                          ("DnMat", 5))},
    **{f"cusparseSDDMM{s}": (Rule("roc", None, (_dt(8),)),) for s in ("", "_bufferSize", "_preprocess")},
}

# cuSPARSE -> rocSPARSE (--roc), one rule for the S, D, C and Z variant of each call: solve / analysis policies,
# size_t buffer sizes (rocSPARSE writes size_t where cuSPARSE wrote int), extra operation arguments.
_TYPED: dict[str, tuple[tuple[str, int, str], ...]] = {
    "csrilu02": (("replace", 8, _SOLVE),),
    "csrilu02_analysis": (("replace", 8, _FORCE), ("insert", 9, _SOLVE)),
    "csric02_analysis": (("replace", 8, _FORCE), ("insert", 9, _SOLVE)),
    "csric02_bufferSize": (("wrap", 8, _SIZE_T_CAST),),
    "bsrilu02": (("replace", 10, _SOLVE),),
    "bsrilu02_analysis": (("replace", 10, _FORCE), ("insert", 11, _SOLVE)),
    "bsric02": (("replace", 10, _SOLVE),),
    "bsric02_analysis": (("replace", 10, _FORCE), ("insert", 11, _SOLVE)),
    "bsric02_bufferSize": (("wrap", 10, _SIZE_T_CAST),),
    "bsrsm2_bufferSize": (("wrap", 13, _SIZE_T_CAST),),
    "csrsm2_solve": (("replace", 15, _SOLVE),),
    "csrsm2_analysis": (("replace", 15, _FORCE), ("insert", 16, _SOLVE)),
    "csrsm2_bufferSizeExt": (("replace", 15, _SOLVE),),
    "gemvi_bufferSize": (("wrap", 5, _SIZE_T_CAST),),
    "csrsv2_solve": (("replace", 12, _SOLVE),),
    "csrsv2_analysis": (("replace", 9, _FORCE), ("insert", 10, _SOLVE)),
    "csrmv": (("insert", 10, "nullptr"),),
    "bsrsv2_solve": (("replace", 14, _SOLVE),),
    "bsrsv2_analysis": (("replace", 11, _FORCE), ("insert", 12, _SOLVE)),
    "csrmm": (("insert", 2, "rocsparse_operation_none"),),
    "csrgeam2": (("remove", 19, ""),),
    "bsrsv2_bufferSize": (("wrap", 11, _SIZE_T_CAST),),
    "csrsv2_bufferSize": (("wrap", 9, _SIZE_T_CAST),),
    "csrgemm2": (("insert", 1, "rocsparse_operation_none, rocsparse_operation_none"),),
    "csrilu02_bufferSize": (("wrap", 8, _SIZE_T_CAST),),
    "bsrilu02_bufferSize": (("wrap", 10, _SIZE_T_CAST),),
    "gpsvInterleavedBatch": (("copy", 9, "10"),),
    "gpsvInterleavedBatch_bufferSizeExt": (("copy", 9, "10"),),
    "gtsvInterleavedBatch": (("copy", 7, "8"),),
    "gtsvInterleavedBatch_bufferSizeExt": (("copy", 7, "8"),),
}
for _suffix, _ops in _TYPED.items():
    for _t in "SDCZ":
        RULES[f"cusparse{_t}{_suffix}"] = (Rule("roc", None, _ops),)

SIGNATURE_RULES = os.path.join(DATA_DIR, "hipify_signature_rules.csv")


def _signature_rules() -> None:
    """Add the `rewrite` and `manual` rows of data/hipify_signature_rules.csv to RULES (target hip). Read with a
    plain split (csv and its dialects cost more at start-up than the file): the ops and note columns hold no
    comma; only the last column (the source) is quoted."""
    with open(SIGNATURE_RULES, encoding="utf-8") as fh:
        next(fh)
        for line in fh:
            name, arity, verdict, ops, note, _since, _source = line.split(",", 6)
            if verdict not in ("rewrite", "manual"):
                continue
            parsed = []
            for op in filter(None, ops.split(";")):
                kind, i, value = (op.split(":", 2) + [""])[:3]
                parsed.append((kind, int(i), value))
            RULES[name] = (*RULES.get(name, ()), Rule("hip", int(arity) if arity else None, tuple(parsed), note))


_signature_rules()


def _intrinsic_casts() -> None:
    """data/hipify_intrinsic_casts.csv (tools/probe_hipify_overloads.py, found by compiling): intrinsics CUDA declares
    once and HIP overloads, so that an argument of another integer type is ambiguous in HIP; each argument is cast
    to CUDA's parameter type, which is what CUDA's implicit conversion does (right whatever the argument's type)."""
    with open(os.path.join(DATA_DIR, "hipify_intrinsic_casts.csv"), encoding="utf-8") as fh:
        next(fh)
        for line in fh:
            name, params, _types, _source = line.split(",", 3)
            types = params.split("|")
            ops = tuple(("wrap", i, f"static_cast<{t}>") for i, t in enumerate(types))
            RULES[name] = (*RULES.get(name, ()), Rule("hip", len(types), ops))


_intrinsic_casts()

_ALREADY_VOID_PP = re.compile(r"^(?:(?:reinterpret|static)_cast\s*<\s*void\s*\*\s*\*\s*>|\(\s*void\s*\*\s*\*\s*\))")
_ALREADY_VOID = re.compile(r"^(?:reinterpret_cast\s*<|static_cast\s*<|\(\s*(?:const\s+)?void\s*(?:const\s*)?\*\s*\))")


def pick(name: str, target: str, nargs: int) -> Rule | None:
    """The rule for this call, or None."""
    for rule in RULES.get(name, ()):
        if rule.target == target and (rule.arity is None or rule.arity == nargs):
            return rule
    return None


def wraps_only(rule: Rule) -> bool:
    """True when the rule only wraps and inserts: it can be applied as insertions into the text."""
    return all(op in ("wrap", "insert") for op, _i, _v in rule.ops)


DECLARES = ("declare", "declare_addr")
_NULL = frozenset(("nullptr", "NULL", "0", "0L", "0UL", "(void*)0", "(void *)0"))


SKIP = Rule("hip", None, ())  # null_drops: the call is not the signature the rule is for; leave it, say nothing


def _location(arg: str, text: str) -> bool:
    """True when an argument is provably a cudaMemLocation (CUDA 13) and not CUDA 12's int device: a braced list,
    an expression naming the type, or a name the file declares with it."""
    arg = arg.strip()
    if arg.startswith("{") or "MemLocation" in arg or "memLocation" in arg:
        return True
    if not re.fullmatch(r"[A-Za-z_]\w*", arg):
        return False
    return re.search(r"\b(?:cudaMemLocation|CUmemLocation|hipMemLocation)\s*(?:const\s*)?&?\s*" + arg + r"\b",
                     text) is not None


def null_drops(rule: Rule, args: list[str], text: str = "") -> Rule | None:
    """The rule with its conditional operations resolved: drop_null made a plain removal, or None when one of
    those arguments is not a null pointer constant (the argument carries information HIP's call has no place for:
    the caller reports the rule's note); SKIP when a `field` argument is not provably a cudaMemLocation (code
    written for CUDA 12, where the same position is an int device: nothing to rewrite)."""
    if not any(op in ("drop_null", "field") for op, _i, _v in rule.ops):
        return rule
    if any(op == "field" and (i >= len(args) or not _location(args[i], text)) for op, i, _v in rule.ops):
        return SKIP
    ops = []
    for op, i, value in rule.ops:
        if op == "drop_null":
            if i >= len(args) or args[i].strip() not in _NULL:
                return None
            op = "remove"
        ops.append((op, i, value))
    dropped = any(op == "drop_null" for op, _i, _v in rule.ops)
    return Rule(rule.target, rule.arity, tuple(ops), "" if dropped else rule.note)


def declare(rule: Rule, counters: dict[str, int]) -> tuple[Rule, list[str]]:
    """The rule with its new variables named, as plain insertions, and their declarations ("bool x = {};").

    counters: how often each base name was declared in this file so far (updated): the first use keeps the name,
    later ones get _1, _2 ... (HIPIFY's InsertedVarCounter)."""
    ops: list[tuple[str, int, str]] = []
    decls: list[str] = []
    for op, i, value in rule.ops:
        if op not in DECLARES:
            ops.append((op, i, value))
            continue
        type_name, _, base = value.rpartition(" ")
        n = counters.get(base, 0)
        counters[base] = n + 1
        name = f"{base}_{n}" if n else base
        decls.append(f"{type_name} {name} = {{}};")
        ops.append(("insert", i, f"&{name}" if op == "declare_addr" else name))
    return Rule(rule.target, rule.arity, tuple(ops), rule.note), decls


def needs_wrap(arg: str, prefix: str) -> bool:
    """False when the argument already is a cast of this kind (translated twice, or written that way)."""
    if prefix == _VOID_CAST:
        return _ALREADY_VOID.match(arg) is None
    if prefix == _VOID_PP_CAST:
        return _ALREADY_VOID_PP.match(arg) is None
    return not arg.startswith(prefix)


def rewrite(args: list[str], seps: list[str], rule: Rule) -> str:
    """The new argument list text. Original arguments keep the separator that preceded them in the source
    (their layout, newlines included); added ones are joined with ', '."""
    n = len(args)
    before: dict[int, list[str]] = {}
    replaced: dict[int, str] = {}
    removed: set[int] = set()
    for op, i, value in rule.ops:
        if op == "insert":
            before.setdefault(min(i, n), []).append(value)
        elif op == "copy":
            if i < n:
                before.setdefault(min(int(value), n), []).append(args[i])
        elif op == "replace":
            if i < n:
                replaced[i] = value
        elif op == "remove":
            removed.add(i)
        elif op == "field" and i < n:
            type_name, _, member = value.partition(".")
            arg = replaced.get(i, args[i])
            replaced[i] = f"{type_name}{arg}.{member}" if arg.startswith("{") else f"({arg}).{member}"
        elif op == "datatype" and i < n:
            arg = replaced.get(i, args[i])
            if arg.strip() in SPARSE_DATATYPES:
                replaced[i] = arg.replace(arg.strip(), SPARSE_DATATYPES[arg.strip()])
        elif op == "wrap" and i < n and needs_wrap(args[i], value):
            replaced[i] = f"{value}({replaced.get(i, args[i])})"
    items: list[tuple[str, str | None]] = []  # (text, separator before it in the source, None = new)
    for i in range(n + 1):
        items.extend((v, None) for v in before.get(i, ()))
        if i < n and i not in removed:
            items.append((replaced.get(i, args[i]), seps[i - 1] if i else None))
    out = []
    for k, (value, sep) in enumerate(items):
        if k:
            out.append(sep if sep is not None else ", ")
        out.append(value)
    return "".join(out)
