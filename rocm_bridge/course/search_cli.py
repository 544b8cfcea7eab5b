"""`python -m rocm_bridge search QUERY [--lang zh] [--json] [--limit N]`: the search page's index from a shell."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict

HELP = "Search the chapters, glossary, quiz explanations and the CUDA -> HIP mapping table (English or Chinese)."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("query", nargs="+", help="words to find (all must match), e.g. cudaMalloc, 波前, occupancy LDS")
    parser.add_argument("--lang", choices=("en", "zh"), default="en", help="which language's course text to search")
    parser.add_argument("--limit", type=int, default=20, help="at most this many hits (default 20)")
    parser.add_argument("--json", action="store_true", help="machine-readable hits")


def run(args: argparse.Namespace) -> int:
    from rocm_bridge.course.search import search

    hits = search(" ".join(args.query), args.lang, limit=max(1, args.limit))
    if args.json:
        print(json.dumps([asdict(h) for h in hits], ensure_ascii=False, indent=1))
    else:
        for h in hits:
            print(f"[{h.kind}] {h.page}: {h.title}\n    {h.snippet}")
    return 0 if hits else 1
