"""Level-1 families: one governing equation each, two or three givens, across the five domains.

Small models learn the seven-tag format long before they get multi-step physics right; with the older
families (two to five chained equations) a 135M model's first attempts are almost never correct, so a
step reward has nothing correct to reinforce. These families give `physr3 synth --level 1` a population of
problems a small model can solve: one principle, one equation, one substitution, one calculation (seven or
eight steps in all with the givens). Their levels are derived like every family's (`Family.level`), so
nothing here is special-cased elsewhere.
"""

from __future__ import annotations

from physr3.synth import (
    Family,
    between,
    compute,
    const,
    distractor,
    given,
    principle,
    register_family,
)
from physr3.synth.families.electromagnetism import K_E  # shared constants: declared once, in their domain
from physr3.synth.families.mechanics_more import G_ACC as G
from physr3.synth.families.modern import C, H
from physr3.synth.families.thermodynamics import R_GAS

# ------------------------------------------------------------------------------------------------ Mechanics
register_family(Family(
    name="newton_second_law_acceleration",
    domain="Mechanics",
    question=("A net horizontal force of {F} acts on a crate of mass {m} resting on a frictionless floor. "
              "Find the acceleration of the crate."),
    givens=[
        given("F", between(5.0, 90.0), "N", "net force on the crate", sig=3),
        given("m", between(1.5, 40.0), "kg", "mass of the crate", sig=3),
    ],
    find=("a", "the acceleration of the crate"),
    principles=[principle("Newton's second law", "the net force equals mass times acceleration, F = m*a",
                          "newton", "second law", "net force")],
    steps=[compute("a", "F/m", "m/s^2", "acceleration")],
))

register_family(Family(
    name="kinetic_energy_of_cart",
    domain="Mechanics",
    question="A cart of mass {m} rolls along a straight track at a speed of {v}. Find its kinetic energy.",
    givens=[
        given("m", between(0.5, 12.0), "kg", "mass of the cart", sig=3),
        given("v", between(1.0, 15.0), "m/s", "speed of the cart", sig=3),
    ],
    find=("K", "the kinetic energy of the cart"),
    principles=[principle("Kinetic energy", "a body of mass m moving at speed v has kinetic energy "
                          "K = (1/2)*m*v^2", "kinetic energy")],
    steps=[compute("K", "m*v^2/2", "J", "kinetic energy")],
))

register_family(Family(
    name="gravitational_potential_energy_lift",
    domain="Mechanics",
    question=("A box of mass {m} is lifted vertically through a height of {h}. Taking g = {g}, find the "
              "increase in its gravitational potential energy."),
    givens=[
        given("m", between(1.0, 30.0), "kg", "mass of the box", sig=3),
        given("h", between(0.5, 20.0), "m", "height through which the box is lifted", sig=3),
        G,
    ],
    find=("U", "the increase in gravitational potential energy"),
    principles=[principle("Gravitational potential energy", "near the Earth's surface the potential energy "
                          "rises by U = m*g*h when a mass m is raised by h", "potential energy", "mgh")],
    steps=[compute("U", "m*g*h", "J", "increase in potential energy")],
))

# ----------------------------------------------------------------------------------------- Electromagnetism
register_family(Family(
    name="ohm_law_current",
    domain="Electromagnetism",
    question="A resistor of resistance {R} is connected across an ideal battery of {V}. Find the current in it.",
    givens=[
        given("R", between(10.0, 900.0), "ohm", "resistance of the resistor", sig=3),
        given("V", between(1.5, 24.0), "V", "battery voltage", sig=3),
    ],
    find=("i_R", "the current in the resistor"),
    principles=[principle("Ohm's law", "the current through a resistor is the voltage across it divided by "
                          "its resistance, I = V/R", "ohm")],
    steps=[compute("i_R", "V/R", "A", "current")],
))

register_family(Family(
    name="capacitor_charge",
    domain="Electromagnetism",
    question="A capacitor of capacitance {C} is charged by a {V} supply. Find the charge stored on its plates.",
    givens=[
        given("C", between(1.0, 470.0), "uF", "capacitance", sig=3),
        given("V", between(1.5, 50.0), "V", "voltage across the capacitor", sig=3),
    ],
    find=("Q", "the charge on the capacitor"),
    principles=[principle("Definition of capacitance", "the charge on a capacitor is proportional to the "
                          "voltage across it, Q = C*V", "capacitance", "charge")],
    steps=[compute("Q", "C*V", "C", "charge on the plates")],
))

