"""CoT accuracy against model size (the paper's Figure 4): several models, easy and hard benchmarks.

Each model is evaluated by `physr3 eval`'s runner (`physr3.eval.runner.run_eval`, condition `cot`) into its
own eval run folder, `<out>/models/<model-slug>-<settings hash>/`: the hash covers everything that changes
a completion or its score (the model section, the generation section, the CoT prompt option, the answer
tolerance, the seed). Before loading a model its results files are read: when every wanted item of every
benchmark is already there, the model is not loaded or run again; when some are, the runner resumes and
generates only the missing items. Changing a setting gives another folder, so stale results are never
mixed in.

The parameter count is read from the model folder's safetensors headers (no weights loaded; tied weights
are stored once, so this equals `model.num_parameters()`); for a hub id the local hub cache is looked up
after evaluation. A model whose size cannot be found is listed in the table but left out of the plot.

Deviation from the paper's Figure 4: the paper plots CoT accuracy of 1B-72B models and GPT-4o queried through
an API; here any local folder, the embedded 135M model, and (with a GPU and hub access) any hub id. Easy vs
hard follows the paper: SciEval and MMLU are easy, JEEBench and PhysicsQA hard (`scaling.hard_benchmarks`).
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import re
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from physr3.config import Config
from physr3.errors import UserError
from physr3.eval.benchmarks import load_benchmark

CONDITION = "cot"


def settings_hash(cfg: Config) -> str:
    """Hash of the settings that change a CoT completion or its score (not where results are written)."""
    key = {"model": cfg.model.__dict__, "generation": cfg.generation.__dict__, "seed": cfg.run.seed,
           "cot_format_instruction": cfg.eval.cot_format_instruction, "rel_tol": cfg.eval.relative_tolerance}
    return hashlib.sha256(json.dumps(key, sort_keys=True, default=str).encode()).hexdigest()[:8]


def model_label(name_or_path: str) -> str:
    if name_or_path == "embedded":
        from physr3.models.loading import EMBEDDED_NAME

        return f"{EMBEDDED_NAME} (embedded)"
    path = Path(name_or_path).expanduser()
    return path.name if path.exists() else name_or_path


def model_slug(name_or_path: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", model_label(name_or_path)).strip("_")[:60] or "model"


def safetensors_params(folder: Path) -> int | None:
    """Number of parameters stored in a folder's *.safetensors files, from their headers only."""
    files = sorted(folder.glob("*.safetensors"))
    if not files:
        return None
    total = 0
    for f in files:
        with open(f, "rb") as fh:
            (size,) = struct.unpack("<Q", fh.read(8))
            header = json.loads(fh.read(size))
        for name, meta in header.items():
            if name != "__metadata__":
                n = 1
                for d in meta["shape"]:
                    n *= d
                total += n
    return total


def parameter_count(name_or_path: str, cache_dir: str | None = None) -> int | None:
    """Parameters of the embedded model, a local folder, or a hub id already in the local hub cache."""
    if name_or_path == "embedded":
        from physr3.models.loading import ensure_embedded_model

        return safetensors_params(ensure_embedded_model(cache_dir))
    path = Path(name_or_path).expanduser()
    if path.is_dir():
        return safetensors_params(path)
    try:
        from huggingface_hub import snapshot_download

        return safetensors_params(Path(snapshot_download(name_or_path, local_files_only=True)))
    except Exception:  # noqa: BLE001 - not cached, or not a hub id: the size is unknown, which the table says
        return None


@dataclass
class ModelResult:
    model: str
    label: str
    params: int | None
    run_dir: str
    cached: bool
    accuracy: dict[str, float | None] = field(default_factory=dict)
    n: dict[str, int] = field(default_factory=dict)


def _rows(path: Path) -> dict[str, dict]:
    if not path.is_file():
        return {}
    rows = {}
    with open(path, encoding="utf-8") as fh:
        for raw in fh:
            try:
                row = json.loads(raw)
            except json.JSONDecodeError:  # a torn last line: the runner drops it when it resumes
                break
            rows[str(row.get("id"))] = row
    return rows


