"""One typed hierarchy for every error a user can act on.

Each class names a catalog key; `message(lang)` renders it with the error's parameters, so a page shows the
same error in Chinese or English and a CLI prints it in the user's language.
"""

from __future__ import annotations

from rocm_bridge.i18n import DEFAULT_LANG, t


class RocmBridgeError(Exception):
    key = "errors.generic"

    def __init__(self, key: str | None = None, /, **params: object) -> None:
        if key is not None:
            self.key = key
        self.params = params
        super().__init__(self.message(DEFAULT_LANG))

    def message(self, lang: str) -> str:
        try:
            return t(self.key, lang, **self.params)
        except (KeyError, IndexError, ValueError):
            # A bad key must never hide the error itself.
            return f"{self.key}: {self.params}"


class InvalidInput(RocmBridgeError, ValueError):
    """A value a user typed or picked is out of range (negative time, NaN, zero total...)."""

    key = "errors.invalid_input"


class UnsupportedFile(RocmBridgeError, ValueError):
    key = "errors.unsupported_file"


class FileTooLarge(RocmBridgeError, ValueError):
    key = "errors.file_too_large"


class NotText(RocmBridgeError, ValueError):
    """Binary data where text was expected."""

    key = "errors.not_text"


class UnsafeArchive(RocmBridgeError, ValueError):
    """Path traversal, links, too many files or a zip bomb."""

    key = "errors.unsafe_archive"


class BackendUnavailable(RocmBridgeError, RuntimeError):
    """A framework (TensorFlow, PyTorch, JAX) is not installed or fails to import."""

    key = "errors.backend_unavailable"


class GpuUnavailable(RocmBridgeError, RuntimeError):
    key = "errors.gpu_unavailable"


class Busy(RocmBridgeError, RuntimeError):
    """Another session holds the one-at-a-time resource (the GPU benchmark lock)."""

    key = "errors.busy"


class OutOfMemory(RocmBridgeError, MemoryError):
    key = "errors.out_of_memory"


class TimedOut(RocmBridgeError, TimeoutError):
    key = "errors.timed_out"
