"""Tables as plain data first (a titled `Table` of rows), then rendered as Markdown, CSV, LaTeX or HTML.

A cell is a plain value (str, number, None) or a `Stat`: a value with its 95% interval, the number of items
(or errors) it rests on, and a mark for cells that replaced an older run's value. Every format shows the same
thing: value, interval, n (CSV in separate columns so it stays machine-readable: `COL`, `COL_low`,
`COL_high`, `COL_n`). `rank_marks` marks each row's best cell (the paper shades per-row rank; text keeps a
bold best). LaTeX uses `booktabs` (\\toprule, \\midrule, \\bottomrule) inside a `table` float with the
title and caption.
"""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass
class Stat:
    """A measured value (percent, or percentage points) with its 95% interval and n."""

    value: float | None
    low: float | None = None
    high: float | None = None
    n: int | str | None = None
    mark: str = ""  # e.g. "‡": this cell also exists in an older run (explained in the table's notes)
    tooltip: str = ""  # HTML only: where the cell comes from


Cell = str | float | int | Stat | None


@dataclass
class Table:
    """A titled table: `name` is the file stem, `title` and `caption` the human text above it."""

    name: str
    title: str
    caption: str
    header: list[str]
    rows: list[list[Cell]]
    bold_best: bool = False
    higher_is_better: bool = True
    notes: list[str] = field(default_factory=list)  # footnotes under the table (merge marks and the like)


def fmt(value: Cell, digits: int = 1) -> str:
    if isinstance(value, Stat):
        value = value.value
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def fmt_interval(cell: Stat, digits: int = 1) -> str:
    if cell.low is None or cell.high is None:
        return ""
    return f"[{cell.low:.{digits}f}, {cell.high:.{digits}f}]"


def fmt_n(cell: Stat) -> str:
    return "" if cell.n is None else f"n={cell.n}"


def _numeric(value: Cell) -> float | None:
    if isinstance(value, Stat):
        return value.value
    return float(value) if isinstance(value, int | float) else None


def rank_marks(values: Sequence[Cell], higher_is_better: bool = True) -> list[bool]:
    """True for the best value(s) of a row."""
    numeric = [_numeric(v) for v in values]
    real = [v for v in numeric if v is not None]
    if not real:
        return [False] * len(values)
    if len(real) > 1 and len(set(real)) == 1:
        return [False] * len(values)  # a tie across the whole row has no best
    best = max(real) if higher_is_better else min(real)
    return [v is not None and v == best for v in numeric]


def _row_marks(row: Sequence[Cell], bold_best: bool, higher_is_better: bool) -> list[bool]:
    return rank_marks(row[1:], higher_is_better) if bold_best else [False] * (len(row) - 1)


def _md_cell(cell: Cell, bold: bool, digits: int) -> str:
    value = fmt(cell, digits)
    value = f"**{value}**" if bold else value
    if not isinstance(cell, Stat):
        return value
    if cell.value is None:  # nothing measured, but say on how many items: "– n=0"
        return " ".join(x for x in (value, fmt_n(cell)) if x)
    return " ".join(x for x in (value + cell.mark, fmt_interval(cell, digits), fmt_n(cell)) if x)


def markdown(header: Sequence[str], rows: Sequence[Sequence[Cell]], digits: int = 1,
             bold_best: bool = False, higher_is_better: bool = True) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(["---"] + ["--:" for _ in header[1:]]) + "|"]
    for row in rows:
        marks = _row_marks(row, bold_best, higher_is_better)
        cells = [_md_cell(v, m, digits) for v, m in zip(row[1:], marks)]
        lines.append("| " + " | ".join([fmt(row[0])] + cells) + " |")
    return "\n".join(lines) + "\n"


def table_markdown(table: Table, digits: int = 1, heading: str = "##") -> str:
    out = [f"{heading} {table.title}", "", table.caption, "",
           markdown(table.header, table.rows, digits, table.bold_best, table.higher_is_better).rstrip()]
    if table.notes:
        out += [""] + [f"{note}  " for note in table.notes]
    return "\n".join(out) + "\n"


def to_csv(header: Sequence[str], rows: Sequence[Sequence[Cell]]) -> str:
    """Plain cells as they are; a column holding `Stat` cells becomes COL, COL_low, COL_high, COL_n."""
    stat_cols = {i for row in rows for i, v in enumerate(row) if isinstance(v, Stat)}
    out_header: list[str] = []
    for i, h in enumerate(header):
        out_header += [h, f"{h}_low", f"{h}_high", f"{h}_n"] if i in stat_cols else [h]
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(out_header)
    for row in rows:
        line: list = []
        for i, v in enumerate(row):
            if i in stat_cols:
                s = v if isinstance(v, Stat) else Stat(_numeric(v))
                line += ["" if x is None else (round(x, 4) if isinstance(x, float) else x)
                         for x in (s.value, s.low, s.high, s.n)]
            else:
                line.append("" if v is None else v)
        writer.writerow(line)
    return buf.getvalue()


