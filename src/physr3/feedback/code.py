"""Calculation-error (CE) feedback: Python code that recomputes the erroneous step, and its output.

The paper (section 3.3, Appendix C) has an LLM write and execute Python that "correctly performs the
computation at the identified error step" and folds the output into feedback that clarifies the correct
calculation and the original slip. Here the code comes from, in order of preference:

1. `model`: the configured OpenAI-compatible model (`feedback.code_model`), asked for a standard-library
   program that prints the step's result (as in the paper);
2. `ground_truth`: a generated problem's step-level record (`physr3.synth.groundtruth`): the erroneous
   step's symbol is recomputed from the givens (converted to SI base units) through the governing
   equations, sympy expressions printed as Python;
3. `text`: the solution's own substitution text, read by the safe parser in `physr3.quantity.arith`
   (never `eval`), with units replaced by their SI factors and earlier steps' values as variables.

Model-written code (route 1) runs in `physr3.feedback.sandbox` (its own process, limits, no network); the
programs of routes 2 and 3 are physr3's own, checked to be plain arithmetic and run in-process
(`physr3.feedback.own_code`). The correct value quoted in the feedback is the program's output; for routes 2
and 3 the same value is also computed in the host (exactly for ground truth, with pint for text) and a
disagreement is recorded in `details`.
Deviation from the paper: without a model we do not need one, and route 3 recomputes what the student
wrote — right for arithmetic slips, not for a wrongly substituted number (the explanation covers that).
"""

from __future__ import annotations

import keyword
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from physr3.problems import Problem
from physr3.quantity import arith as ex
from physr3.quantity.answer import leading_unit_text, output_value, value_in_unit
from physr3.quantity.sigfig import fmt_sig
from physr3.quantity.units import si_factor
from physr3.solution import ParsedSolution

Runner = Callable[[str, float], Any]  # (code, timeout_s) -> object with stdout, stderr, exit_code, stopped_by
Chat = Callable[[list[dict[str, str]]], str]  # messages -> reply text

_COMMENT_RE = re.compile(r"\s+\(([^()]*)\)\s*$")
_LHS_RE = re.compile(r"^\s*([^\W\d]\w*)\s*$")


@dataclass
class CodePlan:
    """Code that recomputes one step, and what the host knows about its result."""

    step: int
    source: str  # "model" | "ground_truth" | "text"
    code: str
    symbol: str | None = None
    unit: str = ""  # unit of the printed result
    expected: float | None = None  # host-side value in `unit` (None for model code)
    written: float | None = None  # the solution's value for this step in `unit`, when it states one
    sig: int = 4  # significant figures to report


@dataclass
class CodeResult:
    plan: CodePlan | None
    output: str = ""
    value: float | None = None
    ok: bool = False
    details: dict[str, Any] = field(default_factory=dict)


# ------------------------------------------------------------------------------------------ step text

def strip_comment(text: str) -> str:
    """Drop a trailing parenthetical remark ("(mass of the block)", "(from T - m*g = m*a)")."""
    m = _COMMENT_RE.search(text)
    if m and len(re.findall(r"[A-Za-z]{3,}", m.group(1))) >= 2:
        return text[: m.start()].rstrip()
    return text.rstrip()


def split_step(text: str) -> tuple[str | None, list[str]]:
    """'a = (10 N)/(2 kg) = 5 m/s^2' -> ('a', ['(10 N)/(2 kg)', '5 m/s^2']); no simple name on the left -> None."""
    parts = [p.strip() for p in strip_comment(text).split("=")]
    if len(parts) < 2:
        return None, parts
    m = _LHS_RE.match(parts[0])
    return (m.group(1) if m else None), [p for p in parts[1:] if p]


def _constant(text: str, variables: set[str]):
    """A part that is a plain quantity ('4.82 m/s^2'), as a pint quantity; None otherwise."""
    try:
        node = ex.parse(text)
    except ex.ExprError:
        return None
    if ex.names(node, "var"):
        return None
    try:
        return ex.evaluate(node, {})
    except ex.ExprError:
        return None


