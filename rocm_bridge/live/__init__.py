"""The live GPU lab: framework backends, benchmarks that explain the formulas, a GPU monitor.

Nothing here imports a framework at module level: `get_backend("tensorflow")` imports TensorFlow when a
benchmark or check actually needs it, and `available_backends()` only asks whether the package is installed.
"""

from __future__ import annotations

import importlib.util

BACKENDS: tuple[str, ...] = ("tensorflow", "torch", "jax")
BACKEND_LABELS = {"tensorflow": "TensorFlow", "torch": "PyTorch", "jax": "JAX"}


def is_installed(name: str) -> bool:
    """Whether the framework's package can be found (without importing it)."""
    if name not in BACKENDS:
        return False
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def available_backends() -> list[str]:
    return [name for name in BACKENDS if is_installed(name)]


def get_backend(name: str):
    """A backend object for name; raises errors.BackendUnavailable when it is not installed or fails to import."""
    from rocm_bridge.errors import BackendUnavailable, InvalidInput

    if name not in BACKENDS:
        raise InvalidInput("live.errors.unknown_backend", name=name, known=", ".join(BACKENDS))
    if not is_installed(name):
        raise BackendUnavailable(backend=BACKEND_LABELS[name], detail="not installed (pip install " + name + ")")
    if name == "tensorflow":
        from rocm_bridge.live.tf_backend import TensorFlowBackend as cls
    elif name == "torch":
        from rocm_bridge.live.torch_backend import TorchBackend as cls
    else:
        from rocm_bridge.live.jax_backend import JaxBackend as cls
    try:
        return cls()
    except ImportError as exc:
        raise BackendUnavailable(backend=BACKEND_LABELS[name], detail=f"import failed: {exc}") from exc
