"""The lenient step reader (`physr3.quantity.expr`): quantities in SI, implicit products, LaTeX, prose, hostile text."""

from __future__ import annotations

import pytest

from physr3 import quantity as mp


@pytest.mark.parametrize("text,value", [
    ("5.0 m/s^2", 5.0), ("5.0 m s^-2", 5.0), ("5.0 m/s²", 5.0), (r"5 \mathrm{m/s^2}", 5.0),
    (r"3.2 \times 10^{-19} J", 3.2e-19), ("3.2e-19 J", 3.2e-19), ("3.2 × 10^-19 J", 3.2e-19),
    ("4210 g", 4.21), ("12 kV", 12000.0), ("35°", 0.6108652381980153), (r"35^\circ", 0.6108652381980153),
    ("2.0 μF", 2e-6), (r"2.0 \mu F", 2e-6), ("0.0310 1/h", 0.0310 / 3600), ("9e9 N*m^2/C^2", 9e9),
    ("20 J/(kg K)", 20.0), ("1,000 J", 1000.0), ("-3.2 m/s", -3.2), ("−3.2 m/s", -3.2), ("60.8%", 0.608),
    ("7.71 ms^-1", 7.71), ("7.71 m s⁻¹", 7.71), ("5 Nm", 5.0), ("a=3.23m/s^2", None),
])
def test_quantities_read_in_si(text: str, value: float | None) -> None:
    if value is None:  # an assignment: read the right-hand side
        text, value = text.split("=")[1], 3.23
    node, used, total = mp.parse_prefix(text, mp.Names({}))
    assert used == total
    assert mp.evaluate(node, {}) == pytest.approx(value, rel=1e-9)


@pytest.mark.parametrize("text,expected", [
    ("u + a*t", 11.0), ("u+at", 11.0), (r"\frac{F}{m}", 2.5), (r"\sqrt{2gh}", 2.0), ("F/m (the rest)", 2.5),
    ("v_0 cos θ", 3.0), (r"v_{0}\cos\theta", 3.0), ("m_1 g - F", 2.0 * 2.0 - 5.0), ("1/2 m v^2", 0.5 * 2.0 * 9.0),
    ("sin^2 θ + cos^2 θ", 1.0), ("2(m + 1)", 6.0),
])
def test_expressions_with_implicit_products_latex_unicode(text: str, expected: float) -> None:
    env = {"u": 1.0, "a": 2.0, "t": 5.0, "F": 5.0, "m": 2.0, "g": 2.0, "h": 1.0, "v0": 3.0, "theta": 0.0,
           "m1": 2.0, "v": 3.0}
    names = mp.Names({k: k for k in env})
    node, _, _ = mp.parse_prefix(text, names, units_after_number=False)
    assert mp.evaluate(node, env) == pytest.approx(expected)


def test_trailing_prose_ends_the_expression_and_leading_prose_is_skipped() -> None:
    names = mp.Names({"h": "h"})
    node, used, total = mp.parse_prefix("4.93 m, the height of the block", names)
    assert node[0] == "qty" and used < total
    assert mp.parse_suffix("The height is h", names) == ("var", "h")


@pytest.mark.parametrize("text", ["(" * 500 + "1", "x" * 5000, "2^999^999", "1/0", "sqrt(-1)", "==", "=", "",
                                  "__import__('os').system('true')", "lambda: 0", "𝔸 = 3", "\\frac{\\frac{"])
def test_hostile_text_never_raises_or_executes(text: str) -> None:
    names = mp.Names({"x": "x"})
    try:
        node, _, _ = mp.parse_prefix(text, names)
        mp.evaluate(node, {"x": 1.0})
    except (mp.ParseFail, mp.EvalError):
        pass
