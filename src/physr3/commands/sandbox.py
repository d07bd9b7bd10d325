"""`physr3 sandbox FILE.py [--timeout S]`: run one Python file in the sandbox and print the JSON result.

The file is copied into a fresh sandbox (see `physr3.feedback.sandbox` for what is contained); the JSON
holds stdout, stderr, exit code, signal, `stopped_by`, wall time and the containment measures in force.
Exit status: 0 when the code ran to completion with status 0, 1 otherwise, 2 for a bad argument.
"""

from __future__ import annotations

import argparse
import json
import os

from physr3.config import FeedbackConfig
from physr3.errors import UserError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="The Python file to run.")
    parser.add_argument("--timeout", type=float, default=FeedbackConfig().sandbox_timeout_s, metavar="S",
                        help="Wall-clock limit in seconds (default: feedback.sandbox_timeout_s).")
    parser.add_argument("--memory-mb", type=int, default=1024, help="Address-space limit (RLIMIT_AS).")
    parser.add_argument("--max-output-bytes", type=int, default=64 * 1024,
                        help="Cap on stdout and on stderr; going over it stops the run.")


def main(args: argparse.Namespace) -> int:
    from physr3.feedback.sandbox import run_code

    if not os.path.isfile(args.file):
        raise UserError(f"{args.file}: no such file")
    if args.timeout <= 0:
        raise UserError(f"--timeout must be positive, got {args.timeout}")
    try:
        with open(args.file, encoding="utf-8") as fh:
            code = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{args.file}: cannot read: {exc}") from exc
    result = run_code(code, timeout_s=args.timeout, memory_mb=args.memory_mb,
                      max_output_bytes=args.max_output_bytes)
    print(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
    return 0 if result.ok else 1