def evaluate_models(cfg: Config, models: list[str], specs: list[str], out: Path, limit: int | None,
                    progress: bool = True, log=print) -> list[ModelResult]:
    """CoT accuracy of each model on each benchmark, reusing every result already written."""
    from physr3.eval.runner import reported_benchmark, results_path, run_eval
    from physr3.models.loading import resolve_model_path

    for model in models:  # a typo in the last model must not wait for the first one's evaluation
        resolve_model_path(dataclasses.replace(cfg.model, name_or_path=model))
    wanted = {}
    for spec in specs:
        problems = load_benchmark(spec)
        wanted[spec] = [p.id for p in (problems[:limit] if limit is not None else problems)]
        if not wanted[spec]:
            raise UserError(f"benchmark {spec!r} has no items")
    results = []
    for model in models:
        mcfg = copy.deepcopy(cfg)
        mcfg.model.name_or_path = model
        mcfg.eval.conditions = [CONDITION]
        mcfg.eval.benchmarks = list(specs)
        mcfg.eval.limit = limit
        mcfg.eval.attribute_errors = False
        mcfg.run.output_dir = str(out / "models")
        mcfg.run.name = f"{model_slug(model)}-{settings_hash(mcfg)}"
        run_dir = out / "models" / mcfg.run.name
        files = {spec: results_path(run_dir, CONDITION, reported_benchmark(specs, spec)) for spec in specs}
        have = {spec: _rows(f) for spec, f in files.items()}
        cached = all(all(i in have[spec] for i in ids) for spec, ids in wanted.items())
        if cached:
            log(f"scaling: {model_label(model)}: all {sum(map(len, wanted.values()))} items already evaluated in "
                f"{run_dir} (not re-run)")
        else:
            missing = sum(sum(i not in have[spec] for i in ids) for spec, ids in wanted.items())
            log(f"scaling: {model_label(model)}: evaluating {missing} items into {run_dir}")
            run_eval(mcfg, argv=["scaling", model], progress=progress)
            have = {spec: _rows(f) for spec, f in files.items()}
        res = ModelResult(model, model_label(model), parameter_count(model, cfg.model.cache_dir), str(run_dir), cached)
        for spec, ids in wanted.items():
            bench = reported_benchmark(specs, spec)
            rows = [have[spec][i] for i in ids if i in have[spec]]
            res.n[bench] = len(rows)
            res.accuracy[bench] = sum(bool(r["correct"]) for r in rows) / len(rows) if rows else None
        results.append(res)
    return sorted(results, key=lambda r: (r.params is None, r.params or 0, r.label))


def _mean(values: list[float | None]) -> float | None:
    vals = [v for v in values if v is not None]
    return sum(vals) / len(vals) if vals else None


def group_means(res: ModelResult, hard: list[str]) -> tuple[float | None, float | None]:
    """(easy mean, hard mean) of a model's benchmark accuracies."""
    easy = [a for b, a in res.accuracy.items() if b not in hard]
    return _mean(easy), _mean([a for b, a in res.accuracy.items() if b in hard])


def format_params(n: int | None) -> str:
    if n is None:
        return "?"
    for unit, scale in (("B", 1e9), ("M", 1e6), ("K", 1e3)):
        if n >= scale:
            return f"{n / scale:.3g}{unit}"
    return str(n)


def format_table(results: list[ModelResult], hard: list[str]) -> str:
    benches = list(results[0].accuracy) if results else []

    def pct(x: float | None) -> str:
        return "-" if x is None else f"{100 * x:.1f}"

    head = "| model | params | " + " | ".join(f"{b}{' (hard)' if b in hard else ''}" for b in benches) + \
        " | easy mean | hard mean |"
    lines = [head, "|---|---:|" + "---:|" * (len(benches) + 2)]
    for r in results:
        easy, hard_m = group_means(r, hard)
        lines.append(f"| {r.label} | {format_params(r.params)} | "
                     + " | ".join(f"{pct(r.accuracy[b])} (n={r.n[b]})" for b in benches)
                     + f" | {pct(easy)} | {pct(hard_m)} |")
    return "\n".join(lines)


def plot(results: list[ModelResult], hard: list[str], path: Path) -> Path:
    """Accuracy vs parameter count (log x): one line per benchmark (hard dashed), easy and hard means bold."""
    from physr3.report.plots import _plt

    plt = _plt()
    sized = [r for r in results if r.params]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    benches = list(results[0].accuracy) if results else []
    for b in benches:
        pts = [(r.params, 100 * r.accuracy[b]) for r in sized if r.accuracy[b] is not None]
        if pts:
            ax.plot(*zip(*pts), marker="o", ms=4, lw=1, ls="--" if b in hard else "-", alpha=0.6,
                    label=f"{b} ({'hard' if b in hard else 'easy'})")
    for idx, name, color in ((0, "easy mean", "tab:blue"), (1, "hard mean", "tab:red")):
        pts = [(r.params, 100 * m) for r in sized if (m := group_means(r, hard)[idx]) is not None]
        if pts:
            ax.plot(*zip(*pts), marker="s", lw=2.5, color=color, label=name)
    ax.set_xscale("log")
    ax.set_xlabel("parameters")
    ax.set_ylabel("CoT accuracy (%)")
    ax.set_title("Accuracy vs model size")
    for r in sized:
        ax.annotate(r.label, (r.params, 0), textcoords="offset points", xytext=(0, 3), fontsize=7, ha="center",
                    xycoords=("data", "axes fraction"))
    ax.legend(fontsize=7)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def to_json(results: list[ModelResult], hard: list[str]) -> list[dict[str, Any]]:
    out = []
    for r in results:
        easy, hard_m = group_means(r, hard)
        out.append({"model": r.model, "label": r.label, "params": r.params, "run_dir": r.run_dir,
                    "cached": r.cached, "accuracy": r.accuracy, "n": r.n, "easy_mean": easy, "hard_mean": hard_m})
    return out
