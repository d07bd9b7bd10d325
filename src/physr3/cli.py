"""The `physr3` command: one entry point, one small module per command under `physr3.commands`.

Only the chosen command's module is imported, so `physr3 check-format` does not pay for torch.
A `UserError` (bad file, config value, model path) or an `OSError` (the file system refused) prints one
line and exits 2; `--debug` shows the traceback instead.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from physr3 import __version__
from physr3.errors import UserError

# name -> (module under physr3.commands, one-line help). Each module defines
# `add_arguments(parser)` and `main(args) -> int`.
COMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("demo", "End-to-end demo on the embedded model (what `make demo` runs)."),
    "synth": ("synth", "Generate physics problems with step-level ground truth; --inject: labelled erroneous solutions; --check."),
    "check-format": ("check_format", "Check seven-tag structural compliance of solutions in a JSONL file."),
    "generate": ("generate", "Generate solutions for problems in a JSONL file with the configured model."),
    "sft": ("sft", "Stage 1: LoRA fine-tuning on seven-tag solutions (--baseline: the paper's SFT condition)."),
    "train": ("train", "Stages 2-3: the refine loop (Algorithm 1, Eq. 2), resumable."),
    "dpo": ("dpo", "DPO baseline: TRL DPOTrainer with the IPO loss on top of the SFT adapter, resumable."),
    "verify": ("verify", "Find the first erroneous step of each solution (LLM judge or symbolic) and its reward."),
    "serve": ("serve", "OpenAI-compatible HTTP server (/v1/chat/completions) over a local model."),
    "benchmarks": ("benchmarks", "List the benchmarks with their item counts and answer types."),
    "score-answers": ("score_answers", "Score predictions against gold answers (JSONL {gold, pred, type})."),
    "feedback": ("feedback", "Structured feedback (re-read, retrieved formulas, executed code) for verdicts in a JSONL."),
    "sandbox": ("sandbox", "Run one Python file in the sandbox and print the JSON result."),
    "eval": ("eval", "Evaluate conditions (cot, rag, sft, dpo, ours, self-refine) on benchmarks; resumable."),
    "report": ("report", "Paper-style tables, plots and an HTML page from eval runs."),
    "study": ("study", "Does the method work here? CoT/SFT/SFT-continued/DPO/refine variants on held-out problems, with CIs."),
    "agreement": ("agreement", "Agreement of two verdict/label files: kappa on the error type, step agreement, confusion."),
    "convert": ("convert", "Rewrite worked solutions into the seven-tag format with a teacher model; validated, resumable."),
    "topics": ("topics", "Share of each domain and sub-topic in corpora and benchmarks (sentence embedder), PNG and table."),
    "contamination": ("contamination", "Exact n-gram overlap and semantic near-duplicates between a training file and benchmarks."),
    "scaling": ("scaling", "CoT accuracy per model and benchmark vs parameter count (reuses eval results), table and plot."),
    "config": ("config_cmd", "Print the resolved config, or every key with its help text."),
}


def _top_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="physr3",
        description="Reason, Reward, Refine: step-level error correction for physics reasoning in small LMs.",
        epilog="commands:\n" + "\n".join(f"  {n:<14} {h}" for n, (_, h) in COMMANDS.items())
        + "\n\nRun `physr3 COMMAND --help` for a command's options.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"physr3 {__version__}")
    parser.add_argument("--debug", action="store_true", help="Show tracebacks instead of one-line errors.")
    parser.add_argument("command", nargs="?", choices=list(COMMANDS), metavar="COMMAND")
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv
    if debug:
        argv.remove("--debug")
    top = _top_parser()
    if not argv or argv[0].startswith("-") or argv[0] not in COMMANDS:
        args = top.parse_args(argv)  # handles --help/--version and reports an unknown command
        top.print_help()
        return 2
    name, rest = argv[0], argv[1:]
    module_name, help_text = COMMANDS[name]
    module = importlib.import_module(f"physr3.commands.{module_name}")
    parser = argparse.ArgumentParser(prog=f"physr3 {name}", description=help_text)
    parser.add_argument("--debug", action="store_true", help=argparse.SUPPRESS)
    module.add_arguments(parser)
    args = parser.parse_args(rest)
    args.debug = debug
    try:
        return int(module.main(args) or 0)
    except UserError as exc:
        if debug:
            raise
        print(f"physr3 {name}: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # the file system said no (permissions, a file where a folder must be, disk full)
        if debug:
            raise
        print(f"physr3 {name}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"physr3 {name}: interrupted; outputs written so far are kept (rerun to resume).", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
