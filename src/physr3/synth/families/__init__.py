"""Problem families, one module per domain; every module in this package is imported automatically.

How to add a family
-------------------
1. Pick (or create) the domain module: `mechanics.py`, `electromagnetism.py`, `thermodynamics.py`,
   `waves_optics.py`, `modern_physics.py`. A new module here is found automatically (no import to add).
2. Declare the family with `register_family(Family(...))`; `mechanics.py` holds worked examples::

       register_family(Family(
           name="atwood_acceleration",              # unique, snake_case; duplicates are refused
           domain="Mechanics",                      # one of physr3.problems.DOMAINS
           question=("Two blocks of masses {m1} and {m2} hang over a light frictionless pulley. "
                     "Taking g = {g}, find the magnitude of the acceleration of the blocks."),
           givens=[                                 # (symbol, value or sampler, unit, description)
               given("m1", between(2.0, 9.0), "kg", "mass of the heavier block", sig=2),
               given("m2", between(0.5, 5.0), "kg", "mass of the lighter block", sig=2),
               const("g", 9.8, "m/s^2", "gravitational acceleration"),
           ],
           find=("a", "the magnitude of the acceleration of the blocks"),
           principles=[principle("Newton's second law", "applied to each block with a common string "
                                 "tension T; the blocks share one acceleration", "newton", "tension")],
           steps=[                                  # (symbol, sympy expression, unit, description)
               compute("a", "(m1 - m2)*g/(m1 + m2)", "m/s^2", "acceleration",
                       why="from m1*g - T = m1*a and T - m2*g = m2*a"),
           ],
           require=["m1 > 1.2*m2"],                 # redraw givens until all hold (SI values)
       ))

   - Every given must appear in `question` as `{symbol}` (it renders as "2.5 kg"); constants too.
   - Expressions are sympy strings (`^` or `**`, sin/cos/sqrt/exp/log/pi) over givens and earlier steps;
     they are evaluated in SI base units, so givens may be in cm, g, eV, uF, deg: the framework converts.
     Use K for temperatures (offset units are refused). Symbol names must be Python identifiers
     (`lam`, not `lambda`); names like E, I, N, S are fine.
   - `sig` on a given is how many significant figures it is stated with; on a step, how many its value is
     shown with (default 3). Sample ranges should be physically sensible; add `require` for constraints.
   - For a 4-option MCQ add `distractors=[distractor("forgot the factor 2", T="v0*sin(theta)/g"), ...]`
     (at least 3): each replaces one or more step expressions with a typical error; the wrong option is
     what the rest of the solution then gives. Coinciding options are dropped and generic slips fill in.
   - Error injection (`physr3.synth.inject`) needs nothing more: it misreads givens, mutates equations
     (sign, missing factor, sin/cos, inverted ratio, gamma 5/3 <-> 7/5, h -> hbar) and slips calculations.
     MCQ distractors double as conceptual errors; a free-response family can declare its own with
     `typical_errors=[distractor("used Cp instead of Cv", W="...")]` (same syntax, not shown as options).
     `inject_skip=("CM",)` (or operator names such as "swap_trig") turns off errors that make no sense
     for the family; MC and CE always apply. `physr3 synth --list` shows the types per family.
3. Run `.venv/bin/pytest tests/synth -q`: the registry-wide tests self-check every family (format, exact
   recomputation from the ground truth, dimensions, final answer, determinism) over many seeds and
   inject MC, CM and CE errors into it (`tests/synth/test_inject.py`).
"""

from __future__ import annotations

import importlib
import pkgutil

for _module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    importlib.import_module(f"{__name__}.{_module}")
