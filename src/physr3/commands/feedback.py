"""`physr3 feedback --input FILE --out OUT`: structured feedback for verdicts, one JSON line per record.

Each input line holds `question`, `solution` and a verdict — `error_step`, `error_type` (MC | CM | CE | none,
or the paper's long names) and `explanation`, at the top level or under `verdict`. A line that also has
`ground_truth` (a generated problem) lets the CE channel recompute from it. The output repeats each
record and adds `feedback` (the text p1), `feedback_channel`, `feedback_step`, `retrieved`, `code`,
`code_output` and `feedback_details`. A summary per channel goes to stderr. Every line is checked before
any feedback is computed; an empty, missing or non-JSONL input is refused (exit 2) and `--out` is then
not written.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from physr3.commands._common import add_config_arguments, config_from_args
from physr3.errors import InputFormatError
from physr3.problems import Problem, check_output_path, iter_jsonl, write_jsonl
from physr3.verify.base import ERROR_TYPES, Verdict

LONG_TYPES = {"problem miscomprehension": "MC", "conceptual error": "CM", "conceptual misapplication": "CM",
              "calculation error": "CE", "no error": "none", "": "none"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--input", required=True, help="JSONL with question, solution and verdict fields.")
    parser.add_argument("--out", required=True, help="Output JSONL (written atomically).")
    add_config_arguments(parser)


def _verdict(row: dict, path: str, line: int) -> Verdict:
    src = row.get("verdict") if isinstance(row.get("verdict"), dict) else row
    if "error_step" not in src:
        raise InputFormatError(path, line, "error_step", "required field is missing")
    step = src["error_step"]
    if isinstance(step, str) and step.strip().isdigit():
        step = int(step)
    if not isinstance(step, int) or isinstance(step, bool) or step < 0:
        raise InputFormatError(path, line, "error_step", f"expected an integer >= 0, got {step!r}")
    raw_type = str(src.get("error_type") or "none").strip()
    etype = raw_type if raw_type in ERROR_TYPES else LONG_TYPES.get(raw_type.lower())
    if etype is None:
        raise InputFormatError(path, line, "error_type", f"{raw_type!r} is not one of {', '.join(ERROR_TYPES)}")
    explanation = src.get("explanation", src.get("error_explanation", "")) or ""
    return Verdict(step, etype if step else "none", str(explanation), status=src.get("status", "ok"))


def _problem(row: dict, line: int) -> Problem | str:
    if isinstance(row.get("ground_truth"), dict):
        return Problem(id=str(row.get("id", line)), question=row["question"], answer=str(row.get("answer", "")),
                       family=str(row.get("family") or ""), ground_truth=row["ground_truth"])
    return row["question"]


def main(args: argparse.Namespace) -> int:
    from physr3.feedback.router import FeedbackRouter

    cfg = config_from_args(args)
    check_output_path(Path(args.out))  # a directory as --out fails now, not after the feedback is computed
    items = []  # every line is checked before any feedback is computed: a bad line costs nothing
    for line, row in iter_jsonl(args.input):
        for name in ("question", "solution"):
            if not isinstance(row.get(name), str):
                raise InputFormatError(args.input, line, name, "required string field is missing")
        items.append((line, row, _verdict(row, args.input, line)))
    router = FeedbackRouter(cfg.feedback)
    rows, channels = [], Counter()
    for line, row, verdict in items:
        fb = router(_problem(row, line), row["solution"], verdict)
        channels[fb.channel] += 1
        rows.append({**row, "feedback": fb.text, "feedback_channel": fb.channel, "feedback_step": fb.step,
                     "retrieved": fb.retrieved, "code": fb.code, "code_output": fb.code_output,
                     "feedback_details": fb.details})
    write_jsonl(args.out, rows)
    summary = ", ".join(f"{k}: {v}" for k, v in sorted(channels.items())) or "no records"
    print(f"feedback: {len(rows)} records -> {args.out} ({summary})", file=sys.stderr)
    return 0
