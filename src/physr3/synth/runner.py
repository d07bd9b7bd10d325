"""The `physr3 synth` recipe: write generated (or error-injected) problems, list families, or self-check them.

`run_synth(cfg, out=...)` reads the `synth` section and `run.seed` of a resolved config (the command's flags
are config keys, see `physr3.commands._common.FLAG_KEYS`) and does one of three things:

- `list_families`: print the selected families (domain, kind, level, steps, error types they take);
- `check` without `out`: self-check every selected family over `check_seeds` seeds (default 20, seeds
  S..S+N-1): format, exact recomputation of every step, dimensions, final answer, determinism; with
  `inject` also one injection of each error type per instance (`check_injection`);
- otherwise write `synth.n` problem lines to `out` (atomically), or with `inject` erroneous solutions and
  their labels (`physr3.synth.inject.inject_row`); with `check` every written line is checked.

A failed check prints the family and seed and returns 1 (the output file is then not written). Progress
goes to stderr every 1,000 lines.
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from collections.abc import Sequence

from physr3.config import Config
from physr3.errors import UserError
from physr3.problems import write_jsonl
from physr3.quantity.units import DimensionError
from physr3.synth.check import SelfCheckError, check_problem
from physr3.synth.family import GenerationError
from physr3.synth.generate import generate_problems
from physr3.synth.inject import (
    ERROR_TYPES,
    InjectionCheckError,
    InjectionError,
    check_injection,
    inject_error,
    inject_row,
    operator_types,
    problem_row,
)
from physr3.synth.registry import select_families

DEFAULT_CHECK_SEEDS = 20
PROGRESS_EVERY = 1000


def run_synth(cfg: Config, out: str | None = None, *, inject: bool = False, check: bool = False,
              list_families: bool = False, error_types: Sequence[str] | None = None,
              check_seeds: int | None = None) -> int:
    """List, self-check or write problems per `cfg.synth` (see the module docstring); the exit status."""
    sc = cfg.synth
    if list_families:
        return _list(cfg)
    if check and not out:
        return _check_families(cfg, DEFAULT_CHECK_SEEDS if check_seeds is None else check_seeds, inject)
    if not out:
        raise UserError("--out FILE is required (or use --check / --list)")
    types = tuple(error_types or ERROR_TYPES)
    n, seed, start = sc.n, cfg.run.seed, time.time()
    counts: Counter[str] = Counter()
    per_level: Counter[tuple[int, str]] = Counter()

    def rows():
        problems = generate_problems(n, seed, families=sc.families, domains=sc.domains, split=sc.split,
                                     test_fraction=sc.test_fraction, holdout_families=sc.holdout_families,
                                     levels=sc.levels)
        for k, p in enumerate(problems, 1):
            if check:
                check_problem(p)
            per_level[(p.extra["level"], p.domain)] += 1
            if inject:
                box: list = []
                row = inject_row(p, seed, sc.control_fraction, types=types, injection=box)
                if check and box[0] is not None:
                    check_injection(p, box[0])
                counts[row["label_error_type"]] += 1
            else:
                row = problem_row(p)
            yield row
            if n >= PROGRESS_EVERY and k % PROGRESS_EVERY == 0 and k < n:
                print(f"synth: {k}/{n} lines ({time.time() - start:.1f} s)", file=sys.stderr, flush=True)

    try:
        written = write_jsonl(out, rows())
    except (SelfCheckError, InjectionCheckError, InjectionError, GenerationError, DimensionError) as exc:
        print(f"physr3 synth: {'check ' if check else ''}FAILED: {exc}", file=sys.stderr)
        return 1
    if check:
        print(_level_table(per_level, "problems"), file=sys.stderr)
    what = "injected lines" if inject else "problems"
    labels = " (" + ", ".join(f"{t}: {counts[t]}" for t in (*ERROR_TYPES, "none")) + ")" if inject else ""
    print(f"synth: wrote {written} {what}{labels} to {out} in {time.time() - start:.1f} s"
          f"{' (all checked)' if check else ''}", file=sys.stderr)
    return 0


def _selected(cfg: Config):
    return select_families(cfg.synth.families, cfg.synth.domains, cfg.synth.levels)


def _list(cfg: Config) -> int:
    fams = _selected(cfg)
    for f in fams:
        print(f"{f.name:<40} {f.domain:<16} {f.kind:<8} level {f.level}  {len(f.steps)} steps  inject: "
              f"{' '.join(operator_types(f))}")
    print(f"synth: {len(fams)} families", file=sys.stderr)
    return 0


def _level_table(counts: Counter[tuple[int, str]], what: str) -> str:
    """Counts per difficulty level (rows) and domain (columns), for --check."""
    domains = sorted({d for _, d in counts})
    lines = [f"synth: {what} per level and domain", "  level  " + "  ".join(f"{d:>16}" for d in domains)
             + f"  {'all':>6}"]
    for level in sorted({lv for lv, _ in counts}):
        row = [counts[(level, d)] for d in domains]
        lines.append(f"  {level:>5}  " + "  ".join(f"{c:>16}" for c in row) + f"  {sum(row):>6}")
    return "\n".join(lines)


def _check_families(cfg: Config, seeds: int, inject: bool) -> int:
    """Self-check every selected family over `seeds` seeds; report every failing family."""
    fams = _selected(cfg)
    first = cfg.run.seed
    start, failures, checked = time.time(), [], 0
    for fam in fams:
        seed = None
        try:
            for seed in range(first, first + seeds):
                p = fam.generate(seed)
                check_problem(p)
                if inject:
                    for etype in operator_types(fam):
                        inj = inject_error(p, random.Random(f"check:{seed}:{etype}"), types=(etype,))
                        if inj is not None:
                            check_injection(p, inj)
                        elif etype != "CM":
                            raise InjectionCheckError(f"family {fam.name!r} seed {seed}: no {etype} injection")
                checked += 1
        except (SelfCheckError, InjectionCheckError) as exc:
            failures.append(str(exc))
        except Exception as exc:  # a broken declaration: name it rather than crash the whole check
            failures.append(f"family {fam.name!r} seed {seed}: {type(exc).__name__}: {exc}")
    for msg in failures:
        print(f"physr3 synth: check FAILED: {msg}", file=sys.stderr)
    print(_level_table(Counter((f.level, f.domain) for f in fams), "families"), file=sys.stderr)
    print(f"synth: checked {checked} problems of {len(fams)} families ({seeds} seeds each"
          f"{', with injection' if inject else ''}) in {time.time() - start:.1f} s: "
          f"{len(failures)} failing famil{'y' if len(failures) == 1 else 'ies'}", file=sys.stderr)
    return 1 if failures else 0
