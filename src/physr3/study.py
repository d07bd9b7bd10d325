"""`physr3 study`: does the method change a model, and which part does what — one resumable command.

From the same base weights and the same SFT data, the study trains and evaluates on held-out generated
problems (split by content from the training problems, so no test problem is seen in training):

- `cot`            the base model, chain-of-thought prompt;
- `sft`            Stage 1 (the SFT warm-up every other condition starts from);
- `sft-continued`  the SFT adapter trained further on y* for as many optimizer steps as one refine run takes
                   (the equal-compute control: does refinement beat simply training longer?);
- `dpo`            IPO on injected-error pairs from the SFT adapter, same number of optimizer steps;
- `ours-<variant>` the refine loop with `train.advantage=<variant>` for each of `study.variants`
                   (`paper` = Eq. 2; `improvement`; `paper+first`);
- `ours-paper-warmup` (when `study.revision_fraction > 0`): Stage 1 with revision warm-up, then `paper`.

Per condition (results.json, report.md, report.html with the curves embedded): accuracy, **held-out mean
first-attempt step reward r1** (the verifier's e/(n+1) on every held-out solution, correct or not: a
continuous measure that moves before accuracy does), format compliance and error types; for the refine
conditions the y1→y2 better/same/worse counts over training and a learning curve of held-out r1 every
`study.curve_every` steps (on the first `study.curve_n` held-out problems). Every figure has a 95% interval
(bootstrap over items for means; Wilson and bootstrap for accuracy) — `physr3.report.intervals`.

Stages (`study.stages`), each into `<run>/<stage>/` and reused when its output exists, so an interrupted
study resumes (evaluations also resume item by item): data, sft, refine, sft-continued, dpo, eval, curves,
report. Keep the run folder outside the work tree (`run.output_dir`) to carry a study across working days.
"""

from __future__ import annotations

import copy
import json
import time
from pathlib import Path
from typing import Any

from physr3.config import STUDY_STAGES, Config
from physr3.problems import read_problems, write_jsonl, write_text_atomic
from physr3.report.intervals import bootstrap_ci, wilson_interval
from physr3.runs import prepare_run

STAGES = STUDY_STAGES  # in order; the valid values of study.stages


def _say(msg: str) -> None:
    print(f"[study] {msg}", flush=True)


def conditions(cfg: Config) -> list[str]:
    """The study's conditions in report order."""
    out = ["cot", "sft", "sft-continued", "dpo"] + [f"ours-{v}" for v in cfg.study.variants]
    if cfg.study.revision_fraction > 0:
        out.append("ours-paper-warmup")
    return out


def _sub(cfg: Config, root: Path, name: str) -> Config:
    sub = copy.deepcopy(cfg)
    sub.run.output_dir, sub.run.name = str(root), name
    return sub


