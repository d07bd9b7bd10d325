"""Rewrite a correct ground-truth solution the way different (small) models would write it, keeping it correct.

Used to test that the symbolic verifier tolerates writing style (a paraphrase must still be judged "no
error"). From a problem's `physr3.synth.gt/1` record, `paraphrase(problem, rng)` renders the same reasoning
with a random mix of, per step:

- givens in another order, under subscripted or Greek spellings (`v_0`, `θ`), with other unit spellings
  (`m s^-2`, `m/s²`, `\\mathrm{m/s^2}`) or in a converted unit (`4210 g`, `0.611 rad`), and prose around;
- the target as prose ("We need the tension T in the string");
- equations in LaTeX (`\\frac{}{}`, `\\sqrt{}`, `\\cdot`), with implicit multiplication, sides swapped, or
  multiplied out (`a*(m1 + m2) = (m1 - m2)*g`), or introduced by words;
- substitutions with earlier results plugged in as rounded numbers;
- results in scientific notation (`3.2 \\times 10^{-19}`), in a converted unit, rounded to 3-4
  significant figures, or without units; the final answer in another spelling.

Every rewrite is mathematically equivalent (within the 3-figure rounding the ground truth itself shows).
`paraphrase_steps` renders any ground-truth-schema steps (also an injector's erroneous ones) and returns
the step renumbering; `paraphrase_injection` restyles an injected solution and moves its label with the
reordered givens, so detection can be measured on solutions that do not read like the ground truth.
These rewrites are programmatic: they widen the styles tested, but they are not real model outputs.

A test double, not part of the physr3 package (it was `physr3.verify.paraphrase`): only the tests
(`tests/verify/test_symbolic.py`) and `benchmarks/verifier.py` use it; nothing in `src/` does.
"""

from __future__ import annotations

import random
import re
from typing import Any

import sympy as sp

from physr3.problems import Problem
from physr3.quantity.sigfig import fmt_sig
from physr3.solution import render_solution
from physr3.verify.symbolic import srepr_to_sympy

_UNIT_SPELLINGS = {
    "m/s^2": ["m s^-2", "m/s²", r"\mathrm{m/s^2}", "m·s⁻²", "m/s^2", "m/s2"],
    "m/s": ["m s^-1", r"\mathrm{m\,s^{-1}}", "m/s"],
    "N*m^2/C^2": [r"N·m²/C²", "N m^2 C^-2"],
    "ohm": ["Ω", r"\Omega", "ohms"],
    "kohm": ["kΩ"],
    "deg": ["°", r"^\circ", "degrees"],
    "uF": ["μF", r"\mu F"],
    "uC": ["μC", "µC"],
    "J": ["J", "joules"],
}
_CONVERSIONS = {"kg": ("g", 1000.0), "m": ("cm", 100.0), "J": ("kJ", 1e-3), "cm": ("m", 0.01), "kJ": ("J", 1000.0),
                "g": ("kg", 1e-3), "N": ("kN", 1e-3), "s": ("ms", 1000.0), "mm": ("m", 1e-3)}
_SUBSCRIPTED = re.compile(r"^([A-Za-z])([0-9]+|[a-z]{1,3})$")
_GREEK = {"theta": "θ", "mu": "μ", "lam": "λ", "omega": "ω", "phi": "φ", "alpha": "α", "rho": "ρ", "tau": "τ"}


def _spell_unit(unit: str, rng: random.Random) -> str:
    return rng.choice(_UNIT_SPELLINGS.get(unit, [unit]))


def _spell_symbol(sym: str, rng: random.Random, style: dict[str, str]) -> str:
    if sym not in style:
        options = [sym]
        m = _SUBSCRIPTED.match(sym)
        if m and sym not in ("mu", "lam", "eps0"):
            options += [f"{m.group(1)}_{m.group(2)}", f"{m.group(1)}_{{{m.group(2)}}}"]
        if sym in _GREEK:
            options += [_GREEK[sym], "\\" + ("lambda" if sym == "lam" else sym)]
        style[sym] = rng.choice(options)
    return style[sym]


def _number(value: float, rng: random.Random, sig: int = 3) -> str:
    text = fmt_sig(value, sig)
    if "e" in text and rng.random() < 0.5:
        mant, exp = text.split("e")
        return f"{mant} \\times 10^{{{int(exp)}}}" if rng.random() < 0.5 else f"{mant} × 10^{int(exp)}"
    return text


