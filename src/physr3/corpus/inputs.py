"""Question texts from a benchmark name or a JSONL file, for `physr3 topics` and `physr3 contamination`.

A spec is a benchmark name (`physr3 benchmarks`), `NAME=FILE` (a user-supplied benchmark such as
physicsqa, or any JSONL file shown under the label NAME), or a path to a JSONL file whose lines carry the question in `question` (or `problem`, as the
OpenStax worked examples do) and optionally `id` (default: the OpenStax `module_id/example_id`, else the
line number) and `domain`. A training corpus needs no `answer` here, unlike a benchmark file.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from physr3.errors import InputFormatError, UserError
from physr3.eval.benchmarks import BENCHMARKS, load_benchmark, parse_spec
from physr3.problems import iter_jsonl

QUESTION_FIELDS = ("question", "problem")


@dataclass
class Item:
    id: str
    text: str
    domain: str = ""


def source_id(row: dict) -> object | None:
    """A line's id: `id`, else OpenStax's `module_id/example_id` (example ids repeat across modules), else None."""
    if "id" in row:
        return row["id"]
    if "example_id" in row:
        return f"{row['module_id']}/{row['example_id']}" if "module_id" in row else row["example_id"]
    return None


def read_question_file(path: str) -> list[Item]:
    """Items of a JSONL file; a line without a question string raises InputFormatError (file, line, field)."""
    items: list[Item] = []
    seen: dict[str, int] = {}
    for lineno, row in iter_jsonl(path):
        key = next((k for k in QUESTION_FIELDS if k in row), None)
        if key is None:
            raise InputFormatError(path, lineno, "question", "required field is missing (nor problem)")
        if not isinstance(row[key], str) or not row[key].strip():
            raise InputFormatError(path, lineno, key, "expected a non-empty string")
        rid = source_id(row)
        rid = lineno if rid is None else rid
        if not isinstance(rid, str | int) or isinstance(rid, bool):
            raise InputFormatError(path, lineno, "id", f"expected a string or integer, got {type(rid).__name__}")
        rid = str(rid)
        if rid in seen:
            raise InputFormatError(path, lineno, "id", f"duplicate id {rid!r} (first on line {seen[rid]})")
        seen[rid] = lineno
        domain = row.get("domain") if isinstance(row.get("domain"), str) else ""
        items.append(Item(rid, row[key], domain))
    return items


def load_items(spec: str) -> tuple[str, list[Item]]:
    """(display name, items) of a benchmark name, NAME=FILE, or a JSONL path."""
    name, path = parse_spec(spec)
    if name in BENCHMARKS:
        return name, [Item(p.id, p.question, p.domain) for p in load_benchmark(spec)]
    if path is not None:  # LABEL=FILE: any JSONL shown under LABEL (e.g. corpus=runs/convert/out.jsonl)
        return name, read_question_file(path)
    if os.path.exists(spec) or spec.endswith(".jsonl"):
        return Path(spec).stem, read_question_file(spec)
    raise UserError(f"{spec!r} is neither a benchmark ({', '.join(BENCHMARKS)}) nor a JSONL file")
