"""Benchmarks as `list[Problem]`: a small registry of loaders over the data the project ships in `data/`.

`@register_benchmark("name")` adds a loader to `BENCHMARKS` (a `physr3.registry.Registry`: a duplicate name
is refused); `load_benchmark(name)` returns its problems and an unknown name lists the valid ones. A loader
takes an optional `path` (a file overriding the shipped data; required where the data is not shipped).

| name         | items | source (see data/README.md)                                                 |
|--------------|-------|-----------------------------------------------------------------------------|
| jeebench     | 123   | JEEBench physics: MCQ -> mcq, MCQ(multiple) -> mcq_multi, Integer, Numeric  |
| mmlu-hs      | 173   | MMLU high_school_physics, test + val + dev                                  |
| mmlu-college | 118   | MMLU college_physics, test + val + dev (the paper's 118)                    |
| scieval      | 164   | SciEval static valid set, physics                                           |
| physicsqa    | user  | not public: a JSONL file you supply (format below)                          |
| synth-test   | user  | a generated test set (`physr3 synth`), JSONL                                |

Choices, stated once:
- Question text: for multiple-choice items `Problem.question` is the stem without the options and
  `Problem.options` holds the option texts (A, B, ... by position); `physr3.prompts.render_question`
  renders both.
  JEEBench items whose options cannot be parsed keep the full text and `options=None` (none today).
- MMLU duplicates are kept (the paper counts all rows) and flagged in `extra`: `duplicate_of` names the
  first identical row (same stem, options and gold); `same_stem_as` names an earlier row with the same
  stem but different options. `drop_duplicates` removes the `duplicate_of` rows. The paper's 170 for
  high-school physics matches no split combination; we report all 173 rows.
- PhysicsQA and generated sets: JSONL in the `Problem` format (one object per line: `id`, `question`,
  `answer`, optional `answer_type` (default numeric_unit), `options`, `domain`, `solution`, ...).
  The path comes from the `path` argument, a `name=FILE` spec (`eval.benchmarks=[physicsqa=pqa.jsonl]`)
  or an environment variable (`PHYSR3_PHYSICSQA`, `PHYSR3_SYNTH_TEST`). A path to any `.jsonl` file
  also works as a benchmark name.

Data location: `physr3.paths.data_dir()` — `$PHYSR3_DATA_DIR` if set, else the repository's `data/`
folder next to `src/` (a clone or an editable install). The data is not bundled into wheels today: part
of it is CC BY-NC-SA (OpenStax) while the package is MIT, and the repository keeps one copy.
"""

from __future__ import annotations

import contextlib
import csv
import io
import os
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from physr3.errors import UserError
from physr3.inputs import read_json, read_text
from physr3.paths import data_dir
from physr3.problems import Problem, read_problems
from physr3.registry import Registry

LETTERS = "ABCDEFGH"


def data_path(*parts: str) -> Path:
    """A file under the data folder; a clear error when it is missing."""
    path = data_dir().joinpath(*parts)
    if not path.exists():
        raise UserError(f"data file missing: {path}")
    return path


# ---- registry ------------------------------------------------------------------------------------

Loader = Callable[..., list[Problem]]


@dataclass(frozen=True)
class Benchmark:
    """A registered benchmark: its loader, a one-line description, and where a user file comes from."""

    name: str
    loader: Loader
    description: str
    env: str | None = None  # environment variable naming the file, for user-supplied sets

    def load(self, path: str | os.PathLike | None = None) -> list[Problem]:
        return self.loader(path=path)


BENCHMARKS: Registry[Benchmark] = Registry("benchmark", hint=" (or a path to a .jsonl file)")


def register_benchmark(name: str, description: str = "", env: str | None = None) -> Callable[[Loader], Loader]:
    """Decorator: register `loader(path=None) -> list[Problem]` under `name`; a duplicate name is an error."""

    def wrap(loader: Loader) -> Loader:
        doc = description or ((loader.__doc__ or "").strip().splitlines() or [""])[0]
        BENCHMARKS.register(name, Benchmark(name, loader, doc, env))
        return loader

    return wrap


def benchmark_names() -> list[str]:
    return BENCHMARKS.names()


def get_benchmark(name: str) -> Benchmark:
    return BENCHMARKS.get(name)


def parse_spec(spec: str) -> tuple[str, str | None]:
    """`"name"` -> (name, None); `"name=FILE"` -> (name, FILE)."""
    name, sep, path = spec.partition("=")
    return name.strip(), (path.strip() or None) if sep else None


def load_benchmark(spec: str, path: str | os.PathLike | None = None) -> list[Problem]:
    """Problems of a benchmark given as `name`, `name=FILE` or a path to a `.jsonl` file."""
    name, spec_path = parse_spec(spec)
    if name not in BENCHMARKS and name.endswith(".jsonl") and spec_path is None:
        return load_jsonl_set(name, source=Path(name).stem)
    return get_benchmark(name).load(path if path is not None else spec_path)


