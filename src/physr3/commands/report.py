"""`physr3 report RUN...`: paper-style tables (Markdown, CSV, LaTeX), plots and one HTML page from eval runs."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("runs", nargs="+", help="Eval run folders (each with summary.json).")
    parser.add_argument("--out", help="Output folder (default: FIRST_RUN/report).")


def main(args: argparse.Namespace) -> int:
    from physr3.report.paper_tables import write_report

    out = write_report(args.runs, args.out)
    print(f"report: {out / 'index.html'}")
    return 0
