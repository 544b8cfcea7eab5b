"""Upload limits: one number per uploader, in the unit the browser uses.

Streamlit's limits (`server.maxUploadSize` in .streamlit/config.toml, `st.file_uploader(max_upload_size=)`) are
in MB. The browser checks them in decimal megabytes (10**6 bytes; 1024**2 only on Windows) before anything is
sent; the server's own check is 1024**2 per MB. So the app checks the same number of decimal megabytes: whatever
the browser lets through and is still too large gets a translated message, never a red icon without one.

- server.maxUploadSize (read from the config file here, without importing streamlit) is the coverage lab's
  limit and the ceiling for every uploader;
- the hipify lab's 5 MB and the log doctor's 2 MB are smaller, passed to their uploaders as max_upload_size.
"""

from __future__ import annotations

import os
from functools import lru_cache

MB = 1_000_000  # a browser megabyte
# os.path, not pathlib: the hipify command line imports this module and pathlib costs ~10 ms of its start
CONFIG = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))), ".streamlit", "config.toml")
STREAMLIT_DEFAULT_MB = 200
HIPIFY_UPLOAD_MB = 5
DOCTOR_LOG_MB = 2


@lru_cache(maxsize=1)
def server_upload_mb() -> int:
    """server.maxUploadSize from .streamlit/config.toml (Streamlit's default when unset)."""
    import tomllib  # here, not at the top: the hipify command line imports this module and never reads it

    try:
        with open(CONFIG, "rb") as fh:
            return int(tomllib.load(fh).get("server", {}).get("maxUploadSize", STREAMLIT_DEFAULT_MB))
    except OSError:
        return STREAMLIT_DEFAULT_MB


def size_mb(n_bytes: int) -> str:
    """A size as the limit messages show it: decimal MB, one decimal."""
    return f"{n_bytes / MB:.1f}"