def known_values(parsed: ParsedSolution, before: int, exclude: str | None) -> dict[str, Any]:
    """`name -> pint quantity` for steps before `before` that state `name = quantity`."""
    env: dict[str, Any] = {}
    for st in parsed.steps:
        if st.number >= before:
            break
        lhs, parts = split_step(st.text)
        if lhs and lhs != exclude and parts:
            value = _constant(parts[-1], set())
            if value is not None:
                env[lhs] = value
    return env


def _is_number_text(text: str) -> bool:
    node = None
    try:
        node = ex.parse(text)
    except ex.ExprError:
        return False
    return ex.is_stated_value(node)


# ------------------------------------------------------------------------------------------ text route

_NAMED_UNITS = ("N", "J", "W", "Pa", "C", "V", "ohm", "F", "T", "Wb", "H", "Hz")


def named_unit(q) -> str:
    """A readable unit for a result: a named SI unit of the same dimension, else SI base units ('m/s^2')."""
    base = q.to_base_units()
    if base.dimensionless:
        return ""
    for name in _NAMED_UNITS:
        if ex.ureg().Quantity(1.0, name).dimensionality == base.dimensionality:
            return name
    return f"{base.units:~C}".replace("**", "^")

def _py_name(name: str, taken: set[str]) -> str:
    ok = name.isidentifier() and not keyword.iskeyword(name) and name not in ("math", "print", "abs")
    out = name if ok and not name.startswith("u_") else f"v_{len(taken)}"
    taken.add(out)
    return out


def plan_from_text(parsed: ParsedSolution, step: int) -> CodePlan:
    """Code for the erroneous step from the solution's own arithmetic; raises ExprError if unreadable."""
    target = parsed.step(step)
    if target is None:
        raise ex.ExprError(f"Step {step} not found")
    lhs, parts = split_step(target.text)
    source_step, expression = step, next((p for p in parts if not _is_number_text(p)), None)
    if expression is None and lhs:  # a bare result: recompute the latest earlier expression for lhs
        for st in reversed([s for s in parsed.steps if s.number < step]):
            lhs2, parts2 = split_step(st.text)
            found = next((p for p in parts2 if not _is_number_text(p)), None) if lhs2 == lhs else None
            if found:
                source_step, expression = st.number, found
                break
    if expression is None:
        raise ex.ExprError(f"Step {step} has no arithmetic to recompute")
    env = known_values(parsed, step, exclude=lhs)
    node = ex.parse(expression, set(env))
    result = ex.evaluate(node, env)
    written_text = parts[-1] if parts and _is_number_text(parts[-1]) else None
    written_q = _constant(written_text, set()) if written_text else None
    unit = ""
    if written_q is not None and written_q.dimensionality == result.dimensionality:
        unit = leading_unit_text(written_text)
    unit_q = ex.ureg().Quantity(1.0, ex.normalise(unit).replace("^", "**") or "") if unit else None
    if unit_q is None:
        unit = named_unit(result)
        unit_q = ex.ureg().Quantity(1.0, ex.normalise(unit).replace("^", "**") or "")
    factor = unit_q.to_base_units().magnitude
    expected = result.to_base_units().magnitude / factor
    written = written_q.to_base_units().magnitude / factor if written_q is not None and unit else None
    if written_q is not None and written is None and written_q.dimensionless and result.dimensionless:
        written = written_q.to_base_units().magnitude

    taken: set[str] = set()
    var_names = {v: _py_name(v, taken) for v in sorted(ex.names(node, "var"))}
    result_name = _py_name(lhs, taken) if lhs else "result"
    origin = f" (the expression of Step {source_step})" if source_step != step else ""
    lines = [f"# Recompute Step {step}{origin}: {lhs + ' = ' if lhs else ''}{expression}",
             "# Each unit is replaced by its size in SI base units, so the arithmetic runs in SI.", "import math", ""]
    for sym in sorted(ex.names(node, "unit"), key=ex.unit_identifier):
        lines.append(f"{ex.unit_identifier(sym)} = {ex.unit_quantity(sym).to_base_units().magnitude!r}  # {sym}")
    for v in sorted(var_names):
        lines.append(f"{var_names[v]} = {env[v].to_base_units().magnitude!r}  # {v} = {env[v]:~P} (earlier step)")
    lines.append(f"{result_name} = {ex.to_python(node, var_names)}")
    label = lhs or "result"
    lines.append(f"print(f\"{label} = {{{result_name} / {factor!r}:.6g}}{(' ' + unit) if unit else ''}\")")
    return CodePlan(step, "text", "\n".join(lines) + "\n", lhs, unit, expected, written)


