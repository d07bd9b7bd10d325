"""`physr3 sandbox FILE.py [--timeout S]`: run one Python file in the sandbox and print the JSON result.

The file is copied into a fresh sandbox (see `physr3.feedback.sandbox` for what is contained); the JSON
holds stdout, stderr, exit code, signal, `stopped_by`, wall time and the containment measures in force.
Exit status: 0 when the code ran to completion with status 0, 1 otherwise, 2 for a bad argument or a
file that is missing, not UTF-8, empty or larger than 1 MiB.
"""

from __future__ import annotations

import argparse
import json

from physr3.config import FeedbackConfig
from physr3.errors import UserError
from physr3.inputs import read_text

MAX_CODE_BYTES = 2**20  # a model's program is a few kB; a bigger file is not what this command is for


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="The Python file to run.")
    parser.add_argument("--timeout", type=float, default=FeedbackConfig().sandbox_timeout_s, metavar="S",
                        help="Wall-clock limit in seconds (default: feedback.sandbox_timeout_s).")
    parser.add_argument("--memory-mb", type=int, default=1024, help="Address-space limit (RLIMIT_AS).")
    parser.add_argument("--max-output-bytes", type=int, default=64 * 1024,
                        help="Cap on stdout and on stderr; going over it stops the run.")


def main(args: argparse.Namespace) -> int:
    from physr3.feedback.sandbox import run_code

    if args.timeout <= 0:
        raise UserError(f"--timeout must be positive, got {args.timeout}")
    code = read_text(args.file, what="Python file", max_bytes=MAX_CODE_BYTES)  # empty, binary, huge: exit 2
    result = run_code(code, timeout_s=args.timeout, memory_mb=args.memory_mb,
                      max_output_bytes=args.max_output_bytes)
    print(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
    return 0 if result.ok else 1