def type_counts(problems: list[Problem]) -> dict[str, int]:
    """Items per answer type, in a fixed order."""
    counts = Counter(p.answer_type for p in problems)
    order = ("mcq", "mcq_multi", "integer", "numeric", "numeric_unit")
    return {t: counts[t] for t in order if counts[t]}


def drop_duplicates(problems: list[Problem]) -> list[Problem]:
    """Problems without the rows flagged `duplicate_of` (exact repeats of an earlier row)."""
    return [p for p in problems if "duplicate_of" not in p.extra]


# ---- user-supplied JSONL sets --------------------------------------------------------------------


def _user_path(path: str | os.PathLike | None, env: str, name: str, hint: str) -> Path:
    chosen = path or os.environ.get(env)
    if not chosen:
        raise UserError(f"benchmark {name!r} needs a file: pass {name}=FILE.jsonl or set {env}=FILE.jsonl ({hint})")
    chosen = Path(chosen).expanduser()
    if not chosen.exists():
        raise UserError(f"benchmark {name!r}: file not found: {chosen}")
    return chosen  # a directory, bad bytes, an empty file: refused by the reader, naming the file


def load_jsonl_set(path: str | os.PathLike, source: str) -> list[Problem]:
    """A JSONL file of `Problem` records; `source` is filled in where a line leaves it empty."""
    problems = read_problems(path)
    for p in problems:
        p.source = p.source or source
    return problems


def _json_items(source: Path, kind: str) -> list[dict]:
    """The objects of a JSON array file (JEEBench, SciEval); anything else is a UserError naming the file."""
    rows = read_json(source, what=f"{kind} JSON file", max_bytes=256 * 2**20, expect=list)
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            raise UserError(f"{source}: item {i}: expected a JSON object, got {type(row).__name__}")
    return rows


@contextlib.contextmanager
def _record(source: Path, i: int, kind: str) -> Iterator[None]:
    """The loaders index a record's fields directly: a KeyError or TypeError while reading item i is that
    item's fault (a user file in another format), reported as one line naming the file and the item."""
    try:
        yield
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        what = f"field {exc.args[0]!r} is missing" if isinstance(exc, KeyError) else f"{type(exc).__name__}: {exc}"
        raise UserError(f"{source}: item {i}: not a {kind} record ({what})") from None


# ---- JEEBench ------------------------------------------------------------------------------------

JEEBENCH_TYPES = {"MCQ": "mcq", "MCQ(multiple)": "mcq_multi", "Integer": "integer", "Numeric": "numeric"}
# An option marker at the start of a line: (A), [A], $[\mathrm{A}]$ or "$[\mathrm{A}] \quad x$".
_JEE_OPTION = re.compile(r"^[ \t]*(\$?)[ \t]*[(\[][ \t]*(?:\\mathrm\{)?([A-D])\}?[ \t]*[)\]][ \t]*", re.M)


def split_jee_options(text: str) -> tuple[str, list[str]] | None:
    """(stem, [A, B, C, D] option texts) from a JEEBench question, or None unless A-D appear in order."""
    markers = list(_JEE_OPTION.finditer(text))
    for start in range(len(markers) - 3):
        run = markers[start:start + 4]
        if "".join(m.group(2) for m in run) != "ABCD":
            continue
        options = []
        for i, m in enumerate(run):
            end = run[i + 1].start() if i + 1 < len(run) else len(text)
            body = text[m.end():end].strip()
            body = re.sub(r"^\\quad\s*", "", body)
            if m.group(1):  # the marker sat inside math: reopen it
                body = "$" + body if body.count("$") % 2 else body
            options.append(body.strip())
        return text[:run[0].start()].rstrip(), options
    return None


@register_benchmark("jeebench", "JEEBench physics (JEE Advanced 2016-2023): mcq, mcq_multi, integer, numeric")
def load_jeebench(path: str | os.PathLike | None = None) -> list[Problem]:
    """JEEBench physics items (123)."""
    source = Path(path) if path else data_path("jeebench", "dataset_phy.json")
    problems = []
    for i, row in enumerate(_json_items(source, "JEEBench")):
        if row.get("subject") != "phy":
            continue
        with _record(source, i, "JEEBench"):
            problems.append(_jee_problem(row))
    return problems


def _jee_problem(row: dict) -> Problem:
    answer_type = JEEBENCH_TYPES[row["type"]]
    question, options = row["question"], None
    if answer_type in ("mcq", "mcq_multi"):
        split = split_jee_options(question)
        if split is not None:
            question, options = split
    year, paper = re.search(r"(\d{4}) Paper (\d)", row["description"]).groups()
    return Problem(
        id=f"jeebench/{year}-p{paper}-q{row['index']}", question=question, answer=row["gold"],
        answer_type=answer_type, options=options, source="jeebench",
        extra={"description": row["description"], "index": row["index"], "jee_type": row["type"]},
    )


# ---- MMLU ----------------------------------------------------------------------------------------

MMLU_SPLITS = ("test", "val", "dev")