# ---------------------------------------------------------------------------------- ground-truth route

_SREPR_NAMES = {"Symbol", "Integer", "Float", "Rational", "Add", "Mul", "Pow", "sin", "cos", "tan", "asin",
                "acos", "atan", "exp", "log", "sqrt", "pi", "Abs", "Half", "One", "NegativeOne", "Zero",
                "precision", "E", "Pi"}
_SREPR_TOKEN = re.compile(r"'[^'\\]*'|[A-Za-z_]\w*|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|[(),=\-+\s.]")


def _safe_srepr(text: str) -> bool:
    """True when `text` is only sympy constructor calls over quoted names and numbers (no other code)."""
    pos = 0
    while pos < len(text):
        m = _SREPR_TOKEN.match(text, pos)
        if not m:
            return False
        tok = m.group(0)
        if tok[0].isalpha() or tok[0] == "_":
            if tok not in _SREPR_NAMES:
                return False
        elif tok[0] == "'" and not re.fullmatch(r"'[^\W\d]\w*'", tok):
            return False
        pos = m.end()
    return True


def _gt_expr(step: dict):
    import sympy as sp

    srepr = step.get("rhs_srepr")
    if srepr and _safe_srepr(srepr):
        return sp.parse_expr(srepr)
    raise ex.ExprError("ground-truth equation missing or not a plain sympy srepr")


def plan_from_ground_truth(problem: Problem, parsed: ParsedSolution, step: int) -> CodePlan | None:
    """Recompute the erroneous step's symbol from the ground truth's givens and equations (SI inside)."""
    import sympy as sp
    from sympy.printing.pycode import pycode

    gt = problem.ground_truth or {}
    steps = gt.get("steps") or []
    target = parsed.step(step)
    lhs = split_step(target.text)[0] if target else None
    calcs = {s["symbol"]: s for s in steps if s.get("kind") == "calculation"}
    symbol = lhs if lhs in calcs else None
    if symbol is None and 0 < step <= len(steps) and steps[step - 1].get("kind") in ("substitution", "calculation"):
        symbol = steps[step - 1].get("symbol")
    if symbol not in calcs:
        return None
    equations = {s["symbol"]: s for s in steps if s.get("kind") == "equation"}
    givens = {s["symbol"]: s for s in steps if s.get("kind") == "given"}
    exprs: dict[str, Any] = {}
    order: list[str] = []

    def need(sym: str) -> None:
        if sym in exprs or sym in givens:
            return
        if sym not in equations:
            raise ex.ExprError(f"no equation for {sym}")
        exprs[sym] = _gt_expr(equations[sym])
        for dep in sorted(str(s) for s in exprs[sym].free_symbols):
            need(dep)
        order.append(sym)

    need(symbol)
    used = set(order) | {str(s) for sym in order for s in exprs[sym].free_symbols}
    taken: set[str] = set()
    names = {s: _py_name(s, taken) for s in sorted(used)}
    rename = {sp.Symbol(s): sp.Symbol(n) for s, n in names.items()}
    unit = calcs[symbol].get("unit", "")
    factor = si_factor(unit)
    lines = [f"# Recompute Step {step} ({symbol}) from the givens through the governing equations, in SI units.",
             "import math", ""]
    env: dict[str, float] = {}
    for s in sorted(used & set(givens)):
        g = givens[s]
        env[s] = float(g["value"]) * si_factor(g.get("unit", ""))
        note = f"{g['value']} {g.get('unit', '')}".strip()
        lines.append(f"{names[s]} = {env[s]!r}  # {note}: {g.get('description', '')}".rstrip(": "))
    for s in order:
        code_expr = pycode(exprs[s].xreplace(rename), fully_qualified_modules=True)
        lines.append(f"{names[s]} = {code_expr}  # {equations[s].get('lhs', s)} = {equations[s].get('rhs', '')}")
        env[s] = float(exprs[s].evalf(subs={sp.Symbol(k): v for k, v in env.items()}))
    lines.append(f"print(f\"{symbol} = {{{names[symbol]} / {factor!r}:.6g}}{(' ' + unit) if unit else ''}\")")
    parts = split_step(target.text)[1] if target is not None else []
    written = value_in_unit(parts[-1], unit) if parts else None
    return CodePlan(step, "ground_truth", "\n".join(lines) + "\n", symbol, unit, env[symbol] / factor, written,
                    int(calcs[symbol].get("sig", 3)))


