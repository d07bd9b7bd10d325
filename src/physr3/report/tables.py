"""Tables as plain data first (header + rows), then rendered as Markdown, CSV or LaTeX.

`rank_marks` marks each row's best cell (the paper shades per-row rank; text keeps a bold best).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

Cell = str | float | int | None


def fmt(value: Cell, digits: int = 1) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def rank_marks(values: Sequence[float | None], higher_is_better: bool = True) -> list[bool]:
    """True for the best value(s) of a row."""
    real = [v for v in values if v is not None]
    if not real:
        return [False] * len(values)
    best = max(real) if higher_is_better else min(real)
    return [v is not None and v == best for v in values]


def markdown(header: Sequence[str], rows: Sequence[Sequence[Cell]], digits: int = 1,
             bold_best: bool = False, higher_is_better: bool = True) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    for row in rows:
        label, values = row[0], list(row[1:])
        numeric = [v if isinstance(v, int | float) else None for v in values]
        marks = rank_marks(numeric, higher_is_better) if bold_best else [False] * len(values)
        cells = [f"**{fmt(v, digits)}**" if m else fmt(v, digits) for v, m in zip(values, marks)]
        lines.append("| " + " | ".join([fmt(label)] + cells) + " |")
    return "\n".join(lines) + "\n"


def to_csv(header: Sequence[str], rows: Sequence[Sequence[Cell]]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(header)
    for row in rows:
        writer.writerow(["" if v is None else v for v in row])
    return buf.getvalue()


def latex(header: Sequence[str], rows: Sequence[Sequence[Cell]], digits: int = 1, bold_best: bool = True) -> str:
    def esc(text: str) -> str:
        return text.replace("&", r"\&").replace("%", r"\%").replace("_", r"\_")

    lines = [r"\begin{tabular}{l" + "r" * (len(header) - 1) + "}", r"\toprule",
             " & ".join(esc(h) for h in header) + r" \\", r"\midrule"]
    for row in rows:
        values = list(row[1:])
        marks = rank_marks([v if isinstance(v, int | float) else None for v in values]) if bold_best else \
            [False] * len(values)
        cells = [rf"\textbf{{{fmt(v, digits)}}}" if m else fmt(v, digits) for v, m in zip(values, marks)]
        lines.append(" & ".join([esc(fmt(row[0]))] + cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


def conditions_markdown(conditions: dict, heading: str = "###") -> list[str]:
    """Markdown lines for evaluated conditions as recorded in an eval run's conditions.json
    ({name: {"description", "details"}}): a heading, the description, the exact prompts and hyperparameters."""
    out: list[str] = []
    for name, info in conditions.items():
        out += [f"{heading} {name}", "", info["description"], ""]
        if info.get("details"):
            out += ["```", str(info["details"]).strip(), "```", ""]
    return out
