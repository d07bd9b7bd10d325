"""Problem records and JSONL I/O that fails loudly and never leaves a half-written file.

Every dataset in physr3 — generated problems, benchmarks, error-injected solutions, verdicts — is JSON
Lines. Reading names the file, the 1-based line and the field of the first malformed record
(`InputFormatError`). Writing goes to a temporary file in the same folder and is renamed into place, so
an interrupted or failed write leaves the previous file (or none) rather than a truncated one. Outputs
that grow as work proceeds (evaluation results) use `JsonlAppender`, which flushes each line so a
resumed run can skip what is already there.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from physr3.errors import InputFormatError, UserError
from physr3.inputs import MAX_LINE_BYTES, iter_json_lines

ANSWER_TYPES = ("mcq", "mcq_multi", "integer", "numeric", "numeric_unit")
DOMAINS = ("Mechanics", "Electromagnetism", "Thermodynamics", "Waves & Optics", "Modern Physics")


@dataclass
class Problem:
    """One physics problem with its gold answer and, when known, a ground-truth solution.

    `options` is a list of option texts for multiple-choice items (letters A, B, ... by position).
    `answer` is the gold answer as text: a letter, letters ("ACD") or a value with unit ("5.0 m/s^2").
    `solution` is the ground-truth seven-tag text; `ground_truth` the optional step-level record that
    the offline symbolic verifier checks against. Unknown keys in a JSONL line are kept in `extra`.
    """

    id: str
    question: str
    answer: str
    answer_type: str = "numeric_unit"
    domain: str = ""
    family: str = ""
    options: list[str] | None = None
    solution: str | None = None
    ground_truth: dict[str, Any] | None = None
    source: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        row = {k: v for k, v in asdict(self).items() if k != "extra"}
        row.update(self.extra)
        return row

    @classmethod
    def from_json(cls, row: dict[str, Any], path: str = "<memory>", line: int = 0) -> Problem:
        def need(name: str, kind: type | tuple[type, ...]) -> Any:
            if name not in row:
                raise InputFormatError(path, line, name, "required field is missing")
            value = row[name]
            if not isinstance(value, kind):
                raise InputFormatError(path, line, name, f"expected {_kind_name(kind)}, got {type(value).__name__}")
            return value

        pid = need("id", (str, int))
        question = need("question", str)
        answer = need("answer", (str, int, float))
        answer_type = row.get("answer_type", "numeric_unit")
        if answer_type not in ANSWER_TYPES:
            raise InputFormatError(path, line, "answer_type", f"{answer_type!r} is not one of {', '.join(ANSWER_TYPES)}")
        options = row.get("options")
        if options is not None and not (isinstance(options, list) and all(isinstance(o, str) for o in options)):
            raise InputFormatError(path, line, "options", "expected a list of strings or null")
        for name in ("solution", "domain", "family", "source"):
            if row.get(name) is not None and not isinstance(row[name], str):
                raise InputFormatError(path, line, name, f"expected a string, got {type(row[name]).__name__}")
        gt = row.get("ground_truth")
        if gt is not None and not isinstance(gt, dict):
            raise InputFormatError(path, line, "ground_truth", "expected an object or null")
        known = {f.name for f in fields(cls)}
        return cls(
            id=str(pid),
            question=question,
            answer=str(answer),
            answer_type=answer_type,
            domain=row.get("domain") or "",
            family=row.get("family") or "",
            options=options,
            solution=row.get("solution"),
            ground_truth=gt,
            source=row.get("source") or "",
            extra={k: v for k, v in row.items() if k not in known},
        )


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {"str": "a string", "int": "an integer", "float": "a number", "dict": "an object", "list": "a list"}
    return " or ".join(names.get(k.__name__, k.__name__) for k in kinds)


def iter_jsonl(path: str | os.PathLike, *, allow_empty: bool = False) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (line number, object) for each non-blank line; bad input raises UserError naming the file.

    The checks (missing file, directory, non-UTF-8 bytes, invalid JSON, non-object values, over-long
    lines, and an empty file unless `allow_empty`) are `physr3.inputs.iter_json_lines`'.
    """
    return iter_json_lines(path, allow_empty=allow_empty)


def require_fields(row: dict[str, Any], names: Iterable[str], path: str, line: int) -> None:
    """Raise InputFormatError naming the first missing field."""
    for name in names:
        if name not in row:
            raise InputFormatError(path, line, name, "required field is missing")


def read_problems(path: str | os.PathLike) -> list[Problem]:
    """Every problem of a JSONL file; an empty file is refused (see `iter_jsonl`)."""
    return [Problem.from_json(row, str(path), lineno) for lineno, row in iter_jsonl(path)]


def check_output_path(path: Path) -> None:
    """An output path must not be a directory or sit below a file (a clear UserError, not an OSError)."""
    if path.is_dir():
        raise UserError(f"{path}: is a directory, expected an output file path")
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise UserError(f"{path}: cannot create: {parent} is a file, not a folder")
            break


def write_jsonl(path: str | os.PathLike, rows: Iterable[dict[str, Any] | Problem]) -> int:
    """Write rows atomically (temp file + rename); returns the number of lines written."""
    path = Path(path)
    check_output_path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    count = 0
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            for row in rows:
                obj = row.to_json() if isinstance(row, Problem) else row
                fh.write(json.dumps(obj, ensure_ascii=False) + "\n")
                count += 1
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return count


def write_text_atomic(path: str | os.PathLike, text: str) -> None:
    """Write a text file atomically (temp file + rename)."""
    path = Path(path)
    check_output_path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


class JsonlAppender:
    """Append-only JSONL output for long runs: each line is flushed, so an interrupted run can resume.

    A torn last line (the process died mid-write: `{...` without a newline and not valid JSON) is dropped
    when the file is reopened. Any other line that is not a JSON object means the file is not an output
    of this kind (a wrong `--out`): that is refused with `InputFormatError` and the file is left untouched.
    """

    def __init__(self, path: str | os.PathLike, key: str = "id"):
        self.path = Path(path)
        self.key = key
        check_output_path(self.path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.rows: list[dict[str, Any]] = []
        needs_newline = False
        if self.path.exists():
            good_bytes = 0
            name = str(self.path)
            with open(self.path, "rb") as fh:
                for lineno, raw in enumerate(iter(lambda: fh.readline(MAX_LINE_BYTES + 1), b""), 1):
                    torn = not raw.endswith(b"\n")
                    try:
                        row = json.loads(raw) if len(raw) <= MAX_LINE_BYTES else None
                    except (json.JSONDecodeError, UnicodeDecodeError):
                        row = None
                    if not isinstance(row, dict):
                        if torn and raw.startswith(b"{") and fh.read(1) == b"":
                            break  # the last line, cut short by an interruption
                        raise InputFormatError(name, lineno, None, "this existing output file holds a line that is "
                                               "not a JSON object; it is left untouched: pass another --out, or "
                                               "move the file away to start afresh")
                    self.rows.append(row)
                    good_bytes += len(raw)
                    needs_newline = torn
            with open(self.path, "r+b") as fh:
                fh.truncate(good_bytes)
        self.done = {v for row in self.rows if isinstance(v := row.get(key), str | int | float | None)}
        self._fh = open(self.path, "a", encoding="utf-8")
        if needs_newline:
            self._fh.write("\n")

    def append(self, row: dict[str, Any]) -> None:
        self._fh.write(json.dumps(row, ensure_ascii=False) + "\n")
        self._fh.flush()
        self.rows.append(row)
        self.done.add(row.get(self.key))

    def close(self) -> None:
        self._fh.close()

    def __enter__(self) -> JsonlAppender:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
