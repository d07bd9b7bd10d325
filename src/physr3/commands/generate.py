"""`physr3 generate --input problems.jsonl --out out.jsonl`: solve problems with the configured model.

Each problem becomes the solve conversation of `prompts.build_solve_conversation` (format instruction per
`generation.format_instruction`); the engine of `generation.engine` generates one completion per problem.
Output lines: `{"id", "prompt", "completion", "n_tokens", "finish_reason"}` where `prompt` is the user
message (the system prompt comes from `model.system_prompt` through the chat template).

The output is appended one batch at a time and flushed (`problems.JsonlAppender`): an interrupted run keeps
what it wrote, and rerunning the same command skips the ids already in `--out` (resume). `--overwrite`
starts afresh. Sampling is seeded with `run.seed`. An empty or malformed `--input` is refused before the
model loads; an existing `--out` that is not this command's JSONL is refused and left untouched.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from physr3.commands._common import add_config_arguments, config_from_args
from physr3.errors import UserError
from physr3.problems import JsonlAppender, read_problems


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--input", required=True, help="JSONL of problem records (id, question, answer, ...).")
    parser.add_argument("--out", required=True, help="Output JSONL (appended; existing ids are skipped).")
    parser.add_argument("--limit", type=int, default=None, help="Generate for at most the first N problems.")
    parser.add_argument("--overwrite", action="store_true", help="Discard an existing --out instead of resuming.")
    add_config_arguments(parser)


def main(args: argparse.Namespace) -> int:
    cfg = config_from_args(args)
    if args.limit is not None and args.limit < 0:
        raise UserError(f"--limit {args.limit}: expected a non-negative integer")
    problems = read_problems(args.input)
    if args.limit is not None:
        problems = problems[: args.limit]
    out = Path(args.out)
    if args.overwrite and out.exists():
        out.unlink()
    with JsonlAppender(out) as sink:
        todo = [p for p in problems if p.id not in sink.done]
        skipped = len(problems) - len(todo)
        if skipped:
            print(f"generate: resuming, {skipped} of {len(problems)} already in {out}", file=sys.stderr)
        if todo:
            generated = _generate(cfg, todo, sink)
        else:
            generated = 0
    print(f"generate: wrote {generated} completion(s) to {out}", file=sys.stderr)
    return 0


def _generate(cfg, problems, sink: JsonlAppender) -> int:
    from tqdm import tqdm

    from physr3.models.engine import build_engine, params_from_config
    from physr3.prompts import build_solve_conversation
    from physr3.runs import seed_everything

    engine = build_engine(cfg)
    seed_everything(cfg.run.seed)
    params = params_from_config(cfg.generation, seed=cfg.run.seed)
    batch = cfg.generation.batch_size
    done = 0
    with tqdm(total=len(problems), desc="generate", unit="problem", file=sys.stderr) as bar:
        for start in range(0, len(problems), batch):
            chunk = problems[start : start + batch]
            conversations = [build_solve_conversation(p, cfg.generation.format_instruction) for p in chunk]
            params.seed = cfg.run.seed + start  # reproducible per batch (given the same resume point)
            for problem, conv, completion in zip(chunk, conversations, engine.generate(conversations, params)):
                sink.append({
                    "id": problem.id,
                    "prompt": conv[-1]["content"],
                    "completion": completion.text,
                    "n_tokens": len(completion.token_ids),
                    "finish_reason": completion.finish_reason,
                })
                done += 1
            bar.update(len(chunk))
    return done
