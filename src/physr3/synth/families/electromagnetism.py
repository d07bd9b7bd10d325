"""Electromagnetism families (domain "Electromagnetism"): electrostatics, capacitors, DC circuits, magnetic
forces, induction and AC. Four of the twelve are 4-option MCQ whose distractors are typical errors.

Each family is one `register_family(Family(...))` declaration; see the package docstring for the rules.
Shared constants are declared once below and reused (they are immutable records).
"""

from __future__ import annotations

from physr3.synth import (
    Family,
    between,
    choice,
    compute,
    const,
    distractor,
    given,
    principle,
    register_family,
)

EM = "Electromagnetism"
K_E = const("k", 9e9, "N*m^2/C^2", "Coulomb constant 1/(4*pi*eps0)")
EPS0 = const("eps0", 8.85e-12, "F/m", "permittivity of free space")
K_M = const("km", 1e-7, "T*m/A", "mu0/(4*pi)")
Q_E = const("e", 1.6e-19, "C", "elementary charge")
M_P = const("mp", 1.67e-27, "kg", "proton mass")

register_family(Family(
    name="coulomb_charges_touched",
    domain=EM,
    question=("Two identical small conducting spheres carry charges of +{q1} and -{q2} and are held {r} apart in "
              "air. They are touched together and then returned to the same separation. Taking "
              "k = 1/(4*pi*eps0) = {k}, find the magnitude of the electrostatic force between them now."),
    givens=[
        given("q1", between(2.0, 9.9), "uC", "magnitude of the positive charge", sig=2),
        given("q2", between(0.5, 6.0), "uC", "magnitude of the negative charge", sig=2),
        given("r", between(5.0, 50.0), "cm", "separation of the spheres", sig=3),
        K_E,
    ],
    find=("F", "the magnitude of the force after contact"),
    principles=[
        principle("Conservation of charge", "on contact the net charge q1 - q2 is shared equally between the "
                  "two identical spheres", "conservation of charge", "shared equally", "identical"),
        principle("Coulomb's law", "F = k*qa*qb/r^2 between two point charges", "coulomb", "inverse square"),
    ],
    steps=[
        compute("qs", "(q1 - q2)/2", "uC", "charge on each sphere after contact"),
        compute("F", "k*qs^2/r^2", "N", "force after contact"),
    ],
    distractors=[
        distractor("ignored the sign of the negative charge when sharing", qs="(q1 + q2)/2"),
        distractor("did not halve the net charge between the spheres", qs="q1 - q2"),
        distractor("used the original charges (force unchanged by contact)", F="k*q1*q2/r^2"),
    ],
    require=["q1 > 1.4*q2"],
))

register_family(Family(
    name="point_charges_field_superposition",
    domain=EM,
    question=("Point charges +{q1} and +{q2} are placed at points A and B. A point P is at a distance {a} from A "
              "and {b} from B, with PA perpendicular to PB. Taking k = {k}, find the magnitude of the resultant "
              "electric field at P."),
    givens=[
        given("q1", between(1.0, 50.0), "nC", "charge at A", sig=2),
        given("q2", between(1.0, 50.0), "nC", "charge at B", sig=2),
        given("a", between(5.0, 40.0), "cm", "distance PA", sig=2),
        given("b", between(5.0, 40.0), "cm", "distance PB", sig=2),
        K_E,
    ],
    find=("Enet", "the magnitude of the resultant electric field at P"),
    principles=[
        principle("Field of a point charge", "E = k*q/r^2, directed away from a positive charge",
                  "point charge", "electric field", "inverse square"),
        principle("Superposition", "the fields add as vectors; here the two fields are perpendicular, so the "
                  "magnitude is the Pythagorean sum", "superposition", "vector", "perpendicular"),
    ],
    steps=[
        compute("E1", "k*q1/a^2", "N/C", "field at P due to the charge at A"),
        compute("E2", "k*q2/b^2", "N/C", "field at P due to the charge at B"),
        compute("Enet", "sqrt(E1^2 + E2^2)", "N/C", "resultant field", why="the two fields are perpendicular"),
    ],
    typical_errors=[distractor("added the field magnitudes as scalars", Enet="E1 + E2")],
))

