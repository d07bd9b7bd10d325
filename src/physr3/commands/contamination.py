"""`physr3 contamination --train F --benchmark B...`: exact n-gram overlap and semantic near-duplicates.

    physr3 contamination --train corpus.jsonl --benchmark jeebench --benchmark scieval --out contamination.jsonl

Output lines `{"train_id", "benchmark", "item_id", "similarity", "kind"}` (kind `ngram`: the share of the
benchmark item's n-grams found in the training question; kind `semantic`: the cosine, at or above
`contamination.threshold`), to `--out` or stdout; the summary (flagged benchmark items per benchmark and
kind) goes to stderr and, with `--out`, to OUT.summary.json. See physr3.corpus.contamination.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from physr3.commands._common import add_config_arguments, config_from_args
from physr3.errors import UserError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--train", required=True, help="Training JSONL with `question` (or `problem`) lines.")
    parser.add_argument("--benchmark", action="append", required=True,
                        help="Benchmark name, NAME=FILE or a JSONL path (repeatable).")
    parser.add_argument("--out", help="Output JSONL of flagged pairs (default: stdout).")
    parser.add_argument("--threshold", type=float, help="Sets contamination.threshold (cosine).")
    parser.add_argument("--no-semantic", action="store_true", help="Only the exact n-gram check (no embedder).")
    parser.add_argument("--no-progress", action="store_true", help="No progress bar.")
    add_config_arguments(parser)


def main(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from physr3.corpus.contamination import ngram_matches, semantic_matches, summarize
    from physr3.corpus.inputs import load_items
    from physr3.problems import write_jsonl, write_text_atomic

    cfg = config_from_args(args, "contamination")
    c = cfg.contamination
    _, train = load_items(args.train)
    benchmarks = dict(load_items(spec) for spec in args.benchmark)
    if len(benchmarks) < len(args.benchmark):
        raise UserError("two --benchmark inputs share a name; rename a file or use NAME=FILE")
    matches = ngram_matches(train, benchmarks, c.ngram, c.min_tokens)
    if not args.no_semantic:
        from physr3.retrieval.embedding import get_embedder

        total = len(train) + sum(len(v) for v in benchmarks.values())
        with tqdm(total=total, desc="embed", unit="text", file=sys.stderr, disable=args.no_progress,
                  dynamic_ncols=True) as bar:
            matches += semantic_matches(train, benchmarks, get_embedder(c.embedder), c.threshold, c.top_k,
                                        on_progress=bar.update)
    order = {t.id: i for i, t in enumerate(train)}
    matches.sort(key=lambda m: (order[m.train_id], m.benchmark, m.kind, -m.similarity))
    rows = [m.to_json() for m in matches]
    summary = summarize(matches, len(train), {b: len(v) for b, v in benchmarks.items()})
    summary["settings"] = {"ngram": c.ngram, "min_tokens": c.min_tokens,
                           "threshold": None if args.no_semantic else c.threshold, "top_k": c.top_k,
                           "embedder": None if args.no_semantic else c.embedder}
    if args.out:
        write_jsonl(args.out, rows)
        write_text_atomic(Path(args.out).with_suffix(".summary.json"), json.dumps(summary, indent=2) + "\n")
    else:
        for row in rows:
            print(json.dumps(row))
    sem = "off" if args.no_semantic else f"cosine >= {c.threshold:.2f}"
    print(f"contamination: {len(train)} training questions; exact {c.ngram}-gram overlap, semantic {sem}",
          file=sys.stderr)
    for bench, s in summary["benchmarks"].items():
        semantic = ("off" if args.no_semantic else
                    f"{s['semantic']['items']} ({100 * s['semantic']['item_share']:.1f}%)")
        print(f"  {bench:<16} n={s['n']:<5} flagged items: ngram {s['ngram']['items']} "
              f"({100 * s['ngram']['item_share']:.1f}%), semantic {semantic}, either {s['any']['items']} "
              f"({100 * s['any']['item_share']:.1f}%); training questions involved {s['any']['train_items']}",
              file=sys.stderr)
    if args.out:
        print(f"contamination: {len(rows)} pairs -> {args.out}", file=sys.stderr)
    return 0
