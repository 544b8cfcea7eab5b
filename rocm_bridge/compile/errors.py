"""Errors of the compile lab (catalog keys in rocm_bridge/locales/compile.toml)."""

from __future__ import annotations

from rocm_bridge.errors import Busy, InvalidInput, RocmBridgeError, TimedOut


class UnknownTarget(InvalidInput):
    key = "compile.err.unknown_target"


class CompilerMissing(RocmBridgeError, RuntimeError):
    key = "compile.err.no_compiler"


class CompileDisabled(RocmBridgeError, RuntimeError):
    key = "compile.err.disabled"


class CompileBusy(Busy):
    key = "compile.err.busy"


class CompileTimedOut(TimedOut):
    key = "compile.err.timeout"


class CodeTooLarge(InvalidInput):
    key = "compile.err.too_large"


class CompileQueued(Busy):
    """This session already has a compile waiting or running."""
    key = "compile.err.queued"


class CompileClientQueued(Busy):
    """This client (address) already holds CLIENT_TICKETS places in the lab's line."""
    key = "compile.err.client_queued"


class CompileQuota(Busy):
    key = "compile.err.quota"


class CompileTimedOutBefore(TimedOut):
    """The same source timed out before: it does not take the lab's turn again."""
    key = "compile.err.timeout_remembered"


class TritonMissing(RocmBridgeError, RuntimeError):
    key = "compile.err.no_triton"


class TritonError(InvalidInput):
    """The Triton kernel could not be loaded or compiled (the message says why)."""
    key = "compile.err.triton"


class NvccMissing(RocmBridgeError, RuntimeError):
    key = "compile.err.no_nvcc"
