"""The problem stream: instance seeds, the deterministic train/test split, and `generate_problems`.

- Instance seeds: the k-th attempt of a run with seed S uses family `families[k % F]` (families sorted by
  name, so the mix is balanced and independent of import order) and the instance seed
  `derive_seed(S, family, k)` (SHA-256, 63 bits). Same arguments, same problems, same bytes.
- Split by instance content, not by position: `split_of` hashes the family name and the stated givens
  (`Family.content_key`), so an instance drawn twice (small discrete families) always falls on the same
  side and no test problem can appear in train, whatever the seed, n or family mix. A problem is "test"
  when its hash, read as a fraction in [0, 1), is below `test_fraction`; raising the fraction only moves
  problems from train to test (test sets are nested).
- Whole-family holdout: families in `holdout_families` are all "test"; `split="train"` never draws them.
- Duplicates within one run are dropped (ids are content-addressed), so a run holds n distinct problems;
  a run that cannot find n after `n * 50 + 1000` attempts fails, naming the families.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence

from physr3.errors import UserError
from physr3.problems import Problem
from physr3.synth.family import Family
from physr3.synth.registry import get_family, select_families

SPLITS = ("train", "test", "all")


def derive_seed(run_seed: int, family: str, index: int) -> int:
    """The instance seed of attempt `index` for `family` in a run seeded with `run_seed`."""
    digest = hashlib.sha256(f"physr3.synth:{run_seed}:{family}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def split_fraction(content_key: str) -> float:
    """A uniform number in [0, 1) fixed by an instance's content."""
    digest = hashlib.sha256(f"physr3.split:{content_key}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2.0**64


def split_of(family: Family, shown: dict[str, float], test_fraction: float,
             holdout_families: Sequence[str] = ()) -> str:
    """'train' or 'test' for an instance with these stated givens."""
    if family.name in holdout_families:
        return "test"
    return "test" if split_fraction(family.content_key(shown)) < test_fraction else "train"


def problem_split(problem: Problem, test_fraction: float, holdout_families: Sequence[str] = ()) -> str:
    """The split of a generated problem, read back from its ground truth."""
    fam = get_family(problem.family)
    shown = {s["symbol"]: s["value"] for s in problem.ground_truth["steps"] if s["kind"] == "given"}
    return split_of(fam, shown, test_fraction, holdout_families)


def generate_problems(n: int, seed: int = 0, *, families: Sequence[str] | None = None,
                      domains: Sequence[str] | None = None, split: str = "all", test_fraction: float = 0.2,
                      holdout_families: Sequence[str] = (), levels: Sequence[int] | None = None,
                      ) -> Iterator[Problem]:
    """Yield n distinct problems of the requested split (and difficulty levels), deterministically."""
    if split not in SPLITS:
        raise UserError(f"unknown split {split!r}; valid: {', '.join(SPLITS)}")
    if not 0.0 <= test_fraction <= 1.0:
        raise UserError(f"test_fraction must be in [0, 1], got {test_fraction}")
    for name in holdout_families:
        get_family(name)  # unknown names fail loudly
    fams = select_families(list(families or []), list(domains or []), list(levels or []))
    if split == "train":
        fams = [f for f in fams if f.name not in holdout_families]
        if not fams:
            raise UserError("every selected family is held out: nothing can be in the train split")
    seen: set[str] = set()
    budget = n * 50 + 1000
    k = 0
    while len(seen) < n:
        if k >= budget:
            raise UserError(f"only {len(seen)} distinct {split} problems of {n} after {k} attempts from "
                            f"families {[f.name for f in fams]}; ask for fewer or add families")
        fam = fams[k % len(fams)]
        inst_seed = derive_seed(seed, fam.name, k)
        k += 1
        _, shown, _ = fam.draw(inst_seed)
        if split != "all" and split_of(fam, shown, test_fraction, holdout_families) != split:
            continue
        pid = fam.problem_id(shown)
        if pid in seen:
            continue
        seen.add(pid)
        yield fam.generate(inst_seed)