def _symbols_latex(expr: sp.Basic, style: dict[str, str]) -> str:
    names = {s: sp.Symbol(style.get(s.name, s.name).replace("\\", "")) for s in expr.free_symbols}
    text = sp.latex(expr.xreplace(names))
    return text


def _equation_text(step: dict[str, Any], rng: random.Random, style: dict[str, str]) -> str:
    sym = step["symbol"]
    expr = srepr_to_sympy(step["rhs_srepr"])
    lhs = _spell_symbol(sym, rng, style)
    plain = step["rhs"].replace("**", "^")
    for s in sorted({x.name for x in expr.free_symbols}, key=len, reverse=True):
        plain = re.sub(rf"(?<![A-Za-z0-9_]){re.escape(s)}(?![A-Za-z0-9_])",
                       lambda _m, s=s: _spell_symbol(s, rng, style), plain)
    choice = rng.randrange(6)
    if choice == 0:
        return f"{lhs} = {_symbols_latex(expr, style)}"
    if choice == 1:
        return f"{lhs} = {re.sub(r'(?<=[A-Za-z0-9)])[*](?=[A-Za-z(])', ' ', plain)}"
    if choice == 2:
        return f"{plain} = {lhs}"
    if choice == 3:
        num, den = sp.fraction(sp.together(expr))
        if den != 1 and not den.is_number:
            den_text = str(den).replace("**", "^")
            num_text = str(num).replace("**", "^")
            return f"{sym}*({den_text}) = {num_text}"
        return f"{lhs} = {plain}"
    if choice == 4:
        return f"Using this, the relation is {lhs} = {plain}."
    return f"{lhs} = {plain}"


def _given_text(step: dict[str, Any], rng: random.Random, style: dict[str, str]) -> str:
    sym, value, unit = step["symbol"], float(step["value"]), step.get("unit", "")
    name = _spell_symbol(sym, rng, style)
    text = repr(value).removesuffix(".0") if value == int(value) and abs(value) < 1e6 else repr(value)
    if "e" in text:
        mant, exp = text.split("e")
        text = f"{mant} \\times 10^{{{int(exp)}}}"
    if unit in _CONVERSIONS and rng.random() < 0.3:
        new_unit, f = _CONVERSIONS[unit]
        shown = f"{value * f:.6g} {new_unit}"
    elif unit == "deg" and rng.random() < 0.3:
        shown = f"{value:g}°"
    else:
        shown = f"{text} {_spell_unit(unit, rng)}".strip()
    return rng.choice([f"{name} = {shown}", f"{name} = {shown} ({step.get('description', '')})",
                       f"The {step.get('description', 'value')} is {name} = {shown}"])


def _value_text(value: float, unit: str, rng: random.Random, sig: int, keep_unit: bool = False) -> str:
    r = rng.random()
    if keep_unit and r < 0.35:
        r = 0.5
    if unit in _CONVERSIONS and r < 0.2:
        new_unit, f = _CONVERSIONS[unit]
        return f"{_number(value * f, rng, sig)} {new_unit}"
    if r < 0.35:
        return _number(value, rng, sig)  # unit left out
    return f"{_number(value, rng, sig)} {_spell_unit(unit, rng)}".strip()


def paraphrase(problem: Problem, rng: random.Random) -> str:
    """A correct solution of `problem` written in another style (see the module docstring)."""
    rec = problem.ground_truth or {}
    return paraphrase_steps(rec, rec["steps"], rng)[0]


