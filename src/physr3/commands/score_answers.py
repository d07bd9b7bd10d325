"""`physr3 score-answers FILE.jsonl`: score predictions against gold answers, one JSON verdict per line.

Input lines: `{"gold": ..., "pred": ..., "type": "mcq|mcq_multi|integer|numeric|numeric_unit"}`, with
optional `options` (option texts, so a quoted option maps to its letter) and `id` (echoed back).
`pred` may be a short answer or a whole model response (see `physr3.eval.answers`).
Output: `{"correct", "score", "extracted", "reason", "detail", "method"}` per line on stdout; a summary on
stderr. Every line is checked before any is scored, so a malformed file prints only the error
(`FILE:LINE: field 'NAME': ...`, exit status 2); an empty file is refused the same way.
"""

from __future__ import annotations

import argparse
import json
import sys

from physr3.errors import InputFormatError
from physr3.eval.answers import score, summarize
from physr3.problems import ANSWER_TYPES, iter_jsonl


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help='JSONL with lines {"gold": "5.0 m/s^2", "pred": "...", "type": "numeric_unit"}')
    parser.add_argument("--rel-tol", type=float, default=0.01,
                        help="Relative tolerance for numeric_unit answers (default 0.01 = 1%%).")
    parser.add_argument("--allow-missing-unit", action="store_true",
                        help="Read a bare number as being in the gold answer's unit (default: wrong, 'missing_unit').")


def _check(path: str, line: int, row: dict) -> dict:
    for name in ("gold", "pred", "type"):
        if name not in row:
            raise InputFormatError(path, line, name, "required field is missing")
    gold = row["gold"]
    if isinstance(gold, list) and all(isinstance(g, str) for g in gold):
        gold = "".join(gold)  # SciEval style ["B"]
    if isinstance(gold, bool) or not isinstance(gold, str | int | float):
        raise InputFormatError(path, line, "gold", f"expected a string or number, got {type(gold).__name__}")
    if not isinstance(row["pred"], str):
        raise InputFormatError(path, line, "pred", f"expected a string, got {type(row['pred']).__name__}")
    if row["type"] not in ANSWER_TYPES:
        raise InputFormatError(path, line, "type", f"{row['type']!r} is not one of {', '.join(ANSWER_TYPES)}")
    options = row.get("options")
    if options is not None and not (isinstance(options, list) and all(isinstance(o, str) for o in options)):
        raise InputFormatError(path, line, "options", "expected a list of strings")
    return {"gold": str(gold), "pred": row["pred"], "type": row["type"], "options": options, "id": row.get("id")}


def main(args: argparse.Namespace) -> int:
    items = [(line, _check(args.file, line, row)) for line, row in iter_jsonl(args.file)]
    results = []
    for line, item in items:
        try:
            result = score(item["gold"], item["pred"], item["type"], args.rel_tol, options=item["options"],
                           allow_missing_unit=args.allow_missing_unit)
        except ValueError as exc:  # an unreadable gold answer
            raise InputFormatError(args.file, line, "gold", str(exc)) from None
        results.append((item["id"], result))
    for pid, result in results:
        row = ({"id": pid} if pid is not None else {}) | result.to_json()
        print(json.dumps(row, ensure_ascii=False))
    s = summarize(r for _, r in results)
    share = f" ({100 * s['accuracy']:.1f}%)" if s["n"] else ""
    reasons = ", ".join(f"{k} {v}" for k, v in sorted(s["reasons"].items()))
    print(f"score-answers: {s['correct']}/{s['n']} correct{share}, mean score {s['mean_score']:.3f}, "
          f"no answer {s['no_answer']}" + (f" [{reasons}]" if reasons else ""), file=sys.stderr)
    return 0
