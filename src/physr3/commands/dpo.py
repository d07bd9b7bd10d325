"""`physr3 dpo`: the DPO baseline — TRL DPOTrainer with the IPO loss on top of the SFT adapter (section 4.3)."""

from __future__ import annotations

import argparse

from physr3.commands._common import add_config_arguments, config_from_args


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", help="JSONL of preference pairs, injected rows or problems with ground truth "
                                       "(sets dpo.data).")
    parser.add_argument("--sft-adapter", help="SFT adapter folder: the policy's start and the frozen reference "
                                              "(sets dpo.sft_adapter).")
    parser.add_argument("--resume", metavar="RUN_DIR", help="Continue an interrupted run from its folder.")
    add_config_arguments(parser)


def main(args: argparse.Namespace) -> int:
    from physr3.train.dpo import run_dpo

    cfg = config_from_args(args, "dpo")
    if not cfg.dpo.sft_adapter:
        print("dpo: warning: no SFT adapter (--sft-adapter): training a fresh LoRA against the base model, "
              "not the paper's DPO-on-SFT baseline")
    run_dir = run_dpo(cfg, resume=bool(args.resume))
    print(f"dpo: adapter saved to {run_dir / 'adapter'} (use eval.dpo_adapter={run_dir / 'adapter'})")
    return 0