register_family(Family(
    name="parallel_plate_dielectric_energy",
    domain=EM,
    question=("A parallel-plate capacitor has plates of area {A} separated by {d}; the gap is filled with a "
              "dielectric of dielectric constant {K}. It is connected to a {V} battery. Taking eps0 = {eps0}, "
              "find the energy stored in the capacitor."),
    givens=[
        given("A", between(50, 500), "cm^2", "plate area", sig=2),
        given("d", between(0.50, 5.0), "mm", "plate separation", sig=2),
        given("K", between(2.0, 8.0), "", "dielectric constant", sig=2),
        given("V", between(20, 500), "V", "battery voltage", sig=2),
        EPS0,
    ],
    find=("U", "the energy stored in the capacitor"),
    principles=[
        principle("Parallel-plate capacitance", "C = K*eps0*A/d with a dielectric filling the gap",
                  "capacitance", "dielectric", "parallel-plate"),
        principle("Energy of a charged capacitor", "U = C*V^2/2", "energy", "capacitor"),
    ],
    steps=[
        compute("C", "K*eps0*A/d", "pF", "capacitance"),
        compute("U", "C*V^2/2", "uJ", "stored energy"),
    ],
    distractors=[
        distractor("forgot the factor 1/2 in the energy", U="C*V^2"),
        distractor("ignored the dielectric", C="eps0*A/d"),
        distractor("divided by the dielectric constant instead of multiplying", C="eps0*A/(K*d)"),
    ],
))

register_family(Family(
    name="capacitor_network_charge",
    domain=EM,
    question=("A capacitor C1 = {C1} is connected in series with a parallel combination of C2 = {C2} and "
              "C3 = {C3}, and the network is connected across a {V} battery. Find the charge on C2 in the "
              "steady state."),
    givens=[
        given("C1", between(1.0, 20.0), "uF", "series capacitor", sig=2),
        given("C2", between(1.0, 20.0), "uF", "first parallel capacitor", sig=2),
        given("C3", between(1.0, 20.0), "uF", "second parallel capacitor", sig=2),
        given("V", between(5.0, 60.0), "V", "battery voltage", sig=2),
    ],
    find=("Q2", "the charge on C2"),
    principles=[
        principle("Capacitors in parallel", "capacitances add: C23 = C2 + C3, and both share one voltage",
                  "parallel", "capacitance add"),
        principle("Capacitors in series", "1/Ceq = 1/C1 + 1/C23, and both carry the same charge",
                  "series", "same charge"),
        principle("Capacitor relation", "Q = C*V for each capacitor", "Q = CV"),
    ],
    steps=[
        compute("C23", "C2 + C3", "uF", "parallel combination"),
        compute("Ceq", "C1*C23/(C1 + C23)", "uF", "equivalent capacitance"),
        compute("Q", "Ceq*V", "uC", "charge drawn from the battery (on C1 and on C23)"),
        compute("V23", "Q/C23", "V", "voltage across the parallel pair"),
        compute("Q2", "C2*V23", "uC", "charge on C2"),
    ],
    typical_errors=[distractor("added series capacitances like resistances", Ceq="C1 + C23")],
))

register_family(Family(
    name="rc_charging_charge",
    domain=EM,
    question=("An uncharged capacitor of capacitance {C} is connected in series with a resistor of {R} and an "
              "ideal battery of emf {emf} at t = 0. Find the charge on the capacitor at t = {t}."),
    givens=[
        given("C", between(1.0, 9.9), "uF", "capacitance", sig=2),
        given("R", between(10, 99), "kohm", "resistance", sig=2),
        given("emf", between(3.0, 24.0), "V", "battery emf", sig=2),
        given("t", between(5, 900), "ms", "time after the switch is closed", sig=2),
    ],
    find=("q", "the charge on the capacitor at time t"),
    principles=[
        principle("Charging of an RC circuit", "q(t) = C*emf*(1 - exp(-t/tau)) with time constant tau = R*C",
                  "RC circuit", "time constant", "exponential", "charging"),
    ],
    steps=[
        compute("tau", "R*C", "ms", "time constant"),
        compute("q0", "C*emf", "uC", "final (steady-state) charge"),
        compute("q", "q0*(1 - exp(-t/tau))", "uC", "charge at time t"),
    ],
    require=["t > 0.1*tau", "t < 3*tau"],
    typical_errors=[distractor("used the discharging form of the exponential", q="q0*exp(-t/tau)")],
))