register_family(Family(
    name="coulomb_force_two_charges",
    domain="Electromagnetism",
    question=("Two point charges of {q1} and {q2} are held {r} apart in vacuum. Taking k = {k}, find the "
              "magnitude of the electric force between them."),
    givens=[
        given("q1", between(1.0, 9.0), "uC", "first charge", sig=3),
        given("q2", between(1.0, 9.0), "uC", "second charge", sig=3),
        given("r", between(5.0, 80.0), "cm", "separation of the charges", sig=3),
        K_E,
    ],
    find=("F", "the magnitude of the electric force"),
    principles=[principle("Coulomb's law", "the force between two point charges is F = k*q1*q2/r^2",
                          "coulomb", "inverse square")],
    steps=[compute("F", "k*q1*q2/r^2", "N", "electric force")],
    distractors=[
        distractor("used twice the separation", F="k*q1*q2/(2*r)^2"),
        distractor("squared the sum of the charges", F="k*(q1 + q2)^2/r^2"),
        distractor("squared the distance in centimetres as if it were metres", F="k*q1*q2/(100*r)^2"),
    ],
))

# ------------------------------------------------------------------------------------------ Thermodynamics
register_family(Family(
    name="sensible_heat_water",
    domain="Thermodynamics",
    question=("How much heat is needed to warm {m} of water from {T1} to {T2}? The specific heat of water is "
              "{c}."),
    givens=[
        given("m", between(0.2, 5.0), "kg", "mass of water", sig=3),
        given("T1", between(280, 300), "K", "initial temperature", sig=3),
        given("T2", between(310, 360), "K", "final temperature", sig=3),
        const("c", 4186, "J/(kg*K)", "specific heat of water"),
    ],
    find=("Q", "the heat needed"),
    principles=[principle("Sensible heat", "warming a mass m of specific heat c by dT takes Q = m*c*dT",
                          "specific heat", "heat")],
    steps=[compute("Q", "m*c*(T2 - T1)", "J", "heat needed")],
))

register_family(Family(
    name="ideal_gas_pressure",
    domain="Thermodynamics",
    question=("A sealed vessel of volume {V} holds {n} of an ideal gas at {T}. Taking R = {R}, find the "
              "pressure of the gas."),
    givens=[
        given("n", between(0.5, 5.0), "mol", "amount of gas", sig=3),
        given("V", between(0.01, 0.2), "m^3", "volume of the vessel", sig=3),
        given("T", between(250, 600), "K", "temperature of the gas", sig=3),
        R_GAS,
    ],
    find=("p", "the pressure of the gas"),
    principles=[principle("Ideal gas law", "p*V = n*R*T for an ideal gas", "ideal gas")],
    steps=[compute("p", "n*R*T/V", "Pa", "pressure")],
))

register_family(Family(
    name="linear_thermal_expansion",
    domain="Thermodynamics",
    question=("A steel rail of length {L} warms by {dT}. The coefficient of linear expansion of steel is "
              "{alpha}. Find the increase in the rail's length."),
    givens=[
        given("L", between(5.0, 30.0), "m", "length of the rail", sig=3),
        given("dT", between(10, 45), "K", "temperature rise", sig=3),
        const("alpha", 1.2e-5, "1/K", "coefficient of linear expansion of steel"),
    ],
    find=("dL", "the increase in length"),
    principles=[principle("Linear thermal expansion", "a length L grows by dL = alpha*L*dT when warmed by dT",
                          "thermal expansion", "linear expansion")],
    steps=[compute("dL", "alpha*L*dT", "m", "increase in length")],
))

