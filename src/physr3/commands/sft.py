"""`physr3 sft`: Stage 1 LoRA SFT on seven-tag solutions (or, with --baseline, the paper's SFT condition)."""

from __future__ import annotations

import argparse

from physr3.commands._common import add_config_arguments, config_from_args


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", help="Training JSONL (sets sft.data; with --baseline sft_baseline.data).")
    parser.add_argument("--eval-data", help="Held-out JSONL for compliance and accuracy (sets sft.eval_data; "
                                            "with --baseline sft_baseline.eval_data).")
    parser.add_argument("--baseline", action="store_true",
                        help="Use the sft_baseline section (the paper's SFT comparison condition).")
    parser.add_argument("--resume", metavar="RUN_DIR", help="Continue an interrupted run from its folder.")
    add_config_arguments(parser)


def main(args: argparse.Namespace) -> int:
    from physr3.train.sft import run_sft

    section = "sft_baseline" if args.baseline else "sft"
    cfg = config_from_args(args, "sft --baseline" if args.baseline else "sft")
    run_dir = run_sft(cfg, section, resume=bool(args.resume))
    print(f"sft: adapter saved to {run_dir / 'adapter'}")
    return 0
