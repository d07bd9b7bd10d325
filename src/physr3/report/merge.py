"""Eval runs read back and merged into one grid of cells keyed by (model, benchmark, condition).

A report is usually built from several `physr3 eval` runs of the same model (the demo's cot/sft/ours and a
later rag/self-refine run); the paper's tables have one row per model, so the runs are merged:

- a run's model is `model.name_or_path` (plus `model.adapter` when set) from its `config.yaml`;
- every (model, benchmark, condition) cell comes from exactly one run. When two runs hold the same cell, the
  newer run wins: newer = the later `started` time in `run.json` (the run's last invocation; the folder's
  `summary.json` time when there is no run.json), ties broken by command-line order (later wins). The losing
  runs are recorded in `Merged.superseded` so the page can say which value was replaced by which;
- settings that change what a cell measures (generation, model dtype and system prompt, the condition's exact
  prompts from `conditions.json`, the condition's adapter, scoring tolerance, verifier, seed, item limit) are
  compared between the runs that hold the same cell; differences are listed as conflicts.

Per-item scores come from `results/<condition>__<benchmark>.jsonl` (what the intervals rest on); a run with
only `summary.json` falls back to its counts when the scores are 0/1 (accuracy = mean score).
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from physr3.errors import UserError

# Settings compared between two runs that hold the same cell (dotted keys into config.yaml). Batch size and
# progress options are left out: they change speed, not what is measured.
CELL_SETTINGS = (
    "model.dtype", "model.system_prompt", "model.adapter", "generation.engine", "generation.openvino_precision",
    "generation.max_new_tokens",
    "generation.temperature", "generation.top_p", "generation.stop_at_final_answer",
    "generation.format_instruction", "eval.limit", "eval.relative_tolerance", "eval.attribute_errors",
    "verifier.kind", "verifier.judge_model", "run.seed",
)
# Condition-specific settings (only compared for that condition).
CONDITION_SETTINGS = {
    "cot": ("eval.cot_format_instruction",),
    "rag": ("eval.cot_format_instruction", "eval.rag_top_k", "eval.rag_embedder"),
    "sft": ("eval.sft_adapter",),
    "dpo": ("eval.dpo_adapter",),
    "ours": ("eval.ours_adapter",),
    "self-refine": ("eval.self_refine_rounds",),
}


def _get(cfg: dict, dotted: str) -> Any:
    node: Any = cfg
    for part in dotted.split("."):
        if not isinstance(node, dict):
            return None
        node = node.get(part)
    return node


def _read_json(path: Path, what: str) -> Any:
    """A JSON object from a run folder through the one reader of users' files (physr3.inputs)."""
    from physr3.inputs import read_json

    return read_json(path, what=what)


def _check_summary(summary: Path, data: dict) -> None:
    """{condition: {benchmark: {"mean_score": number, "error_types": {type: count}, ...}}}, else a UserError
    naming the field."""
    for condition, per_bench in data.items():
        if not isinstance(per_bench, dict) or not all(isinstance(s, dict) for s in per_bench.values()):
            raise UserError(f"{summary}: '{condition}': expected an object of benchmark summaries")
        for bench, s in per_bench.items():
            score, types = s.get("mean_score"), s.get("error_types", {})
            if score is not None and (isinstance(score, bool) or not isinstance(score, int | float)):
                raise UserError(f"{summary}: '{condition}.{bench}.mean_score': expected a number, got {score!r}")
            if not isinstance(types, dict) or not all(isinstance(n, int | float) for n in types.values()):
                raise UserError(f"{summary}: '{condition}.{bench}.error_types': expected an object of counts")


@dataclass
class EvalRun:
    """One `physr3 eval` run folder as the report reads it."""

    path: Path
    model: str
    config: dict
    summary: dict
    conditions: dict  # conditions.json: {name: {"description", "details"}}
    record: dict  # run.json (command, seed, versions, git, started); {} when absent
    order: int = 0  # position on the command line

    @property
    def started(self) -> str:
        if self.record.get("started"):
            return str(self.record["started"])
        mtime = (self.path / "summary.json").stat().st_mtime
        return _dt.datetime.fromtimestamp(mtime, _dt.UTC).isoformat(timespec="seconds")

    @property
    def commit(self) -> str | None:
        git = self.record.get("git") or {}
        if not git.get("commit"):
            return None
        return str(git["commit"])[:10] + (" (dirty tree)" if git.get("dirty") else "")

    def cell_settings(self, condition: str) -> dict[str, Any]:
        keys = CELL_SETTINGS + CONDITION_SETTINGS.get(condition, ())
        out = {k: _get(self.config, k) for k in keys}
        info = self.conditions.get(condition)
        if info is not None:
            out["conditions.json details"] = info.get("details")
        return out

    def item_scores(self, condition: str, benchmark: str) -> list[dict] | None:
        """The per-item rows of one cell ({"score", "correct", "compliant", ...}), or None when the results
        file is missing or does not match the summary's n (a run interrupted after its summary was written)."""
        from physr3.eval.runner import results_path
        from physr3.problems import iter_jsonl

        path = results_path(self.path, condition, benchmark)
        if not path.is_file():
            return None
        rows = [row for _, row in iter_jsonl(path, allow_empty=True)]
        n = (self.summary.get(condition, {}).get(benchmark) or {}).get("n")
        return rows if n is None or len(rows) == n else None


