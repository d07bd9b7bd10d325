"""`physr3 topics FILE-or-BENCHMARK...`: the share of each domain and sub-topic per input (Figure 3).

    physr3 topics corpus.jsonl jeebench mmlu-hs mmlu-college scieval --out runs/topics

Writes into `--out`: `topics.png` (grouped bars, one group per domain, one bar per input), `topics.md`
(the table also printed), `topics.json` (counts and shares) and `items.jsonl` (each question's domain,
sub-topic and vote share). Inputs whose lines carry a known `domain` (generated problems) also get the
classifier's agreement with it. See physr3.corpus.topics for the classifier.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from physr3.commands._common import config_from_args, split_overrides
from physr3.errors import UserError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("inputs", nargs="+", metavar="FILE-or-BENCHMARK",
                        help="JSONL files with `question` (or `problem`) lines, benchmark names or NAME=FILE; "
                             "trailing section.key=value items are config overrides (topics.k=9).")
    parser.add_argument("--out", default="runs/topics", help="Output folder (PNG, table, JSON, per-item lines).")
    parser.add_argument("--config", help="YAML config file (see configs/).")
    parser.add_argument("--no-progress", action="store_true", help="No progress bar.")


def main(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from physr3.corpus.inputs import load_items
    from physr3.corpus.topics import TopicClassifier, distribution, format_table, load_exemplars
    from physr3.paths import cache_dir, data_dir
    from physr3.problems import DOMAINS, write_jsonl, write_text_atomic
    from physr3.report.plots import grouped_bars
    from physr3.retrieval.embedding import get_embedder

    args.inputs, args.overrides = split_overrides(args.inputs)
    cfg = config_from_args(args)
    if not args.inputs:
        raise UserError("no input: give JSONL files or benchmark names")
    loaded = [load_items(spec) for spec in args.inputs]  # every input checked before the embedder loads
    names = [name for name, _ in loaded]
    if len(set(names)) < len(names):
        raise UserError(f"two inputs share the name {next(n for n in names if names.count(n) > 1)!r}; "
                        "rename a file or use NAME=FILE")
    classifier = TopicClassifier(get_embedder(cfg.topics.embedder), load_exemplars(data_dir()), k=cfg.topics.k,
                                 cache_root=cache_dir())
    out = Path(args.out)
    dists, rows, notes = [], [], []
    bar = tqdm(total=sum(len(items) for _, items in loaded), desc="topics", unit="text", file=sys.stderr,
               disable=args.no_progress, dynamic_ncols=True)
    for name, items in loaded:
        assignments = classifier.classify([it.text for it in items], on_progress=bar.update)
        dists.append(distribution(name, assignments))
        rows += [{"input": name, "id": it.id, "domain": a.domain, "subtopic": a.subtopic, "vote_share": round(a.score, 4),
                  **({"known_domain": it.domain} if it.domain else {})} for it, a in zip(items, assignments)]
        known = [(it.domain, a.domain) for it, a in zip(items, assignments) if it.domain in DOMAINS]
        if known:
            notes.append(f"{name}: agrees with the known domain of {sum(g == p for g, p in known)}/{len(known)} "
                         f"items ({100 * sum(g == p for g, p in known) / len(known):.1f}%)")
    bar.close()
    table = format_table(dists)
    out.mkdir(parents=True, exist_ok=True)
    write_text_atomic(out / "topics.md", table + "\n")
    write_text_atomic(out / "topics.json", json.dumps([d.to_json() for d in dists], indent=2) + "\n")
    write_jsonl(out / "items.jsonl", rows)
    grouped_bars(list(DOMAINS), {d.name: [100 * d.share(dom) for dom in DOMAINS] for d in dists},
                 out / "topics.png", ylabel="share of items (%)", title="Topic distribution")
    print(table)
    for note in notes:
        print(note)
    print(f"topics: wrote {out / 'topics.png'}, topics.md, topics.json, items.jsonl", file=sys.stderr)
    return 0