register_family(Family(
    name="resistor_network_power",
    domain=EM,
    question=("A battery of emf {emf} and internal resistance {r} is connected to a resistor R1 = {R1} in series "
              "with a parallel combination of R2 = {R2} and R3 = {R3}. Find the power dissipated in R3."),
    givens=[
        given("emf", between(6.0, 24.0), "V", "battery emf", sig=2),
        given("r", between(0.20, 2.0), "ohm", "internal resistance", sig=2),
        given("R1", between(1.0, 20.0), "ohm", "series resistor", sig=2),
        given("R2", between(2.0, 50.0), "ohm", "first parallel resistor", sig=2),
        given("R3", between(2.0, 50.0), "ohm", "second parallel resistor", sig=2),
    ],
    find=("P3", "the power dissipated in R3"),
    principles=[
        principle("Resistors in series and parallel", "R23 = R2*R3/(R2 + R3); series resistances add",
                  "series", "parallel", "equivalent resistance"),
        principle("Ohm's law for the whole circuit", "the current is emf/(R_external + r)", "ohm", "internal"),
        principle("Joule heating", "P = V^2/R for a resistor with voltage V across it", "power", "joule"),
    ],
    steps=[
        compute("R23", "R2*R3/(R2 + R3)", "ohm", "parallel combination"),
        compute("Rtot", "R1 + R23 + r", "ohm", "total resistance including the internal resistance"),
        compute("Itot", "emf/Rtot", "A", "current from the battery"),
        compute("V23", "Itot*R23", "V", "voltage across the parallel pair"),
        compute("P3", "V23^2/R3", "W", "power in R3"),
    ],
    typical_errors=[distractor("ignored the internal resistance", Rtot="R1 + R23")],
))

register_family(Family(
    name="proton_helix_pitch",
    domain=EM,
    question=("A proton enters a uniform magnetic field of {B} with a speed of {v} at an angle of {theta} to the "
              "field. Taking mp = {mp} and e = {e}, find the pitch of its helical path."),
    givens=[
        given("B", between(0.050, 0.90), "T", "magnetic field", sig=2),
        given("v", between(1.0e6, 9.0e6), "m/s", "speed of the proton", sig=3),
        given("theta", between(15, 75, step=5), "deg", "angle between velocity and field", sig=2),
        M_P, Q_E,
    ],
    find=("pitch", "the pitch of the helix"),
    principles=[
        principle("Magnetic Lorentz force", "q*v x B is perpendicular to B, so the velocity component along B "
                  "is unchanged while the perpendicular component describes a circle",
                  "lorentz", "magnetic force", "perpendicular"),
        principle("Cyclotron period", "T = 2*pi*m/(q*B), independent of speed", "period", "cyclotron"),
    ],
    steps=[
        compute("Tc", "2*pi*mp/(e*B)", "ns", "period of the circular motion"),
        compute("vpar", "v*cos(theta)", "m/s", "velocity component along the field"),
        compute("pitch", "vpar*Tc", "cm", "pitch: distance along B in one period"),
    ],
    typical_errors=[distractor("used the perpendicular velocity component", vpar="v*sin(theta)")],
))

