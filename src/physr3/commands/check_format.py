"""`physr3 check-format FILE.jsonl`: one JSON verdict per `{"id", "solution"}` line, summary on stderr.

A file that is missing, empty, not UTF-8 or not JSON Lines is refused with one line naming it (exit 2);
a malformed line stops the run at that line, after the verdicts of the lines before it were printed.
"""

from __future__ import annotations

import argparse
import json
import sys

from physr3.errors import InputFormatError
from physr3.problems import iter_jsonl
from physr3.solution import validate


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="JSONL with lines {\"id\": ..., \"solution\": \"...\"}")


def main(args: argparse.Namespace) -> int:
    total = compliant = 0
    for lineno, row in iter_jsonl(args.file):
        if "solution" not in row:
            raise InputFormatError(args.file, lineno, "solution", "required field is missing")
        if not isinstance(row["solution"], str):
            raise InputFormatError(args.file, lineno, "solution", "expected a string")
        report = validate(row["solution"])
        print(json.dumps({"id": row.get("id", lineno), **report.to_json()}), flush=True)
        total += 1
        compliant += report.compliant
    share = f" ({100 * compliant / total:.1f}%)" if total else ""
    print(f"check-format: {compliant}/{total} compliant{share}", file=sys.stderr)
    return 0
