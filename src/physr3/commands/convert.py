"""`physr3 convert --input F --out O`: worked solutions rewritten into the seven-tag format by a teacher.

    physr3 convert --input data/openstax_worked_examples/worked_examples.jsonl --out corpus.jsonl \\
        --teacher-model gpt-4o                       # or --teacher-base-url http://127.0.0.1:8000/v1

Every rewrite is checked (format, then answer), failures are sent back with the violations quoted at most
`convert.max_retries` times, and what still fails goes to `--rejects` (default O with `.rejects.jsonl`).
Resumable: a rerun skips ids already in either file; replies are cached, so a rerun costs no calls.
See physr3.corpus.convert.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from physr3.commands._common import add_config_arguments, config_from_args
from physr3.errors import UserError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_arguments(parser)
    parser.add_argument("--input", required=True,
                        help='JSONL of {"id", "question", "solution", "answer"} (OpenStax: example_id, problem, solution).')
    parser.add_argument("--out", required=True, help="Output JSONL of converted records, ready for physr3 sft (appended).")
    parser.add_argument("--rejects", help="JSONL of rejected items with their reasons (default: OUT.rejects.jsonl).")
    parser.add_argument("--teacher-model", help="Sets convert.teacher_model.")
    parser.add_argument("--teacher-base-url", help="Sets convert.teacher_base_url.")
    parser.add_argument("--max-retries", type=int, help="Sets convert.max_retries.")
    parser.add_argument("--cache", help="SQLite reply cache (sets convert.cache_path).")
    parser.add_argument("--no-cache", action="store_true", help="Neither read nor write the reply cache.")
    parser.add_argument("--limit", type=int, help="Convert at most this many input lines.")
    parser.add_argument("--no-progress", action="store_true", help="No progress bar.")


def main(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from physr3.corpus.convert import convert_file, read_sources
    from physr3.llm.cache import ReplyCache, default_cache_path
    from physr3.llm.client import ChatClient

    cfg = config_from_args(args, "convert")
    c = cfg.convert
    if args.limit is not None and args.limit < 0:
        raise UserError("--limit must be >= 0")
    items = read_sources(args.input)
    if c.teacher_base_url is None and not os.environ.get(c.api_key_env):
        raise UserError(f"the teacher's API key is missing: set {c.api_key_env} (convert.api_key_env names another "
                        "variable), or point --teacher-base-url at a local OpenAI-compatible server")
    if args.limit is not None:
        items = items[:args.limit]
    rejects = args.rejects or str(Path(args.out).with_suffix("")) + ".rejects.jsonl"
    cache = None if args.no_cache else ReplyCache(c.cache_path or default_cache_path())
    client = ChatClient(model=c.teacher_model, base_url=c.teacher_base_url, api_key_env=c.api_key_env,
                        timeout_s=c.timeout_s, max_retries=c.http_retries, concurrency=c.concurrency, cache=cache)
    bar = tqdm(total=len(items), desc="convert", unit="item", file=sys.stderr, disable=args.no_progress,
               dynamic_ncols=True)
    try:
        summary = convert_file(items, client, args.out, rejects, teacher=c.teacher_model, max_retries=c.max_retries,
                               rel_tol=c.relative_tolerance, temperature=c.temperature, max_tokens=c.max_tokens,
                               chunk=max(32, 4 * c.concurrency), on_progress=bar.update)
    finally:
        bar.close()
        stats = client.stats
        client.close()
    print(summary.line(args.out, rejects), file=sys.stderr)
    print(f"convert: teacher {c.teacher_model} at {client.endpoint}: {stats.calls} calls, {stats.cache_hits} cache "
          f"hits, {stats.retries} retries", file=sys.stderr)
    return 1 if summary.api_errors else 0  # some items not done: a script should notice and rerun
