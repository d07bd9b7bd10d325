"""`physr3 agreement A.jsonl B.jsonl [--json]`: kappa on the error type, step agreement, confusion matrix.

Either side may be `physr3 verify` output or a labels file (`label_error_step` / `label_error_type`);
`--a-fields label` reads a verify output's copied labels instead of its verdicts, so one verify output
against its own labels is `physr3 agreement out.jsonl out.jsonl --b-fields label`. See
physr3.eval.agreement for what is computed.
"""

from __future__ import annotations

import argparse
import json

from physr3.eval.agreement import SOURCES, agreement, format_report, read_side


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("a", help="JSONL verdicts or labels (side A: the confusion matrix's rows).")
    parser.add_argument("b", help="JSONL verdicts or labels (side B: the columns).")
    for side in ("a", "b"):
        parser.add_argument(f"--{side}-fields", choices=SOURCES, default="auto",
                            help=f"Read side {side.upper()} from error_step/error_type (verdict), "
                                 "label_error_step/label_error_type (label), or auto: verdict fields when "
                                 "present, else label fields.")
    parser.add_argument("--json", action="store_true",
                        help='Print one object {"n", "kappa_type", "step_exact", "step_within1", "confusion"}.')


def main(args: argparse.Namespace) -> int:
    a, b = read_side(args.a, args.a_fields), read_side(args.b, args.b_fields)
    result = agreement(a, b)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(format_report(result, args.a, args.b))
    return 0