register_family(Family(
    name="accelerated_ion_radius",
    domain=EM,
    question=("An ion of mass {m} carrying charge {n}e starts from rest, is accelerated through a potential "
              "difference of {V} and then enters a uniform magnetic field of {B} perpendicular to its velocity. "
              "Taking e = {e}, find the radius of its circular path."),
    givens=[
        given("m", between(1.0, 60.0), "u", "mass of the ion", sig=3),
        given("n", choice(1, 2, 3), "", "charge number", sig=None),
        given("V", between(0.50, 20.0), "kV", "accelerating potential difference", sig=2),
        given("B", between(0.10, 1.5), "T", "magnetic field", sig=2),
        Q_E,
    ],
    find=("rc", "the radius of the circular path"),
    principles=[
        principle("Work-energy theorem", "the electric field does work n*e*V, which becomes kinetic energy "
                  "m*v^2/2", "work", "kinetic energy", "potential difference"),
        principle("Circular motion in a magnetic field", "q*v*B = m*v^2/r, so r = m*v/(q*B)",
                  "centripetal", "lorentz", "radius"),
    ],
    steps=[
        compute("K", "n*e*V", "keV", "kinetic energy gained"),
        compute("v", "sqrt(2*K/m)", "m/s", "speed entering the field"),
        compute("rc", "m*v/(n*e*B)", "cm", "radius of the path"),
    ],
    distractors=[
        distractor("dropped the 1/2 in the kinetic energy", v="sqrt(K/m)"),
        distractor("used the diameter formula 2*m*v/(q*B)", rc="2*m*v/(n*e*B)"),
        distractor("ignored the charge number in the magnetic force", rc="m*v/(e*B)"),
        distractor("took the potential difference in V without the kilo prefix", K="n*e*V/1000"),
    ],
))

register_family(Family(
    name="solenoid_stored_energy",
    domain=EM,
    question=("A long air-cored solenoid of length {l} and radius {a} has {N} turns and carries a current of "
              "{cur}. Taking mu0/(4*pi) = {km}, find the magnetic energy stored in it."),
    givens=[
        given("l", between(20, 80), "cm", "length of the solenoid", sig=2),
        given("a", between(0.50, 3.0), "cm", "radius of the solenoid", sig=2),
        given("N", between(200, 3000, step=50), "", "number of turns", sig=None),
        given("cur", between(0.50, 5.0), "A", "current", sig=2),
        K_M,
    ],
    find=("U", "the magnetic energy stored"),
    principles=[
        principle("Field inside a long solenoid", "B = mu0*N*I/l, uniform across the cross-section",
                  "solenoid", "ampere", "uniform field"),
        principle("Self-inductance", "L = N*Phi/I with Phi = B*pi*a^2 the flux through one turn",
                  "inductance", "flux linkage"),
        principle("Energy in an inductor", "U = L*I^2/2", "energy", "inductor"),
    ],
    steps=[
        compute("B", "4*pi*km*N*cur/l", "mT", "field inside the solenoid"),
        compute("Phi", "B*pi*a^2", "Wb", "flux through one turn"),
        compute("Lind", "N*Phi/cur", "mH", "self-inductance"),
        compute("U", "Lind*cur^2/2", "mJ", "stored energy"),
    ],
    typical_errors=[distractor("forgot the factor 1/2 in the inductor energy", U="Lind*cur^2")],
))

register_family(Family(
    name="moving_rod_emf_force",
    domain=EM,
    question=("A conducting rod of length {Lr} slides at a constant speed of {v} on two frictionless parallel "
              "rails joined by a resistor of {R}, in a uniform magnetic field of {B} perpendicular to the plane of the "
              "rails. Neglecting the resistance of the rod and rails, find the external force needed to keep "
              "the rod moving at this speed."),
    givens=[
        given("Lr", between(10, 100), "cm", "length of the rod between the rails", sig=2),
        given("v", between(1.0, 20.0), "m/s", "speed of the rod", sig=2),
        given("R", between(0.50, 20.0), "ohm", "resistance", sig=2),
        given("B", between(0.10, 1.5), "T", "magnetic field", sig=2),
    ],
    find=("F", "the external force on the rod"),
    principles=[
        principle("Motional emf (Faraday's law)", "the rate of change of flux gives emf = B*L*v",
                  "faraday", "motional emf", "flux"),
        principle("Ohm's law", "the induced current is emf/R", "ohm", "current"),
        principle("Force on a current-carrying conductor", "F = B*I*L opposes the motion (Lenz's law); at "
                  "constant speed the external force balances it", "lenz", "force on current", "B I L"),
    ],
    steps=[
        compute("emf", "B*Lr*v", "V", "induced emf"),
        compute("cur", "emf/R", "A", "induced current"),
        compute("F", "B*cur*Lr", "N", "magnetic force on the rod, balanced by the external force"),
    ],
    typical_errors=[distractor("used the rotating-rod emf B*L*v/2", emf="B*Lr*v/2")],
))