def table_csv(table: Table) -> str:
    return to_csv(table.header, table.rows)


def latex_escape(text: str) -> str:
    out = []
    for ch in str(text):
        if ch in "&%$#_{}":
            out.append("\\" + ch)
        elif ch == "\\":
            out.append(r"\textbackslash{}")
        elif ch == "~":
            out.append(r"\textasciitilde{}")
        elif ch == "^":
            out.append(r"\textasciicircum{}")
        elif ch == "−":
            out.append("$-$")
        elif ch == "‡":
            out.append(r"\ddag{}")
        else:
            out.append(ch)
    return "".join(out)


def _latex_cell(cell: Cell, bold: bool, digits: int) -> str:
    value = fmt(cell, digits)
    value = rf"\textbf{{{value}}}" if bold else value
    if not isinstance(cell, Stat):
        return value
    if cell.value is None:
        return value if cell.n is None else rf"{value} {{\scriptsize $n$={latex_escape(str(cell.n))}}}"
    below = " ".join(x for x in (fmt_interval(cell, digits), f"$n$={cell.n}" if cell.n is not None else "") if x)
    value += latex_escape(cell.mark)
    if not below:
        return value
    # a two-line cell without extra packages: a nested one-column tabular
    return rf"\begin{{tabular}}[t]{{@{{}}r@{{}}}}{value}\\{{\scriptsize {below}}}\end{{tabular}}"


def latex(header: Sequence[str], rows: Sequence[Sequence[Cell]], digits: int = 1, bold_best: bool = True,
          higher_is_better: bool = True) -> str:
    """A booktabs `tabular` (needs \\usepackage{booktabs})."""
    lines = [r"\begin{tabular}{l" + "r" * (len(header) - 1) + "}", r"\toprule",
             " & ".join(latex_escape(h) for h in header) + r" \\", r"\midrule"]
    for row in rows:
        marks = _row_marks(row, bold_best, higher_is_better)
        cells = [_latex_cell(v, m, digits) for v, m in zip(row[1:], marks)]
        lines.append(" & ".join([latex_escape(fmt(row[0]))] + cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


def table_latex(table: Table, digits: int = 1) -> str:
    """The table as a LaTeX float: \\caption{title. caption}, \\label{tab:NAME}, booktabs rules."""
    body = latex(table.header, table.rows, digits, table.bold_best, table.higher_is_better)
    notes = "".join(rf"\par{{\footnotesize {latex_escape(n)}}}" + "\n" for n in table.notes)
    return ("% needs \\usepackage{booktabs}\n\\begin{table}[t]\n\\centering\n"
            f"\\caption{{\\textbf{{{latex_escape(table.title)}.}} {latex_escape(table.caption)}}}\n"
            f"\\label{{tab:{table.name}}}\n\\small\n{body}{notes}\\end{{table}}\n")


def _html_cell(cell: Cell, bold: bool, digits: int) -> str:
    cls = " class='best'" if bold else ""
    if not isinstance(cell, Stat):
        return f"<td{cls}>{html.escape(fmt(cell, digits))}</td>"
    title = f" title='{html.escape(cell.tooltip, quote=True)}'" if cell.tooltip else ""
    if cell.value is None:
        n = f"<span class='n'>{html.escape(fmt_n(cell))}</span>" if cell.n is not None else ""
        return f"<td{cls}{title}><span class='v'>–</span>{n}</td>"
    parts = [f"<span class='v'>{html.escape(fmt(cell, digits))}{html.escape(cell.mark)}</span>"]
    if fmt_interval(cell, digits):
        parts.append(f"<span class='ci'>{html.escape(fmt_interval(cell, digits))}</span>")
    if cell.n is not None:
        parts.append(f"<span class='n'>{html.escape(fmt_n(cell))}</span>")
    return f"<td{cls}{title}>{''.join(parts)}</td>"


def table_html(table: Table, digits: int = 1, anchor: str | None = None) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in table.header)
    body = []
    for row in table.rows:
        marks = _row_marks(row, table.bold_best, table.higher_is_better)
        cells = "".join(_html_cell(v, m, digits) for v, m in zip(row[1:], marks))
        body.append(f"<tr><th scope='row'>{html.escape(fmt(row[0]))}</th>{cells}</tr>")
    notes = "".join(f"<p class='note'>{html.escape(n)}</p>" for n in table.notes)
    return (f"<section id='{anchor or table.name}'><h2>{html.escape(table.title)}</h2>"
            f"<p class='caption'>{html.escape(table.caption)}</p><div class='scroll'><table>"
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>{notes}</section>")


def conditions_markdown(conditions: dict, heading: str = "###") -> list[str]:
    """Markdown lines for evaluated conditions as recorded in an eval run's conditions.json
    ({name: {"description", "details"}}): a heading, the description, the exact prompts and hyperparameters."""
    out: list[str] = []
    for name, info in conditions.items():
        out += [f"{heading} {name}", "", info["description"], ""]
        if info.get("details"):
            out += ["```", str(info["details"]).strip(), "```", ""]
    return out