class Study:
    """The study's folder layout and stages; `run()` goes through `cfg.study.stages` in order."""

    def __init__(self, cfg: Config, argv: list[str] | None = None, progress: bool = True):
        cfg.study.validate()  # stages, variants, refine_steps (StudyConfig's rules), also after a caller's changes
        self.cfg, self.progress = cfg, progress
        self.root = prepare_run(cfg, "study", argv)
        self.train_path = self.root / "data" / "train.jsonl"
        self.test_path = self.root / "data" / "test.jsonl"
        self.timings: dict[str, float] = {}
        timings_file = self.root / "timings.json"
        if timings_file.exists():
            self.timings = json.loads(timings_file.read_text())

    # -- paths ----------------------------------------------------------------------------------------
    def sft_adapter(self, warmup: bool = False) -> Path:
        return self.root / ("sft-warmup" if warmup else "sft") / "adapter"

    def refine_dir(self, condition: str) -> Path:
        return self.root / "refine" / condition

    def adapter_of(self, condition: str) -> Path | None:
        if condition == "cot":
            return None
        if condition == "sft":
            return self.sft_adapter()
        if condition in ("sft-continued", "dpo"):
            return self.root / condition / "adapter"
        return self.refine_dir(condition) / "adapter"

    def scored(self, eval_name: str) -> Path | None:
        """The scored held-out results of one evaluation (a condition or a curve point), once complete."""
        found = sorted((self.root / "eval" / eval_name / "results").glob("*.scored.jsonl"))
        return found[0] if found else None

    # -- driver ---------------------------------------------------------------------------------------
    def _stage(self, name: str, done: bool, fn) -> None:
        if name not in self.cfg.study.stages:
            return
        if done:
            _say(f"{name}: reusing what an earlier run left in {self.root}")
            return
        _say(f"{name}: starting")
        t0 = time.perf_counter()
        fn()
        self.timings[name] = round(self.timings.get(name, 0.0) + time.perf_counter() - t0, 1)
        write_text_atomic(self.root / "timings.json", json.dumps(self.timings, indent=2))
        _say(f"{name}: done in {time.perf_counter() - t0:.0f} s")

    def run(self) -> Path:
        s = self.cfg.study
        refine_conds = [c for c in conditions(self.cfg) if c.startswith("ours-")]
        self._stage("data", self.train_path.exists() and self.test_path.exists(), self.data)
        self._stage("sft", _is_adapter(self.sft_adapter()) and (s.revision_fraction <= 0
                    or _is_adapter(self.sft_adapter(warmup=True))), self.sft)
        self._stage("refine", all(_is_adapter(self.adapter_of(c)) for c in refine_conds), self.refine)
        self._stage("sft-continued", _is_adapter(self.adapter_of("sft-continued")), self.sft_continued)
        self._stage("dpo", _is_adapter(self.adapter_of("dpo")), self.dpo)
        # done = every evaluation scored; an unfinished one resumes item by item (the eval runner)
        self._stage("eval", all(self.scored(c) for c in conditions(self.cfg)), self.evaluate)
        self._stage("curves", all(self.scored(name) for c in refine_conds for _, _, name in self.curve_points(c)),
                    self.curves)
        self._stage("report", False, self.report)
        return self.root

    # -- stages ---------------------------------------------------------------------------------------
    def data(self) -> None:
        from physr3.synth.generate import generate_problems

        s, seed = self.cfg.study, self.cfg.run.seed
        levels = [s.level] if s.level else None
        train = list(generate_problems(s.n_train, seed, split="train", levels=levels))
        # Another seed and the other side of the content split: no held-out problem appears in training.
        test = list(generate_problems(s.n_test, seed + 1, split="test", levels=levels))
        write_jsonl(self.train_path, train)
        write_jsonl(self.test_path, test)
        _say(f"data: {len(train)} train / {len(test)} held-out problems, level {s.level or 'all'}, "
             f"{len({p.family for p in train + test})} families")

    def sft(self) -> None:
        from physr3.train.sft import run_sft

        if not _is_adapter(self.sft_adapter()):
            sub = _sub(self.cfg, self.root, "sft")
            sub.sft.data, sub.sft.eval_data, sub.sft.revision_fraction = str(self.train_path), None, 0.0
            run_sft(sub, "sft", resume=True)
        if self.cfg.study.revision_fraction > 0 and not _is_adapter(self.sft_adapter(warmup=True)):
            sub = _sub(self.cfg, self.root, "sft-warmup")
            sub.sft.data, sub.sft.eval_data = str(self.train_path), None
            sub.sft.revision_fraction = self.cfg.study.revision_fraction
            run_sft(sub, "sft", resume=True)

    def refine(self) -> None:
        from physr3.train.refine_trainer import run_refine

        s = self.cfg.study
        for cond in [c for c in conditions(self.cfg) if c.startswith("ours-")]:
            if _is_adapter(self.adapter_of(cond)):
                continue
            warmup = cond == "ours-paper-warmup"
            sub = _sub(self.cfg, self.root / "refine", cond)
            sub.train.data = str(self.train_path)
            sub.train.sft_adapter = str(self.sft_adapter(warmup=warmup))
            sub.train.advantage = "paper" if warmup else cond.removeprefix("ours-")
            sub.train.max_steps = s.refine_steps
            sub.train.checkpoint_every = s.curve_every
            sub.train.keep_checkpoints = 0  # every checkpoint: the learning curve evaluates them
            _say(f"refine: {cond} ({s.refine_steps} steps)")
            run_refine(sub, progress=self.progress, resume=True)  # an interrupted study continues (checked)

    def sft_continued(self) -> None:
        """The equal-compute control: the SFT adapter trained further on y*, one optimizer step per refine
        step, each on as many problems as a refine step uses."""
        from physr3.train.sft import run_sft

        sub = _sub(self.cfg, self.root, "sft-continued")
        sub.sft.data, sub.sft.eval_data, sub.sft.revision_fraction = str(self.train_path), None, 0.0
        sub.sft.init_adapter = str(self.sft_adapter())
        sub.sft.max_steps = self.cfg.study.refine_steps
        sub.sft.batch_size, sub.sft.grad_accum = self.cfg.train.batch_size, 1
        sub.sft.learning_rate = self.cfg.train.learning_rate
        run_sft(sub, "sft", resume=True)

    def dpo(self) -> None:
        from physr3.train.dpo import run_dpo

        sub = _sub(self.cfg, self.root, "dpo")
        sub.dpo.data, sub.dpo.sft_adapter = str(self.train_path), str(self.sft_adapter())
        sub.dpo.max_steps = self.cfg.study.refine_steps
        run_dpo(sub, resume=True)

    def _generate(self, condition: str, adapter: Path | None, out_name: str, limit: int | None) -> Path:
        """Held-out solutions of one condition through the eval runner (resumable), verified item by item."""
        from physr3.eval.runner import results_path, run_eval

        eval_name = {"cot": "cot", "sft": "sft", "sft-continued": "sft", "dpo": "dpo"}.get(condition, "ours")
        sub = _sub(self.cfg, self.root / "eval", out_name)
        sub.eval.conditions, sub.eval.benchmarks = [eval_name], ["synth-test"]
        sub.eval.limit, sub.eval.attribute_errors = limit, False
        if adapter is not None:
            setattr(sub.eval, f"{eval_name}_adapter", str(adapter))
        run_dir = run_eval(sub, progress=self.progress, benchmark_paths={"synth-test": str(self.test_path)})
        return self._score(results_path(run_dir, eval_name, "synth-test"))

    def _score(self, results: Path) -> Path:
        """r1 = e/(n+1) from the configured verifier on every held-out solution (correct or not)."""
        from physr3.problems import iter_jsonl
        from physr3.reward import problem_reward
        from physr3.solution import validate
        from physr3.verify.registry import build_verifier

        scored = results.with_name(results.stem + ".scored.jsonl")
        if scored.exists():
            return scored
        problems = {p.id: p for p in read_problems(self.test_path)}
        rows = [row for _, row in iter_jsonl(results)]
        verifier = build_verifier(self.cfg.verifier.kind, self.cfg)
        verdicts = verifier.verify_batch([(problems[r["id"]], r["completion"]) for r in rows])
        out = []
        for row, v in zip(rows, verdicts):
            p = problems[row["id"]]
            r1 = problem_reward(v, row["completion"], p, self.cfg, final_correct=bool(row.get("correct")),
                                truncated=row.get("finish_reason") == "length")  # as training scores r1
            out.append({"id": row["id"], "correct": bool(row.get("correct")), "r1": r1,
                        "compliant": validate(row["completion"]).compliant, "error_step": v.error_step,
                        "error_type": v.error_type if v.ok else "verifier_failed", "completion": row["completion"]})
        write_jsonl(scored, out)
        return scored

    def evaluate(self) -> None:
        for cond in conditions(self.cfg):
            _say(f"eval: {cond}")
            self._generate(cond, self.adapter_of(cond), cond, None)

    def curve_points(self, cond: str) -> list[tuple[int, Path, str]]:
        """(step, adapter, eval folder name) of a refine condition's learning curve: its starting SFT adapter
        (step 0, one evaluation shared by every variant that starts from it) and every checkpoint."""
        from physr3.train.checkpoint import adapter_dir

        warmup = cond == "ours-paper-warmup"
        points = [(0, self.sft_adapter(warmup=warmup), "curve-start-sft-warmup" if warmup else "curve-start-sft")]
        for ckpt in sorted((self.refine_dir(cond) / "checkpoints").glob("step-*")):
            step = int(ckpt.name.split("-")[1])
            points.append((step, adapter_dir(ckpt), f"curve-{cond}-step{step:06d}"))
        return points

    def curves(self) -> None:
        for cond in [c for c in conditions(self.cfg) if c.startswith("ours-")]:
            for _, adapter, name in self.curve_points(cond):
                self._generate(cond, adapter, name, self.cfg.study.curve_n)  # resumes: done items are kept

    def report(self) -> None:
        results = collect_results(self)
        write_text_atomic(self.root / "results.json", json.dumps(results, indent=2))
        write_text_atomic(self.root / "report.md", render_report(results))
        _plot_curves(results, self.root / "learning_curves.png")
        from physr3.report.html_page import markdown_page

        write_text_atomic(self.root / "report.html", markdown_page(
            "physr3 study", (self.root / "report.md").read_text(encoding="utf-8"), self.root))
        _say(f"report: {self.root / 'report.md'}")


def mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _is_adapter(path: Path | None) -> bool:
    return path is not None and (path / "adapter_config.json").is_file()


def _summary(rows: list[dict[str, Any]], n_boot: int, seed: int) -> dict[str, Any]:
    from collections import Counter

    correct = [float(r["correct"]) for r in rows]
    r1 = [float(r["r1"]) for r in rows if r["r1"] is not None]
    compliant = [float(r["compliant"]) for r in rows]
    wrong = [r for r in rows if not r["correct"]]
    return {
        "n": len(rows),
        "accuracy": mean(correct), "accuracy_ci": bootstrap_ci(correct, n_resamples=n_boot, seed=seed),
        "accuracy_wilson": wilson_interval(int(sum(correct)), len(correct)),
        "r1_mean": mean(r1), "r1_ci": bootstrap_ci(r1, n_resamples=n_boot, seed=seed), "r1_n": len(r1),
        "compliance": mean(compliant), "compliance_ci": bootstrap_ci(compliant, n_resamples=n_boot, seed=seed),
        "error_types": dict(Counter(r["error_type"] for r in wrong)),
    }


def _revisions(metrics_path: Path) -> dict[str, Any]:
    from physr3.problems import iter_jsonl

    totals = {"better": 0, "same": 0, "worse": 0}
    per_step = []
    if metrics_path.exists():
        for _, m in iter_jsonl(metrics_path):
            rev = m.get("revisions") or {}
            for k in totals:
                totals[k] += int(rev.get(k, 0))
            per_step.append({"step": m.get("step"), **{k: int(rev.get(k, 0)) for k in totals},
                             "r1_mean": m.get("r1_mean"), "r2_mean": m.get("r2_mean"), "kl": m.get("kl")})
    return {"total": totals, "per_step": per_step}


