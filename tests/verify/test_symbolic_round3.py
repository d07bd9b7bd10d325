"""The symbolic verifier's sixth round, from the third round of real solutions (benchmarks/data/real_solutions/
round3_test.jsonl, tuning data since its one held-out measurement in session 5): each test edits a step or two
of a generated problem's ground-truth solution (seed 0) into the way the refine-trained SmolLM2 wrote them, and
checks the error is found at that step with the type the careful labels give, while a correct variant passes.

Values (seed 0): ideal_gas_pressure n = 4.73 mol; resistor_network_power emf = 7.8 V; de_broglie_wavelength_particle
lam in m; vertical_circle_top_tension T in N; capacitor_network_charge C2 = 4.0 uF (C23 = C2 + C3 to be found).
"""

from __future__ import annotations

import pytest

from physr3.verify.symbolic import SymbolicVerifier
from support.step_edits import edited_verdict


@pytest.fixture(scope="module")
def verifier() -> SymbolicVerifier:
    return SymbolicVerifier(answer_overrules=False)


@pytest.mark.parametrize("family,step,text", [
    ("ideal_gas_pressure", 1, "n = 4.73 mol (number of moles)"),  # r3-151, a reworded ground truth
    ("ideal_gas_pressure", 1, "n = 4.73 mol (moles of gas)"),
    ("resistor_network_power", 1, "emf (E) = 7.8 V (in volts)"),  # r3-030's first step
])
def test_words_naming_the_values_own_unit_are_no_other_meaning(verifier: SymbolicVerifier, family: str, step: int,
                                                                text: str) -> None:
    v = edited_verdict(verifier, family, {step: text})
    assert v.error_step == 0, v.explanation


@pytest.mark.parametrize("text", ["n = 4.73 mol (constant term in moles)", "n = 4.73 mol (molar mass in moles)"])
def test_other_words_beside_a_unit_name_are_still_judged(verifier: SymbolicVerifier, text: str) -> None:
    v = edited_verdict(verifier, "ideal_gas_pressure", {1: text})
    assert (v.error_step, v.error_type) == (1, "MC"), v.explanation


@pytest.mark.parametrize("family,step,find", [
    ("de_broglie_wavelength_particle", 4, "lam: the de Broglie wavelength (in Hz) of the particle"),  # r3-052
    ("vertical_circle_top_tension", None, "T, the tension in the string at the highest point (in m)"),  # r3-146
])
def test_find_naming_the_target_in_a_unit_of_another_kind_is_mc(verifier: SymbolicVerifier, family: str,
                                                                step: int | None, find: str) -> None:
    if step is None:  # the <find> step's number in this family's ground truth
        from physr3.synth.registry import get_family
        lines = get_family(family).generate(0).solution.splitlines()
        k = next(i for i, line in enumerate(lines) if line.strip() == "<find>")
        step = int(lines[k + 1].split(":")[0].split()[1])
    v = edited_verdict(verifier, family, {step: find})
    assert (v.error_step, v.error_type) == (step, "MC"), v.explanation
    assert "unit of another kind" in v.explanation


@pytest.mark.parametrize("find", ["lam: the de Broglie wavelength (in nm) of the particle",
                                  "lam, the de Broglie wavelength (in u)"])  # "(in u)": a prefix cut off, not amu
def test_find_naming_the_target_in_its_own_unit_passes(verifier: SymbolicVerifier, find: str) -> None:
    v = edited_verdict(verifier, "de_broglie_wavelength_particle", {4: find})
    assert v.error_step == 0, v.explanation


def test_givens_right_value_with_words_of_a_quantity_to_be_found_is_mc(verifier: SymbolicVerifier) -> None:
    # r3-035: C2's value, described as the parallel combination C23 (a quantity to be found, of the same kind)
    v = edited_verdict(verifier, "capacitor_network_charge", {2: "C2 = 4.0 uF (capacitance of the parallel combination)"})
    assert (v.error_step, v.error_type) == (2, "MC"), v.explanation
    # its own words, or words of another kind (when, where), pass
    for text in ("C2 = 4.0 uF (capacitance of the first parallel capacitor)", "C2 = 4.0 uF (capacitance)"):
        v = edited_verdict(verifier, "capacitor_network_charge", {2: text})
        assert v.error_step == 0, (text, v.explanation)