def paraphrase_steps(rec: dict[str, Any], steps: list[dict[str, Any]], rng: random.Random, *,
                     final_answer: str | None = None, plug_values: bool = True) -> tuple[str, dict[int, int]]:
    """Render ground-truth-schema `steps` (the ground truth's, or an injector's erroneous ones) in another
    style; returns the text and {original step number: new step number} (givens are reordered).
    `plug_values=False` keeps later results symbolic in substitutions (an erroneous result plugged into an
    earlier-numbered substitution would move the first error) and keeps units on results (a bare number
    cannot show a unit slip such as a result left in J where kJ is asked)."""
    style: dict[str, str] = {}
    sections: dict[str, list[str]] = {t: [] for t in ("given", "find", "concept", "governing_equation",
                                                      "substitution", "calculation")}
    givens = [s for s in steps if s["kind"] == "given"]
    rng.shuffle(givens)
    numbers = {s["number"]: k for k, s in enumerate(givens, 1)}
    numbers.update({s["number"]: k for k, s in enumerate((s for s in steps if s["kind"] != "given"),
                                                            len(givens) + 1)})
    for s in givens:
        sections["given"].append(_given_text(s, rng, style))
    computed = {s["symbol"]: (float(s["value"]), s.get("unit", "")) for s in steps if s["kind"] == "calculation"}
    target = next((s["symbol"] for s in steps if s["kind"] == "target"), None)
    for s in steps:
        kind = s["kind"]
        if kind == "target":
            sym = _spell_symbol(s["symbol"], rng, style)
            sections["find"].append(rng.choice([s["text"], f"We need {s['description']}, {sym}.",
                                                f"Find {sym} ({s['description']})"]))
        elif kind == "principle":
            sections["concept"].append(rng.choice([s["text"], f"We use {s['name']}: {s['statement']}",
                                                   f"{s['name']} applies here."]))
        elif kind == "equation":
            sections["governing_equation"].append(_equation_text(s, rng, style))
        elif kind == "substitution":
            text = s["text"]
            if plug_values and rng.random() < 0.5:  # plug in earlier results as rounded numbers
                lhs, rhs = text.split("=", 1)
                for sym, (val, unit) in computed.items():
                    if sym != s["symbol"]:
                        shown = f"({fmt_sig(val, 4)} {unit})" if unit else f"({fmt_sig(val, 4)})"
                        rhs = re.sub(rf"(?<![A-Za-z0-9_]){re.escape(sym)}(?![A-Za-z0-9_])",
                                     lambda _m, t=shown: t, rhs)
                text = f"{lhs.strip()} = {rhs.strip()}"
            if rng.random() < 0.2:
                text = re.sub(r"\)\*\(", ") x (", text)  # 'x' as the multiplication sign
            sections["substitution"].append(rng.choice([text, f"Substituting, {text}",
                                                        f"Now substituting the values: {text}"]))
        elif kind == "calculation":
            sig = s.get("sig", 3) + rng.choice([0, 0, 1])  # never fewer figures than shown (keeps a slip)
            shown = _value_text(float(s["value"]), s.get("unit", ""), rng, sig, keep_unit=not plug_values)
            sym = _spell_symbol(s["symbol"], rng, style)
            sections["calculation"].append(rng.choice([f"{sym} = {shown}", f"So {sym} ≈ {shown}.",
                                                       f"{sym} = {shown} (rounded)", f"{sym} = **{shown}**",
                                                       f"Therefore, {sym} = {shown}"]))
    ans = rec.get("answer", {})
    if rec.get("kind") == "mcq":
        letter = final_answer or ans["letter"]
        final = rng.choice([letter, f"({letter})", f"Option {letter}"])
    else:
        calc = next((s for s in steps if s["kind"] == "calculation" and s["symbol"] == target), None)
        text = final_answer or ans.get("text", "")
        final = text
        if calc is not None:
            final = rng.choice([text, f"{calc['symbol']} = {text}",
                                _value_text(float(calc["value"]), calc.get("unit", ""), rng, calc.get("sig", 3))
                                if calc.get("unit") else text])
    return render_solution(sections, final), numbers


def paraphrase_injection(rec: dict[str, Any], injection: Any, rng: random.Random) -> tuple[str, int]:
    """An injected erroneous solution (`physr3.synth.inject.Injection`) written in another style, and its
    first error step in the new numbering (a misread or swapped given moves with the reordered givens:
    the first erroneous given in the new order)."""
    text, numbers = paraphrase_steps(rec, injection.steps, rng, final_answer=injection.final_answer,
                                     plug_values=False)
    reference = {s["number"]: s["text"] for s in rec["steps"]}
    k = injection.error_step
    if injection.steps[k - 1]["kind"] == "given":
        wrong = [numbers[s["number"]] for s in injection.steps
                 if s["kind"] == "given" and reference.get(s["number"]) != s["text"]]
        return text, min(wrong)
    return text, numbers[k]
