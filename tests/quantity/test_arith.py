"""The code channel's strict reader (`physr3.quantity.arith`): units bind to numbers, only arithmetic is read,
and its Python rendering agrees with the host's pint evaluation."""

from __future__ import annotations

import math

import pytest

from physr3.quantity import arith as ex


def test_units_bind_to_their_number_and_sci_notation_reads_as_one_number():
    q = ex.evaluate(ex.parse("10 N / 2.0 kg"), {})
    assert math.isclose(q.to("m/s**2").magnitude, 5.0)
    assert math.isclose(ex.evaluate(ex.parse("3 × 10^8 m/s"), {}).to("m/s").magnitude, 3e8)
    assert math.isclose(ex.evaluate(ex.parse("2 * 9.8 m/s^2 * 5 m"), {}).to("m**2/s**2").magnitude, 98.0)
    assert math.isclose(ex.evaluate(ex.parse("sin(30°)"), {}).magnitude, 0.5)


@pytest.mark.parametrize("text", ["__import__('os').system('true')", "(1).__class__", "open('x')", "a.b", "2 ; 3",
                                  "exec(1)", "lambda: 1"])
def test_anything_but_arithmetic_is_refused(text):
    with pytest.raises(ex.ExprError):
        ex.parse(text)


def test_known_variables_win_over_unit_symbols_outside_a_unit_group():
    node = ex.parse("m * 9.8 m/s^2", {"m"})
    assert ex.names(node, "var") == {"m"} and ex.names(node, "unit") == {"m", "s"}
    q = ex.evaluate(node, {"m": ex.ureg().Quantity(2.0, "kg")})
    assert math.isclose(q.to("N").magnitude, 19.6)


def test_python_rendering_agrees_with_host_evaluation():
    node = ex.parse("sqrt(2 * (9.8 m/s^2) * (5.0 m)) - 1.5 m/s")
    env = {ex.unit_identifier(u): ex.unit_quantity(u).to_base_units().magnitude for u in ex.names(node, "unit")}
    value = eval(ex.to_python(node), {"math": math, **env})  # test-only: our own rendered text
    assert math.isclose(value, ex.evaluate(node, {}).to_base_units().magnitude)


# -- building the code -----------------------------------------------------------------------------------


def test_strict_mode_of_the_one_reader_refuses_what_the_lenient_mode_guesses():
    from physr3 import quantity as mp

    env = {"m": 2.0, "g": 9.8, "h": 1.5, "theta": 0.5}
    for text in ("m g h", "m*g*h", "sin(theta)"):  # what both modes read
        lenient = mp.evaluate(mp.parse_full(text, mp.Names({k: k for k in env})), env)
        strict = ex.evaluate(ex.parse(text, set(env)), env).magnitude
        assert strict == pytest.approx(lenient)
    for text in ("mgh", "sin theta", "m g h + KE"):  # split names, a bare function argument, a new symbol
        mp.parse_full(text, mp.Names({k: k for k in env}))  # the verifier reads them
        with pytest.raises(ex.ExprError):
            ex.parse(text, set(env))


def test_units_the_code_channel_could_not_read_before():
    # one unit table: the atomic mass unit and micrograms the generator writes, 1/h after a number
    assert ex.evaluate(ex.parse("13.9 u"), {}).to("kg").magnitude == pytest.approx(13.9 * 1.66053906892e-27)
    assert ex.evaluate(ex.parse("7.6 µg"), {}).to("kg").magnitude == pytest.approx(7.6e-9)
    assert ex.evaluate(ex.parse("0.210 1/h"), {}).to("1/s").magnitude == pytest.approx(0.210 / 3600)
    with pytest.raises(ex.ExprError, match="offset"):
        ex.parse("27 °C")