def collect_results(study: Study) -> dict[str, Any]:
    from physr3.problems import iter_jsonl

    cfg, s = study.cfg, study.cfg.study
    out: dict[str, Any] = {"config": {"level": s.level, "n_train": s.n_train, "n_test": s.n_test,
                                      "refine_steps": s.refine_steps, "variants": list(s.variants),
                                      "model": cfg.model.name_or_path, "seed": cfg.run.seed},
                           "budget_minutes": round(sum(study.timings.values()) / 60, 1),
                           "stage_minutes": {k: round(v / 60, 1) for k, v in study.timings.items()},
                           "conditions": {}}
    per_item: dict[str, dict[str, dict[str, Any]]] = {}
    for cond in conditions(cfg):
        scored = study.scored(cond)
        if scored is None:
            continue
        rows = [row for _, row in iter_jsonl(scored)]
        entry = _summary(rows, s.bootstrap, cfg.run.seed)
        if cond.startswith("ours-"):
            entry["revisions"] = _revisions(study.refine_dir(cond) / "metrics.jsonl")
            curve = []
            for step, _, name in study.curve_points(cond):
                found = study.scored(name)
                if found is None:
                    continue
                pts = [float(r["r1"]) for _, r in iter_jsonl(found) if r["r1"] is not None]
                curve.append({"step": step, "r1_mean": mean(pts), "n": len(pts),
                              "r1_ci": bootstrap_ci(pts, n_resamples=s.bootstrap, seed=cfg.run.seed)})
            entry["learning_curve"] = curve
        out["conditions"][cond] = entry
        per_item[cond] = {r["id"]: r for r in rows}
    out["paired"] = {f"{c} vs {base}": paired_difference(per_item[c], per_item[base], s.bootstrap, cfg.run.seed)
                     for c in per_item if c.startswith("ours-") for base in PAIRED_CONTROLS if base in per_item}
    return out


PAIRED_CONTROLS = ("sft-continued", "sft")


def paired_difference(cond: dict[str, dict[str, Any]], base: dict[str, dict[str, Any]], n_boot: int,
                      seed: int) -> dict[str, Any]:
    """Condition minus control on the SAME held-out items: mean differences in r1 and accuracy with a 95%
    bootstrap interval over items, and per-item r1 wins/ties/losses.

    Why paired: both conditions answer the same problems, so most of the item-to-item spread cancels; two
    separate intervals that overlap can still hide a difference that the paired interval shows (or rule out)."""
    ids = sorted(set(cond) & set(base))
    both_r1 = [i for i in ids if cond[i]["r1"] is not None and base[i]["r1"] is not None]
    d_r1 = [float(cond[i]["r1"]) - float(base[i]["r1"]) for i in both_r1]
    d_acc = [float(cond[i]["correct"]) - float(base[i]["correct"]) for i in ids]
    return {"n": len(ids), "r1_diff": mean(d_r1), "r1_diff_ci": bootstrap_ci(d_r1, n_resamples=n_boot, seed=seed),
            "accuracy_diff": mean(d_acc),
            "accuracy_diff_ci": bootstrap_ci(d_acc, n_resamples=n_boot, seed=seed),
            "r1_wins": sum(d > 0 for d in d_r1), "r1_ties": sum(d == 0 for d in d_r1),
            "r1_losses": sum(d < 0 for d in d_r1)}


