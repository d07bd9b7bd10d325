"""Procedural physics problems whose every solution step is known exactly (no external model needed).

Families are declared as data (`physr3.synth.families`, one module per domain) and turned into problems
with a seven-tag solution and a step-level ground-truth record (`physr3.synth.groundtruth`). Modules:

- `spec`: the declaration pieces (given, const, compute, principle, distractor, between, choice)
- `family`: `Family`, which samples, solves, renders and builds the `Problem` record
- `registry`: `register_family`, `get_family`, `all_families`, `select_families`
- `generate`: seeds, the deterministic train/test split and the problem stream
- `check`: the self-check that recomputes every stored step independently
- `inject`: erroneous solutions with a known first error step and type (MC, CM, CE), for verifier data
- `mutations`: the equation and number surgery the injector uses
- `units`: pint registry, SI factors, dimensional analysis, number formatting
"""

from physr3.synth.family import Family, GenerationError
from physr3.synth.registry import all_families, family_names, get_family, register_family, select_families
from physr3.synth.spec import between, choice, compute, const, distractor, given, principle

__all__ = [
    "Family",
    "GenerationError",
    "all_families",
    "between",
    "choice",
    "compute",
    "const",
    "distractor",
    "family_names",
    "get_family",
    "given",
    "principle",
    "register_family",
    "select_families",
]