def load_run(path: str | Path, order: int = 0) -> EvalRun:
    from physr3.inputs import read_text

    path = Path(path)
    summary = path / "summary.json"
    if not path.is_dir():
        raise UserError(f"{path}: not an eval run folder ({'not a folder' if path.exists() else 'not found'})")
    if not summary.exists():
        raise UserError(f"{path}: not an eval run folder (no summary.json)")
    cfg: dict = {}
    if (path / "config.yaml").is_file():
        try:
            cfg = yaml.safe_load(read_text(path / "config.yaml", what="run config")) or {}
        except yaml.YAMLError as exc:
            raise UserError(f"{path / 'config.yaml'}: not valid YAML ({exc})") from None
        if not isinstance(cfg, dict):
            cfg = {}
    model = str(_get(cfg, "model.name_or_path") or path.name)
    if _get(cfg, "model.adapter"):
        model += f" + {_get(cfg, 'model.adapter')}"
    data = _read_json(summary, "eval summary")
    _check_summary(summary, data)
    conditions = _read_json(path / "conditions.json", "conditions record") if (path / "conditions.json").is_file() else {}
    record = _read_json(path / "run.json", "run record") if (path / "run.json").is_file() else {}
    return EvalRun(path, model, cfg, data, conditions, record, order)


@dataclass
class Superseded:
    """A cell held by several runs: the value shown comes from `winner`; `conflicts` are the settings that
    differ between the winner and a loser ({setting: (winner's value, loser's value)})."""

    model: str
    benchmark: str
    condition: str
    winner: EvalRun
    losers: list[EvalRun]
    conflicts: dict[str, tuple[Any, Any]] = field(default_factory=dict)


@dataclass
class Merged:
    runs: list[EvalRun]
    cells: dict[tuple[str, str, str], EvalRun]  # (model, benchmark, condition) -> the run it is taken from
    models: list[str]
    benchmarks: list[str]
    conditions: list[str]
    superseded: list[Superseded]

    def row_conflicts(self, model: str) -> dict[str, list[tuple[Any, list[str]]]]:
        """Shared settings (CELL_SETTINGS) that differ between the runs whose cells make up one model's row:
        {setting: [(value, [conditions with cells from runs with that value]), ...]}. Comparing two conditions
        measured with different token budgets or seeds is worth a warning even when no cell is shared."""
        per_key: dict[str, dict[str, list[str]]] = {}
        for (m, _, condition), run in self.cells.items():
            if m != model:
                continue
            for k in CELL_SETTINGS:
                conds = per_key.setdefault(k, {}).setdefault(repr(_get(run.config, k)), [])
                if condition not in conds:
                    conds.append(condition)
        out = {}
        for k, by_value in per_key.items():
            if len(by_value) > 1:
                runs_values = {repr(_get(r.config, k)): _get(r.config, k) for r in self.runs}
                out[k] = [(runs_values.get(v, v), conds) for v, conds in by_value.items()]
        return out

    def summary(self, model: str, benchmark: str, condition: str) -> dict | None:
        run = self.cells.get((model, benchmark, condition))
        return None if run is None else run.summary[condition][benchmark]

    def run_of(self, model: str, benchmark: str, condition: str) -> EvalRun | None:
        return self.cells.get((model, benchmark, condition))


# The paper's column order; other conditions follow in the order the runs list them.
CONDITION_ORDER = ("cot", "rag", "sft", "dpo", "ours", "self-refine")


def merge_runs(runs: list[EvalRun]) -> Merged:
    holders: dict[tuple[str, str, str], list[EvalRun]] = {}
    for run in runs:
        for condition, per_bench in run.summary.items():
            if not isinstance(per_bench, dict):
                raise UserError(f"{run.path / 'summary.json'}: field {condition!r}: expected an object per benchmark")
            for bench, s in per_bench.items():
                if not isinstance(s, dict) or "n" not in s:
                    raise UserError(f"{run.path / 'summary.json'}: field {condition}.{bench}: missing 'n'")
                holders.setdefault((run.model, bench, condition), []).append(run)
    cells: dict[tuple[str, str, str], EvalRun] = {}
    superseded = []
    for key, held in holders.items():
        ranked = sorted(held, key=lambda r: (r.started, r.order))
        cells[key] = winner = ranked[-1]
        if len(ranked) > 1:
            losers = ranked[:-1][::-1]
            mine = winner.cell_settings(key[2])
            conflicts = {}
            for loser in losers:
                theirs = loser.cell_settings(key[2])
                for k, v in mine.items():
                    if theirs.get(k) != v and k not in conflicts:
                        conflicts[k] = (v, theirs.get(k))
            superseded.append(Superseded(*key, winner, losers, conflicts))
    models = list(dict.fromkeys(m for m, _, _ in holders))
    benchmarks = list(dict.fromkeys(b for _, b, _ in holders))
    seen = list(dict.fromkeys(c for _, _, c in holders))
    conditions = [c for c in CONDITION_ORDER if c in seen] + [c for c in seen if c not in CONDITION_ORDER]
    return Merged(runs, cells, models, benchmarks, conditions, superseded)