def test_a_symbol_holding_its_own_value_then_another_kinds_value_is_mc(verifier: SymbolicVerifier) -> None:
    # r3-054: `C = 9.7 uF`, then `C = 87 kohm (resistor)`: one symbol for two quantities
    v = edited_verdict(verifier, "rc_charging_charge", {2: "C = 72 kohm (resistor)"})
    assert (v.error_step, v.error_type) == (2, "MC"), v.explanation
    assert "one symbol for two quantities" in v.explanation
    # the first time, another given's letter with a value and its words is only a label ("letters are labels")
    v = edited_verdict(verifier, "rc_charging_charge", {1: "c = 3.7 uF (capacitance)", 2: "R = 72 kohm (resistor)"})
    assert v.error_step == 0, v.explanation


def beam_with_givens_below(first: str, below: list[str]) -> str:
    """beam_cable_tension's seed-0 ground truth with Step 2 stating `first` and the lines `below` under it."""
    from physr3.synth.registry import get_family
    from support.step_edits import replace_step
    text = get_family("beam_cable_tension").generate(0).solution
    return replace_step(text, 2, "\n".join([first] + below))


def test_values_on_the_lines_below_a_given_step_are_checked_too(verifier: SymbolicVerifier) -> None:
    from physr3.synth.registry import get_family
    problem = get_family("beam_cable_tension").generate(0)
    # r3-135: "Step 1: m1 (mass of the beam) = 22 kg" and, on the next line, the load's 38 kg as the beam's mass
    wrong = beam_with_givens_below("M = 34 kg (mass of the beam)", ["m2 (mass of the beam) = 54 kg"])
    v = verifier.verify(problem, wrong)
    assert (v.error_step, v.error_type) == (2, "MC"), v.explanation
    right = beam_with_givens_below("M = 34 kg (mass of the beam)", ["- m = 54 kg (mass of the load)", "a remark"])
    v = verifier.verify(problem, right)
    assert v.error_step == 0, v.explanation


def test_a_givens_value_under_more_words_of_another_given_is_mc(verifier: SymbolicVerifier) -> None:
    # r3-012: the object distance's 139 cm called the "focal length of the object" (two words of f, one of u)
    v = edited_verdict(verifier, "concave_mirror_image_from_focal_length", {2: "r = 139 cm (focal length of the object)"})
    assert (v.error_step, v.error_type) == (2, "MC"), v.explanation
    # one word of each ("thick wall" in test_symbolic_gaps), or the object's own words, pass
    for text in ("r = 139 cm (distance of the object)", "r = 139 cm (object in front of the mirror)"):
        v = edited_verdict(verifier, "concave_mirror_image_from_focal_length", {2: text})
        assert v.error_step == 0, (text, v.explanation)


@pytest.mark.parametrize("clause,kept", [
    ("d1 = 13.1 cm (s)", "d1 = 13.1 cm"),  # r3-080: a list label after the value, not "times s"
    ("v = 20 V (emf) (emf)", "v = 20 V"),  # r3-164: the same remark twice
    ("T = 352 K (b)", "T = 352 K"),
    ("F = 2 (9.8 N)", "F = 2 (9.8 N)"),  # a factor stays
    ("H = 1.6e-27 kg (J/s)", "H = 1.6e-27 kg (J/s)"),  # a second unit stays
])
def test_list_labels_and_repeated_remarks_after_a_value_are_no_factor(clause: str, kept: str) -> None:
    from physr3.verify.symbolic_checks import drop_value_remark
    assert drop_value_remark(clause, {"emf": "emf"}) == kept


@pytest.mark.parametrize("family,step,text", [
    # reworded ground truths (r3-086, r3-069): the problem's own words around the value
    ("adiabatic_then_isochoric_monatomic", 3, "r = 3.2 (factor by which the volume is reduced, V1/V2)"),
    ("accelerated_ion_radius", 4, "B = 0.11 T (uniform magnetic field, perpendicular to the velocity)"),
])
def test_the_problems_own_words_around_a_value_are_its_meaning(verifier: SymbolicVerifier, family: str, step: int,
                                                               text: str) -> None:
    v = edited_verdict(verifier, family, {step: text})
    assert v.error_step == 0, v.explanation


