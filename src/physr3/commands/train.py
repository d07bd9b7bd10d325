"""`physr3 train`: the refine loop (Algorithm 1, Eq. 2) from a Stage 1 adapter; `--resume runs/NAME` continues."""

from __future__ import annotations

import argparse

from physr3.commands._common import add_config_arguments, config_from_args


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", help="Training JSONL with ground truth (sets train.data).")
    parser.add_argument("--sft-adapter", help="Stage 1 adapter folder (sets train.sft_adapter): the policy's start "
                                              "and the frozen KL reference.")
    parser.add_argument("--from-base", action="store_true",
                        help="Train without an SFT adapter: the base model is the start and the reference "
                             "(sets train.from_base).")
    parser.add_argument("--resume", metavar="RUN_DIR", help="Continue from the run folder's latest checkpoint "
                        "(refused when data, SFT adapter or config differ from what it recorded).")
    parser.add_argument("--no-progress", action="store_true", help="No progress bar.")
    add_config_arguments(parser)


def main(args: argparse.Namespace) -> int:
    from pathlib import Path

    from physr3.train.refine_trainer import run_refine

    cfg = config_from_args(args, "train")
    if args.resume:  # the folder given is the run, wherever it has been moved
        cfg.run.output_dir, cfg.run.name = str(Path(args.resume).parent), Path(args.resume).name
    run_dir = run_refine(cfg, progress=not args.no_progress, resume=bool(args.resume))
    print(f"train: policy adapter saved to {run_dir / 'adapter'}; metrics in {run_dir / 'metrics.jsonl'}")
    return 0