register_family(Family(
    name="lr_circuit_energy",
    domain=EM,
    question=("An inductor of inductance {Lind} and a resistor of {R} are connected in series to an ideal "
              "battery of emf {emf} at t = 0. Find the energy stored in the inductor at t = {t}."),
    givens=[
        given("Lind", between(50, 900), "mH", "inductance", sig=2),
        given("R", between(5.0, 50.0), "ohm", "resistance", sig=2),
        given("emf", between(3.0, 24.0), "V", "battery emf", sig=2),
        given("t", between(1.0, 200), "ms", "time after the switch is closed", sig=2),
    ],
    find=("U", "the energy stored in the inductor at time t"),
    principles=[
        principle("Growth of current in an LR circuit", "i(t) = (emf/R)*(1 - exp(-t/tau)) with tau = L/R",
                  "LR circuit", "time constant", "exponential"),
        principle("Energy in an inductor", "U = L*i^2/2", "energy", "inductor"),
    ],
    steps=[
        compute("tau", "Lind/R", "ms", "time constant"),
        compute("i0", "emf/R", "A", "steady-state current"),
        compute("i", "i0*(1 - exp(-t/tau))", "A", "current at time t"),
        compute("U", "Lind*i^2/2", "mJ", "stored energy"),
    ],
    require=["t > 0.1*tau", "t < 3*tau"],
    typical_errors=[distractor("used the decaying form of the current", i="i0*exp(-t/tau)")],
))

register_family(Family(
    name="ac_rl_average_power",
    domain=EM,
    question=("A resistor of {R} and an inductor of {Lind} are connected in series to an AC source of peak "
              "voltage {V0} and frequency {f}. Find the average power dissipated in the circuit."),
    givens=[
        given("R", between(10, 200), "ohm", "resistance", sig=2),
        given("Lind", between(20, 500), "mH", "inductance", sig=2),
        given("V0", between(50, 320), "V", "peak voltage", sig=2),
        given("f", choice(50, 60), "Hz", "frequency", sig=None),
    ],
    find=("P", "the average power dissipated"),
    principles=[
        principle("RMS values", "for a sinusoid Vrms = V0/sqrt(2)", "rms", "peak"),
        principle("Impedance of a series LR circuit", "Z = sqrt(R^2 + XL^2) with XL = 2*pi*f*L",
                  "impedance", "reactance"),
        principle("Average AC power", "only the resistor dissipates power: P = Irms^2*R",
                  "average power", "power factor"),
    ],
    steps=[
        compute("Vrms", "V0/sqrt(2)", "V", "rms voltage"),
        compute("XL", "2*pi*f*Lind", "ohm", "inductive reactance"),
        compute("Z", "sqrt(R^2 + XL^2)", "ohm", "impedance"),
        compute("Irms", "Vrms/Z", "A", "rms current"),
        compute("P", "Irms^2*R", "W", "average power"),
    ],
    distractors=[
        distractor("used the peak voltage as the rms voltage", Vrms="V0"),
        distractor("ignored the inductive reactance", Z="R"),
        distractor("ignored the power factor (P = Vrms*Irms)", P="Vrms*Irms"),
        distractor("forgot the 2*pi in the reactance", XL="f*Lind"),
    ],
    require=["XL > 0.5*R"],
))