@pytest.mark.parametrize("family,step,text", [
    # words the problem writes next to ANOTHER value stay another meaning ("of specific heat 887" is not 388 g's)
    ("calorimetry_mixing", 1, "m1 = 388 g (specific heat)"),
    ("accelerated_ion_radius", 4, "B = 0.11 T (velocity of the ion)"),
])
def test_words_the_problem_writes_next_to_another_value_stay_judged(verifier: SymbolicVerifier, family: str, step: int,
                                                                    text: str) -> None:
    v = edited_verdict(verifier, family, {step: text})
    assert (v.error_step, v.error_type) == (step, "MC"), v.explanation


def test_find_with_a_givens_value_as_its_condition_names_the_target(verifier: SymbolicVerifier) -> None:
    # r3-004: "E, the energy stored in the inductor at t = 44 ms": t's value says when, it is no value of E
    v = edited_verdict(verifier, "rc_charging_charge", {5: "q, the charge on the capacitor at t = 720 ms"})
    assert v.error_step == 0, v.explanation
    v = edited_verdict(verifier, "rc_charging_charge", {5: "q, the charge on the capacitor = 720 ms"})
    assert (v.error_step, v.error_type) == (5, "MC"), v.explanation


@pytest.mark.parametrize("family,find,ok", [
    ("linear_thermal_expansion", "L' (final length)", False),  # r3-040: the final length, not the increase
    ("linear_thermal_expansion", "dL, the final increase in length", False),
    ("linear_thermal_expansion", "dL, the increase in the rail's length", True),
    ("spring_mass_max_speed", "vmax, the maximum speed of the block", True),  # the question's own qualifier
    ("spring_mass_max_speed", "vmax, the average speed of the block", False),
])
def test_find_with_a_qualifier_the_question_lacks_asks_for_another_quantity(verifier: SymbolicVerifier, family: str,
                                                                            find: str, ok: bool) -> None:
    step = 4 if family == "linear_thermal_expansion" else 5
    v = edited_verdict(verifier, family, {step: find})
    if ok:
        assert v.error_step == 0, v.explanation
    else:
        assert (v.error_step, v.error_type) == (step, "MC"), v.explanation


def test_a_remark_giving_the_same_symbol_another_value_is_mc(verifier: SymbolicVerifier) -> None:
    # r3-020: "gamma = 5/3 (gamma = 0.5)": two values for one quantity
    v = edited_verdict(verifier, "adiabatic_then_isochoric_monatomic", {5: "gamma = 5/3 (gamma = 0.5)"})
    assert (v.error_step, v.error_type) == (5, "MC"), v.explanation
    v = edited_verdict(verifier, "adiabatic_then_isochoric_monatomic", {5: "gamma = 5/3 (gamma = 1.667)"})
    assert v.error_step == 0, v.explanation


def test_words_with_a_remark_in_parentheses_before_the_value_are_read(verifier: SymbolicVerifier) -> None:
    # r3-071: "emissivity (emissivity of the sphere) = 0.30 (emissivity of the Stefan-Boltzmann law)"
    unchecked = SymbolicVerifier(unchecked="error", answer_overrules=False)
    text = "emissivity (emissivity of the sphere) = 0.39 (emissivity of the Stefan-Boltzmann law)"
    v = edited_verdict(unchecked, "stefan_boltzmann_net_power", {2: text})
    assert v.error_step == 0, v.explanation
    v = edited_verdict(unchecked, "stefan_boltzmann_net_power", {2: text.replace("0.39", "0.93")})
    assert (v.error_step, v.error_type) == (2, "MC"), v.explanation


def test_a_denominator_written_without_parentheses_is_read_as_grouped(verifier: SymbolicVerifier) -> None:
    # r3-103: "R = 8.314 J/mol*K" is the gas constant in J/(mol*K), a common spelling
    v = edited_verdict(verifier, "ideal_gas_pressure", {4: "R = 8.314 J/mol*K"})
    assert v.error_step == 0, v.explanation
    v = edited_verdict(verifier, "ideal_gas_pressure", {4: "R = 8.314 J/mol"})
    assert (v.error_step, v.error_type) == (4, "MC"), v.explanation