def load_mmlu_subject(subject: str, name: str, root: Path | None = None) -> list[Problem]:
    """All splits of one MMLU subject (test, val, dev order), duplicates flagged in `extra`."""
    root = root or data_path("mmlu_physics")
    problems: list[Problem] = []
    first_row: dict[tuple, str] = {}
    first_stem: dict[str, str] = {}
    for split in MMLU_SPLITS:
        path = root / split / f"{subject}_{split}.csv"
        if not path.exists():
            raise UserError(f"data file missing: {path}")
        text = read_text(path, what="MMLU CSV file", max_bytes=64 * 2**20)
        for i, cells in enumerate(csv.reader(io.StringIO(text, newline=""))):
            if len(cells) != 6 or cells[5].strip() not in "ABCD":
                raise UserError(f"{path}: row {i + 1}: expected 6 columns ending in a letter A-D")
            stem, options, gold = cells[0], cells[1:5], cells[5].strip()
            pid = f"{name}/{split}/{i}"
            extra: dict = {"split": split, "row": i}
            key = (stem.strip(), *(o.strip() for o in options), gold)
            if key in first_row:
                extra["duplicate_of"] = first_row[key]
            else:
                first_row[key] = pid
                if stem.strip() in first_stem:
                    extra["same_stem_as"] = first_stem[stem.strip()]
            first_stem.setdefault(stem.strip(), pid)
            problems.append(Problem(id=pid, question=stem, answer=gold, answer_type="mcq", options=options,
                                    source=f"mmlu:{subject}", extra=extra))
    return problems


@register_benchmark("mmlu-hs", "MMLU high_school_physics, test+val+dev (151+17+5); duplicates flagged")
def load_mmlu_hs(path: str | os.PathLike | None = None) -> list[Problem]:
    """MMLU high-school physics (173 rows)."""
    return load_mmlu_subject("high_school_physics", "mmlu-hs", Path(path) if path else None)


@register_benchmark("mmlu-college", "MMLU college_physics, test+val+dev (102+11+5); duplicates flagged")
def load_mmlu_college(path: str | os.PathLike | None = None) -> list[Problem]:
    """MMLU college physics (118 rows)."""
    return load_mmlu_subject("college_physics", "mmlu-college", Path(path) if path else None)


# ---- SciEval -------------------------------------------------------------------------------------

_SCIEVAL_OPTIONS = re.compile(r"\n\nA\. (.*)\nB\. (.*)\nC\. (.*)\nD\. (.*)\n\nAnswer:\s*$", re.S)
SCIEVAL_DOMAINS = {
    "Mechanics": ("Motion", "Work and Energy", "Forces", "Momentum", "Fluid", "Rotational", "Circular"),
    "Electromagnetism": ("Electric", "Circuits", "Magnetism", "Electromagnetic"),
    "Thermodynamics": ("Heat", "Thermodynamics"),
    "Waves & Optics": ("Sound", "Light", "Refraction", "Interference", "Waves"),
    "Modern Physics": ("Subatomic", "Atomic"),
}


def _scieval_domain(topic: str) -> str:
    return next((d for d, keys in SCIEVAL_DOMAINS.items() if any(k in topic for k in keys)), "")


@register_benchmark("scieval", "SciEval static valid set, physics (164 mcq)")
def load_scieval(path: str | os.PathLike | None = None) -> list[Problem]:
    """SciEval physics (164 multiple-choice items)."""
    source = Path(path) if path else data_path("scieval", "scieval-valid-physics.json")
    problems = []
    for i, row in enumerate(_json_items(source, "SciEval")):
        if row.get("category") != "physics":
            continue
        with _record(source, i, "SciEval"):
            m = _SCIEVAL_OPTIONS.search(row["question"])
            question, options = (row["question"][:m.start()], list(m.groups())) if m else (row["question"], None)
            problems.append(Problem(
                id=f"scieval/{row['id']}", question=question.strip(), answer="".join(row["answer"]),
                answer_type="mcq", options=[o.strip() for o in options] if options else None,
                domain=_scieval_domain(row["topic"]), source="scieval",
                extra={"topic": row["topic"], "ability": row["ability"]},
            ))
    return problems


# ---- user-supplied sets (registered last, so listings show the shipped ones first) ------------------


@register_benchmark("physicsqa", "PhysicsQA (not public): your JSONL file in the Problem format", env="PHYSR3_PHYSICSQA")
def load_physicsqa(path: str | os.PathLike | None = None) -> list[Problem]:
    """PhysicsQA from a user-supplied JSONL file (lines: id, question, answer, answer_type, options)."""
    chosen = _user_path(path, "PHYSR3_PHYSICSQA", "physicsqa",
                        "PhysicsQA is not public; lines {\"id\", \"question\", \"answer\", \"answer_type\"}")
    return load_jsonl_set(chosen, "physicsqa")


@register_benchmark("synth-test", "generated test set (physr3 synth split=test): JSONL in the Problem format",
                    env="PHYSR3_SYNTH_TEST")
def load_synth_test(path: str | os.PathLike | None = None) -> list[Problem]:
    """A generated test set from a JSONL file written by `physr3 synth`."""
    chosen = _user_path(path, "PHYSR3_SYNTH_TEST", "synth-test", "write one with `physr3 synth`")
    return load_jsonl_set(chosen, "synth-test")
