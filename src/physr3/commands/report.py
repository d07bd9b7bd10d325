"""`physr3 report RUN...`: eval runs merged into one row per model; titled tables with n and 95% intervals
(Markdown, CSV, LaTeX, HTML), plots, and one self-contained HTML page."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("runs", nargs="+", help="Eval run folders (each with summary.json).")
    parser.add_argument("--out", help="Output folder (default: FIRST_RUN/report).")
    parser.add_argument("--train", help="Refine training run folder (its metrics.jsonl) for the transition and "
                                        "learning-curve figures (default: found next to the ours adapter).")


def main(args: argparse.Namespace) -> int:
    from physr3.report.paper_tables import write_report

    out = write_report(args.runs, args.out, args.train)
    print(f"report: {out / 'index.html'}")
    return 0
