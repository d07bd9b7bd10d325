"""The formula knowledge base behind conceptual-misapplication feedback and the RAG baseline.

Built from the project's `data/formulas_openstax/` (OpenStax *University Physics* Vol. 1–3 "Key
Equations" plus the "Fundamental Constants" table, CC BY-NC-SA 4.0; attribution in its SOURCE.md) — our
stand-in for the paper's NEET formula PDF, which is not public. One entry per named equation or constant,
stored and shown as one short text:

    "Period of a mass-spring system in SHM: T=2\\pi \\sqrt{\\frac{m}{k}} (UP1 ch15 Oscillations)"

What is *embedded* is only the name and the chapter title ("Period of a mass-spring system in SHM
(Oscillations)"): measured with `benchmarks/retrieval.py`, LaTeX in the embedded text lowers MiniLM's
hit@3 (0.80 -> 0.76 on 183 simulated CM queries): the model reads it as noise. The LaTeX is tidied
lightly (`\\text{..}` unwrapped, braces around single symbols dropped) so that the policy model reading
the feedback sees less markup. `corpus_hash` fingerprints the entry texts and embedded texts, so stores
rebuild when the corpus or the text format changes.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import asdict, dataclass
from pathlib import Path

from physr3.paths import data_dir

EQUATIONS_FILE = "university_physics_key_equations.jsonl"
CONSTANTS_FILE = "university_physics_fundamental_constants.jsonl"

_TEXT_RE = re.compile(r"\\text\{([^{}]*)\}")
_SINGLE_BRACE_RE = re.compile(r"(?<![A-Za-z}])\{\s*(\\[A-Za-z]+|[A-Za-z0-9])\s*\}")
_DIGIT_GROUP_RE = re.compile(r"(?<=\d) (?=\d)")
_UNCERTAINTY_RE = re.compile(r"\s*\(\d+\)")


@dataclass(frozen=True)
class KnowledgeEntry:
    """One formula or constant: a stable id, the embedded text and the parts it was made from."""

    id: str
    kind: str  # "equation" | "constant"
    name: str
    latex: str
    source: str  # e.g. "UP1 ch15 Oscillations" or "UP1 Fundamental Constants"
    text: str  # what is stored and shown: "name: latex (source)"
    topic: str = ""  # chapter title, or "Fundamental Constants"

    @property
    def embed_text(self) -> str:
        """What is embedded: the name and the chapter, without the LaTeX (see the module docstring)."""
        return f"{self.name} ({self.topic})" if self.topic else self.name

    def to_json(self) -> dict:
        return asdict(self)


def _unbrace(m: re.Match) -> str:
    inner = m.group(1)
    return inner + " " if inner.startswith("\\") else inner  # `{\\mu}_0` -> `\\mu _0`


def tidy_latex(latex: str) -> str:
    """Unwrap `\\text{..}`, drop braces around single symbols (`{A}_{x}` -> `A_x`), squeeze spaces."""
    out = latex
    for _ in range(3):
        new = _SINGLE_BRACE_RE.sub(_unbrace, _TEXT_RE.sub(r"\1", out))
        if new == out:
            break
        out = new
    return re.sub(r"\s+", " ", out).strip()


def _book_short(book: str) -> str:
    m = re.search(r"Volume (\d+)", book)
    return f"UP{m.group(1)}" if m else book


def default_corpus_dir() -> Path:
    return data_dir() / "formulas_openstax"


def _read_jsonl(path: Path) -> list[dict]:
    from physr3.inputs import iter_json_lines  # the one reader: bad bytes, directories, non-objects named

    return [row for _, row in iter_json_lines(path, what="formula corpus file")]


def load_corpus(corpus_dir: str | Path | None = None, constants: bool = True) -> list[KnowledgeEntry]:
    """Key equations (and fundamental constants) of the formula corpus, in file order."""
    folder = Path(corpus_dir) if corpus_dir else default_corpus_dir()
    entries: list[KnowledgeEntry] = []
    for i, row in enumerate(_read_jsonl(folder / EQUATIONS_FILE)):
        source = f"{_book_short(row.get('book', ''))} ch{row.get('chapter', '?')} {row.get('chapter_title', '')}".strip()
        name = row["name"].strip() or f"{row.get('module_title', 'Equation')} (unnamed equation)"
        latex = tidy_latex(row["latex"])
        entries.append(KnowledgeEntry(f"eq{i:04d}", "equation", name, latex, source, f"{name}: {latex} ({source})",
                                      row.get("chapter_title", "")))
    if constants:
        for i, row in enumerate(_read_jsonl(folder / CONSTANTS_FILE)):
            symbol = tidy_latex(row["symbol"])
            value = _UNCERTAINTY_RE.sub("", _DIGIT_GROUP_RE.sub("", tidy_latex(row["value"])))
            name = row["quantity"].strip()
            latex = f"{symbol} = {value}"
            source = f"{_book_short(row.get('book', ''))} Fundamental Constants"
            entries.append(KnowledgeEntry(f"const{i:02d}", "constant", name, latex, source,
                                          f"{name}: {latex} (fundamental constant)", "Fundamental Constants"))
    return entries


def corpus_hash(entries: list[KnowledgeEntry]) -> str:
    """SHA-256 over the entries' ids and texts: changes whenever anything that is embedded changes."""
    h = hashlib.sha256()
    for e in entries:
        h.update(f"{e.id}\t{e.text}\t{e.embed_text}\n".encode())
    return h.hexdigest()


def corpus_text(entries: list[KnowledgeEntry]) -> str:
    """The whole knowledge base as one text, one entry per line (what the RAG baseline chunks)."""
    return "\n".join(e.text for e in entries) + "\n"
