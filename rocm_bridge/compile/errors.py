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