def test_the_right_relation_under_a_new_name_for_a_known_quantity_is_checked() -> None:
    # r3-088: "E_kinetic = m*v^2/2" for K: the right relation under the solution's own name is a checked step,
    # so `symbolic_unchecked=error` does not blame it; a wrong one still is
    unchecked = SymbolicVerifier(unchecked="error", answer_overrules=False)
    v = edited_verdict(unchecked, "kinetic_energy_of_cart", {5: "E_kinetic = m*v^2/2"})
    assert v.error_step == 0, v.explanation
    v = edited_verdict(unchecked, "kinetic_energy_of_cart", {5: "E_kinetic = m*v^3/2"})
    assert v.error_step == 5, v.explanation


def test_a_given_renamed_by_a_new_symbol_is_checked() -> None:
    # r3-082: "L0 = L (the initial length of the string)": a plain renaming of a given, not an unchecked step
    from physr3.synth.registry import get_family
    problem = get_family("kinetic_energy_of_cart").generate(0)
    text = problem.solution.replace("Step 2: v = 4.28 m/s (speed of the cart)",
                                    "Step 2: v = 4.28 m/s (speed of the cart)\nStep 2: u = v (the initial speed of the cart)")
    unchecked = SymbolicVerifier(unchecked="error", answer_overrules=False)
    v = unchecked.verify(problem, text)
    assert v.error_step == 0, v.explanation
    v = unchecked.verify(problem, text.replace("u = v (", "u = w ("))  # a name the problem does not have
    assert v.error_step == 3, v.explanation


def test_the_problems_own_formula_restated_as_a_given_is_checked() -> None:
    # r3-094: "I = 0.5 M R^2 (moment of inertia)", word for word the problem's; another formula is not
    unchecked = SymbolicVerifier(unchecked="error", answer_overrules=False)
    v = edited_verdict(unchecked, "rolling_incline_time", {1: "I = 1 M R^2 (moment of inertia)"})
    assert v.error_step == 0, v.explanation
    v = edited_verdict(unchecked, "rolling_incline_time", {1: "I = 2 M R^2 (moment of inertia)"})
    assert v.error_step == 1, v.explanation


def test_prose_naming_a_quantity_of_another_kind_is_no_claim_about_a_shared_word(verifier: SymbolicVerifier) -> None:
    # r3-140 (a reworded ground truth): "the normal force on the incline is m*g*cos(theta)" is about a force,
    # not the angle of the incline, although it shares "incline" with the angle's description
    concept = ("Kinetic friction: the normal force on the incline is m*g*cos(theta), so the friction force is "
               "mu*m*g*cos(theta), acting up the slope")
    v = edited_verdict(verifier, "incline_friction_speed", {8: concept})
    assert v.error_step == 0, v.explanation
    # a claim about the angle itself is still checked
    v = edited_verdict(verifier, "incline_friction_speed", {8: "Kinetic friction: the angle of the incline is m*g*mu"})
    assert (v.error_step, v.error_type) == (8, "CM"), v.explanation


def test_a_value_stated_for_an_expression_of_givens_in_given_is_mc(verifier: SymbolicVerifier) -> None:
    # r3-064: "M/M = 40 g/mol" among the givens: garbled data (MC by cause), not a wrong law
    v = edited_verdict(verifier, "ideal_gas_pressure", {1: "n/n = 4.73 mol"})
    assert (v.error_step, v.error_type) == (1, "MC"), v.explanation