# ------------------------------------------------------------------------------------------ model route

CODE_PROMPT = """You check one step of a physics solution.

Problem:
{question}

Solution:
{solution}

A verifier found a calculation error at Step {step}: {explanation}

Write a short Python 3 program (standard library only; `import math` is fine) that correctly performs the
computation of Step {step} from the values in the problem and prints the result as `name = value unit`.
Reply with the program in one ```python block and nothing else."""

_CODE_BLOCK_RE = re.compile(r"```(?:python|py)?\s*\n(.*?)```", re.DOTALL)


def extract_code(reply: str) -> str | None:
    blocks = _CODE_BLOCK_RE.findall(reply)
    if blocks:
        return max(blocks, key=len).strip() + "\n"
    return reply.strip() + "\n" if "print(" in reply else None


def plan_from_model(chat: Chat, question: str, solution: str, step: int, explanation: str) -> CodePlan | None:
    reply = chat([{"role": "user", "content": CODE_PROMPT.format(question=question, solution=solution,
                                                                  step=step, explanation=explanation)}])
    code = extract_code(reply or "")
    return CodePlan(step, "model", code) if code else None


# ------------------------------------------------------------------------------------------ run + text

def run_plan(plan: CodePlan, runner: Runner, timeout_s: float) -> CodeResult:
    res = runner(plan.code, timeout_s)
    output = (res.stdout or "").strip()
    details: dict[str, Any] = {"source": plan.source, "exit_code": res.exit_code, "stopped_by": res.stopped_by}
    if res.stderr:
        details["stderr"] = res.stderr[-800:]
    ok = res.exit_code == 0 and res.stopped_by is None and bool(output)
    value = output_value(output) if ok else None
    if value is not None and plan.expected is not None and not math.isclose(value, plan.expected, rel_tol=1e-4):
        details["host_value_disagrees"] = plan.expected
    return CodeResult(plan, output, value, ok and value is not None, details)


def fmt_value(x: float, sig: int = 4) -> str:
    return fmt_sig(x, max(sig, 1))


def describe_slip(written: float | None, correct: float | None) -> str:
    """A short name for how the written value differs from the correct one."""
    if written is None or correct is None:
        return ""
    if written == correct or math.isclose(written, correct, rel_tol=5e-3):
        return "the value agrees up to rounding: check the rounding of intermediate results"
    if correct != 0 and math.isclose(written, -correct, rel_tol=5e-3):
        return "a sign error"
    if correct == 0 or written == 0:
        return "an arithmetic error"
    ratio = written / correct
    k = round(math.log10(abs(ratio)))
    if k and math.isclose(abs(ratio), 10.0 ** k, rel_tol=2e-2):
        return f"a power-of-ten slip (off by a factor of 10^{k}): check unit prefixes and exponents"
    for f, name in ((2.0, "2"), (0.5, "1/2"), (math.pi, "π"), (1 / math.pi, "1/π")):
        if math.isclose(abs(ratio), f, rel_tol=1e-2):
            return f"off by a factor of {name}: a factor was dropped or added"
    if correct > 0 and written > 0 and (math.isclose(written, correct ** 2, rel_tol=1e-2)
                                        or math.isclose(written ** 2, correct, rel_tol=1e-2)):
        return "a square / square-root slip"
    return f"an arithmetic error ({100 * (ratio - 1):+.0f}% off)"