# ------------------------------------------------------------------------------------------ Waves & Optics
register_family(Family(
    name="wave_speed_from_frequency",
    domain="Waves & Optics",
    question="A wave on a string has frequency {f} and wavelength {lam}. Find the speed of the wave.",
    givens=[
        given("f", between(20.0, 500.0), "Hz", "frequency of the wave", sig=3),
        given("lam", between(0.1, 3.0), "m", "wavelength", sig=3),
    ],
    find=("v", "the speed of the wave"),
    principles=[principle("Wave relation", "a wave travels one wavelength per period, so v = f*lam",
                          "wave speed", "wavelength", "frequency")],
    steps=[compute("v", "f*lam", "m/s", "wave speed")],
))

register_family(Family(
    name="wavelength_in_medium",
    domain="Waves & Optics",
    question=("Light of vacuum wavelength {lam0} enters a transparent plastic whose refractive index is {n}. "
              "Find the wavelength of the light inside the plastic."),
    givens=[
        given("lam0", between(400, 700), "nm", "wavelength in vacuum", sig=3),
        given("n", between(1.30, 2.45), "", "refractive index of the plastic", sig=3),
    ],
    find=("lam", "the wavelength inside the plastic"),
    principles=[principle("Refraction", "the frequency is unchanged and the speed drops by the factor n, so "
                          "the wavelength becomes lam = lam0/n", "refractive index", "wavelength")],
    steps=[compute("lam", "lam0/n", "nm", "wavelength in the medium")],
    distractors=[
        distractor("multiplied by the index instead of dividing", lam="lam0*n"),
        distractor("used n - 1 instead of n", lam="lam0/(n - 1)"),
        distractor("divided by the square of the index", lam="lam0/n^2"),
    ],
))

register_family(Family(
    name="concave_mirror_image_from_focal_length",
    domain="Waves & Optics",
    question=("An object stands {u} in front of a concave mirror of focal length {f}. Find the distance of the "
              "image from the mirror (real-is-positive convention)."),
    givens=[
        given("f", between(8.0, 40.0), "cm", "focal length of the mirror", sig=3),
        given("u", between(50.0, 150.0), "cm", "object distance", sig=3),
    ],
    find=("v", "the image distance"),
    principles=[principle("Mirror equation", "1/u + 1/v = 1/f for a spherical mirror, so v = f*u/(u - f)",
                          "mirror equation", "focal length", "image distance")],
    steps=[compute("v", "f*u/(u - f)", "cm", "image distance")],
))

# ------------------------------------------------------------------------------------------ Modern Physics
register_family(Family(
    name="photon_rate_from_laser_power",
    domain="Modern Physics",
    question=("A laser emits {P} of light of wavelength {lam}. Taking h = {h} and c = {c}, find the number of "
              "photons it emits per second."),
    givens=[
        given("P", between(1.0, 50.0), "mW", "output power of the laser", sig=3),
        given("lam", between(400, 700), "nm", "wavelength of the light", sig=3),
        H, C,
    ],
    find=("Nrate", "the number of photons emitted per second"),
    principles=[principle("Photon energy", "each photon carries h*c/lam, so the photon rate is "
                          "Nrate = P*lam/(h*c)", "photon", "planck")],
    steps=[compute("Nrate", "P*lam/(h*c)", "1/s", "photons per second")],
))

register_family(Family(
    name="de_broglie_wavelength_particle",
    domain="Modern Physics",
    question=("A particle of mass {m} moves at {v}. Taking h = {h}, find its de Broglie wavelength."),
    givens=[
        given("m", between(1.0, 9.0), "ug", "mass of the particle", sig=3),
        given("v", between(1.0, 9.0), "mm/s", "speed of the particle", sig=3),
        H,
    ],
    find=("lam", "the de Broglie wavelength"),
    principles=[principle("de Broglie relation", "a particle of momentum m*v has wavelength lam = h/(m*v)",
                          "de broglie", "matter wave")],
    steps=[compute("lam", "h/(m*v)", "m", "de Broglie wavelength")],
))

register_family(Family(
    name="mass_energy_equivalence",
    domain="Modern Physics",
    question="Taking c = {c}, find the rest energy equivalent to a mass of {m}.",
    givens=[given("m", between(1.0, 50.0), "ug", "mass", sig=4), C],
    find=("E0", "the rest energy"),
    principles=[principle("Mass-energy equivalence", "a mass m has rest energy E = m*c^2", "einstein",
                          "rest energy", "mass-energy")],
    steps=[compute("E0", "m*c^2", "J", "rest energy")],
))