def test_a_givens_letter_holding_another_kinds_value_with_that_givens_words_is_a_label(verifier: SymbolicVerifier) -> None:
    # r3-081: "v = 25 deg (angle of the magnetic field)" lists the angle under the letter of the speed, stated
    # later; the value and the words say it is theta
    # (later steps still write v for the speed, so only the given steps are judged here)
    v = edited_verdict(verifier, "proton_helix_pitch", {3: "v = 35 deg (angle of the magnetic field)",
                                                        2: "u = 7.24e6 m/s (speed of the proton)"})
    assert v.error_step not in (2, 3, 4, 5, 6), v.explanation
    # words of another quantity (or none of the angle's) keep the letter's meaning: MC
    v = edited_verdict(verifier, "proton_helix_pitch", {3: "v = 35 deg (speed of the proton)",
                                                        2: "u = 7.24e6 m/s (speed of the proton)"})
    assert (v.error_step, v.error_type) == (3, "MC"), v.explanation


@pytest.mark.parametrize("text,ok", [
    ("cross-sectional area (A): the length of the rod is 3.8 cm^2 (a)", False),  # r3-145: an area called a length
    ("cross-sectional area (A): the area of the rod is 3.8 cm^2 (a)", True),
    ("3.8 cm^2: the length of the rod", False),  # a unit with an exponent is one value, not two numbers
])
def test_the_clause_that_says_what_a_value_is_names_its_kind(verifier: SymbolicVerifier, text: str, ok: bool) -> None:
    v = edited_verdict(verifier, "thermal_stress_clamped_rod", {1: text})
    if ok:
        assert v.error_step == 0, v.explanation
    else:
        assert (v.error_step, v.error_type) == (1, "MC"), v.explanation


def test_each_clause_of_a_given_with_several_values_is_checked_for_its_kind(verifier: SymbolicVerifier) -> None:
    # r3-023: "The first thin crust of mass M1 = 9.0 m^2 and thickness ΔE = 6.3 cm": the area called a mass
    wrong = "The first layer of mass M1 = 2.4 m^2 and thickness d1 = 16 cm"
    v = edited_verdict(verifier, "composite_wall_interface_temperature", {1: wrong})
    assert (v.error_step, v.error_type) == (1, "MC"), v.explanation
    right = "The wall of area A = 2.4 m^2 and the first layer of thickness d1 = 16 cm"
    v = edited_verdict(verifier, "composite_wall_interface_temperature", {1: right})
    # step 1 is right clause by clause; the reference's own step 2 (d1 = 16 cm) then states d1 again, which the
    # rubric's repeat rule blames (session 15's `restated`; until then this edit passed as a whole)
    assert (v.error_step, v.details.get("check")) == (2, "given_repeat"), v.explanation


def test_numbered_names_holding_each_others_values_are_a_swap(verifier: SymbolicVerifier) -> None:
    # r3-027: "m_ball1 = 2.44 kg, m_ball2 = 2.48 kg" with m1 = 2.48 kg and m2 = 2.44 kg
    v = edited_verdict(verifier, "elastic_collision_head_on", {1: "m_ball1 = 2.20 kg", 3: "m_ball2 = 2.53 kg"})
    assert (v.error_step, v.error_type) == (1, "MC"), v.explanation
    v = edited_verdict(verifier, "elastic_collision_head_on", {1: "m_ball1 = 2.53 kg", 3: "m_ball2 = 2.20 kg"})
    assert v.error_step == 0, v.explanation


@pytest.mark.parametrize("text,ok", [
    ("theta = 50 deg above the horizontal (in radians)", False),  # r3-098: degrees called radians
    ("theta = 50 deg (in deg)", True),
    ("theta = 50 deg (angle of the incline)", True),
])
def test_a_given_whose_unit_remark_names_another_unit_is_mc(verifier: SymbolicVerifier, text: str, ok: bool) -> None:
    v = edited_verdict(verifier, "incline_friction_speed", {3: text.replace("50", "35")})
    if ok:
        assert v.error_step == 0, v.explanation
    else:
        assert (v.error_step, v.error_type) == (3, "MC"), v.explanation


def test_find_giving_the_target_a_value_under_a_numbered_name_is_mc(verifier: SymbolicVerifier) -> None:
    # r3-078: "Q1 = 1400 J (heat rejected)": the unknown named by its words, given the absorbed heat's value
    v = edited_verdict(verifier, "carnot_engine_heat_rejected", {4: "Q1 = 1500 J (heat rejected)"})
    assert (v.error_step, v.error_type) == (4, "MC"), v.explanation
    assert "as if it were given" in v.explanation