def _fmt(x: float | None, ci: list | tuple | None = None, pct: bool = False) -> str:
    if x is None:
        return "–"
    scale = 100 if pct else 1
    text = f"{x * scale:.1f}" if pct else f"{x:.3f}"
    if ci:
        text += f" [{ci[0] * scale:.1f}, {ci[1] * scale:.1f}]" if pct else f" [{ci[0]:.3f}, {ci[1]:.3f}]"
    return text


def render_report(results: dict[str, Any]) -> str:
    c = results["config"]
    lines = [f"# physr3 study — level {c['level'] or 'all'}, {c['n_test']} held-out problems", "",
             f"Model `{c['model']}`, {c['n_train']} training problems, {c['refine_steps']} refine steps per "
             f"variant, seed {c['seed']}; {results['budget_minutes']} minutes of stages. Intervals: 95% "
             "bootstrap over held-out items.", "",
             "| condition | n | accuracy % | held-out r1 | compliance % | y2 vs y1 (better/same/worse) |",
             "|---|---|---|---|---|---|"]
    for name, e in results["conditions"].items():
        rev = e.get("revisions", {}).get("total")
        rev_txt = f"{rev['better']}/{rev['same']}/{rev['worse']}" if rev else "–"
        lines.append(f"| {name} | {e['n']} | {_fmt(e['accuracy'], e['accuracy_ci'], pct=True)} | "
                     f"{_fmt(e['r1_mean'], e['r1_ci'])} | {_fmt(e['compliance'], e['compliance_ci'], pct=True)} "
                     f"| {rev_txt} |")
    lines += ["", "## Error types among incorrect held-out answers", "",
              "| condition | MC | CM | CE | none (right steps, wrong answer) | verifier failed |", "|---|---|---|---|---|---|"]
    for name, e in results["conditions"].items():
        t = e["error_types"]
        lines.append(f"| {name} | {t.get('MC', 0)} | {t.get('CM', 0)} | {t.get('CE', 0)} | {t.get('none', 0)} | "
                     f"{t.get('verifier_failed', 0)} |")
    if results.get("paired"):
        lines += ["", "## Paired differences on the same held-out items (condition minus control)", "",
                  "| comparison | n | Δ held-out r1 | r1 wins/ties/losses | Δ accuracy (points) |", "|---|---|---|---|---|"]
        for name, d in results["paired"].items():
            lines.append(f"| {name} | {d['n']} | {_fmt(d['r1_diff'], d['r1_diff_ci'])} | "
                         f"{d['r1_wins']}/{d['r1_ties']}/{d['r1_losses']} | "
                         f"{_fmt(d['accuracy_diff'], d['accuracy_diff_ci'], pct=True)} |")
    curves = {k: e["learning_curve"] for k, e in results["conditions"].items() if e.get("learning_curve")}
    if curves:
        lines += ["", "## Learning curves: held-out r1 by refine step", "", "![](learning_curves.png)", ""]
        for name, pts in curves.items():
            lines.append(f"- {name}: " + ", ".join(f"step {p['step']}: {_fmt(p['r1_mean'], p['r1_ci'])}"
                                                   for p in pts))
    stages = results.get("stage_minutes", {})
    if stages:
        lines += ["", "Stage times (minutes): " + ", ".join(f"{k} {v}" for k, v in stages.items())]
    return "\n".join(lines) + "\n"


def _plot_curves(results: dict[str, Any], path: Path) -> None:
    curves = {k: e["learning_curve"] for k, e in results["conditions"].items() if e.get("learning_curve")}
    if not curves:
        return
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=110)
    for name, pts in curves.items():
        xs = [p["step"] for p in pts if p["r1_mean"] is not None]
        ys = [p["r1_mean"] for p in pts if p["r1_mean"] is not None]
        lo = [p["r1_ci"][0] for p in pts if p["r1_mean"] is not None]
        hi = [p["r1_ci"][1] for p in pts if p["r1_mean"] is not None]
        ax.plot(xs, ys, marker="o", label=name)
        ax.fill_between(xs, lo, hi, alpha=0.15)
    ax.set_xlabel("refine step")
    ax.set_ylabel("held-out mean r1")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def run_study(cfg: Config, argv: list[str] | None = None, progress: bool = True) -> Path:
    return Study(cfg, argv, progress).run()
