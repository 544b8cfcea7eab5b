"""Errors of the hipify tool (keys in rocm_bridge/locales/hipify.toml)."""

from __future__ import annotations

from rocm_bridge.errors import FileTooLarge, InvalidInput, NotText, UnsafeArchive, UnsupportedFile

__all__ = ["FileTooLarge", "InvalidInput", "NotText", "UnsafeArchive", "UnsupportedFile", "UnsupportedOption"]


class UnsupportedOption(InvalidInput):
    """A hipify-clang / hipify-perl option this tool knows but does not implement."""

    key = "hipify.err.unsupported_option"
