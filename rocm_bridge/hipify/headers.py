"""CUDA header -> HIP / ROCm header table (data/hipify_headers.csv) and the include rewrite."""

from __future__ import annotations

import os
from functools import lru_cache

from rocm_bridge.hipify.index import DATA_DIR
from rocm_bridge.hipify.records import record

HEADERS_CSV = os.path.join(DATA_DIR, "hipify_headers.csv")
HIP_RUNTIME = "hip/hip_runtime.h"
HIP_RUNTIME_API = "hip/hip_runtime_api.h"


@record
class HeaderMap:
    cuda_header: str
    hip_header: str  # "" = dropped (HIP does not need it)
    roc_header: str  # "" = same as hip_header
    api_group: str
    note: str
    source: str
    hip_added: str = ""  # the ROCm release that first shipped the HIP header ("" = before 3.5 / not dated)

    def target(self, roc_groups: tuple[str, ...]) -> str:
        if self.api_group in roc_groups and self.roc_header:
            return self.roc_header
        return self.hip_header


@lru_cache(maxsize=1)
def header_table() -> dict[str, HeaderMap]:
    import csv  # here: a file without includes never reads the table

    with open(HEADERS_CSV, newline="", encoding="utf-8") as fh:
        return {row["cuda_header"]: HeaderMap(**row) for row in csv.DictReader(fh)}


def map_header(path: str, roc_groups: tuple[str, ...] = ()) -> tuple[str, HeaderMap] | None:
    """The HIP header for a CUDA header path, or None if it is not a CUDA header we know.

    'cub/block/block_reduce.cuh' follows the prefix rule 'cub/*.cuh' -> 'hipcub/*.hpp'.
    """
    table = header_table()
    hm = table.get(path)
    if hm is not None:
        return hm.target(roc_groups), hm
    if path.startswith("cub/") and path.endswith(".cuh"):
        rule = table.get("cub/*.cuh")
        if rule is not None:
            return "hipcub/" + path[4:-4] + ".hpp", rule
    return None
