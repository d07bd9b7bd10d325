"""Thermodynamics families (domain "Thermodynamics"): ideal-gas processes, first law, heat engines,
calorimetry, thermal expansion, conduction, radiation and kinetic theory.

Each family is one `register_family(Family(...))` declaration; see the package docstring for the rules.
Temperatures are in K (the framework refuses offset units); R = 8.314 J/(mol*K) throughout.
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

D = "Thermodynamics"
R_GAS = const("R", 8.314, "J/(mol*K)", "universal gas constant")

# Paper's Sample 1: adiabatic compression, then isochoric heating of a monatomic ideal gas.
register_family(Family(
    name="adiabatic_then_isochoric_monatomic",
    domain=D,
    question=("{n} of a monatomic ideal gas (gamma = {gamma}) at {T1} is compressed reversibly and "
              "adiabatically until its volume is reduced by a factor of {r}. It is then heated at constant "
              "volume by supplying {Q} of heat. Taking R = {R}, find the final temperature of the gas."),
    givens=[
        given("n", between(0.50, 3.00), "mol", "amount of gas", sig=2),
        given("T1", between(270, 360), "K", "initial temperature", sig=3),
        given("r", between(2.0, 6.0), "", "compression ratio V1/V2", sig=2),
        given("Q", between(500, 6000), "J", "heat supplied at constant volume", sig=2),
        const("gamma", "5/3", "", "ratio of specific heats of a monatomic gas"),
        R_GAS,
    ],
    find=("T3", "the final temperature of the gas"),
    principles=[
        principle("Reversible adiabatic process", "T*V^(gamma - 1) stays constant, and with Q = 0 the work "
                  "done on the gas equals its increase in internal energy", "adiabatic", "gamma", "internal energy"),
        principle("First law of thermodynamics", "at constant volume no work is done, so the heat supplied "
                  "equals n*Cv*dT with Cv = R/(gamma - 1) = 3R/2", "first law", "isochoric", "Cv"),
    ],
    steps=[
        # "gamma + (-1)", not "gamma - 1": the unevaluated printer shows the latter as "gamma - 1*1"
        compute("T2", "T1*r^(gamma + (-1))", "K", "temperature after the adiabatic compression",
                why="from T1*V1^(gamma - 1) = T2*V2^(gamma - 1)"),
        compute("Cv", "R/(gamma + (-1))", "J/(mol*K)", "molar heat capacity at constant volume"),
        compute("W", "n*Cv*(T2 - T1)", "J", "work done on the gas during the compression",
                why="equal to the rise in internal energy, since Q = 0"),
        compute("T3", "T2 + Q/(n*Cv)", "K", "final temperature", why="from Q = n*Cv*(T3 - T2)"),
    ],
    distractors=[
        distractor("used gamma = 7/5 (diatomic) for the monatomic gas", T2="T1*r^(2/5)"),
        distractor("used Cp instead of Cv for the constant-volume heating", T3="T2 + Q/(n*(Cv + R))"),
        distractor("treated the compression as isothermal (no temperature rise)", T2="T1"),
        distractor("used T*V^gamma = const for the adiabat", T2="T1*r^gamma"),
    ],
))

register_family(Family(
    name="isothermal_expansion_heat",
    domain=D,
    question=("{n} of an ideal gas expands reversibly and isothermally at {T} from a volume of {V1} to "
              "{V2}. Taking R = {R}, how much heat does the gas absorb?"),
    givens=[
        given("n", between(0.50, 5.00), "mol", "amount of gas", sig=2),
        given("T", between(280, 600), "K", "temperature of the gas", sig=3),
        given("V1", between(2.0, 20.0), "L", "initial volume", sig=3),
        given("V2", between(4.0, 60.0), "L", "final volume", sig=3),
        R_GAS,
    ],
    find=("Q", "the heat absorbed by the gas"),
    principles=[
        principle("Isothermal work of an ideal gas", "W = n*R*T*ln(V2/V1) for a reversible isothermal change",
                  "isothermal", "work", "logarithm"),
        principle("First law of thermodynamics", "the internal energy of an ideal gas depends only on T, so "
                  "dU = 0 and Q = W", "first law", "internal energy"),
    ],
    steps=[
        compute("W", "n*R*T*log(V2/V1)", "kJ", "work done by the gas"),
        compute("Q", "W", "kJ", "heat absorbed", why="dU = 0, so Q = W"),
    ],
    require=["V2 > 1.3*V1"],
    typical_errors=[distractor("used log base 10 instead of the natural logarithm",
                               W="n*R*T*log(V2/V1)/log(10)")],
))

register_family(Family(
    name="rectangular_cycle_efficiency",
    domain=D,
    question=("A monatomic ideal gas is taken around the cycle ABCDA. A to B: pressure rises from {p1} to "
              "{p2} at a constant volume of {V1}; B to C: isobaric expansion to {V2}; C to D: pressure falls "
              "back to {p1} at constant volume; D to A: isobaric compression. Find the efficiency of the cycle."),
    givens=[
        given("p1", between(100, 250), "kPa", "lower pressure", sig=3),
        given("p2", between(150, 600), "kPa", "upper pressure", sig=3),
        given("V1", between(1.0, 5.0), "L", "smaller volume", sig=2),
        given("V2", between(2.0, 12.0), "L", "larger volume", sig=2),
    ],
    find=("eta", "the efficiency of the cycle"),
    principles=[
        principle("First law on a cyclic process", "dU = 0 over a cycle, so the net work, the area enclosed "
                  "on the p-V diagram, equals the net heat absorbed", "first law", "cyclic", "area"),
        principle("Heat in ideal-gas processes", "Q = n*Cv*dT at constant volume and Q = n*Cp*dT at constant "
                  "pressure with Cv = 3R/2, Cp = 5R/2, and n*R*dT = d(pV)", "Cv", "Cp", "isochoric", "isobaric"),
        principle("Engine efficiency", "eta = W/Q_in, the net work over the heat absorbed", "efficiency"),
    ],
    steps=[
        compute("W", "(p2 - p1)*(V2 - V1)", "J", "net work done by the gas per cycle"),
        compute("Qab", "3*V1*(p2 - p1)/2", "J", "heat absorbed from A to B", why="n*Cv*dT = (3/2)*V1*dp"),
        compute("Qbc", "5*p2*(V2 - V1)/2", "J", "heat absorbed from B to C", why="n*Cp*dT = (5/2)*p2*dV"),
        compute("Qin", "Qab + Qbc", "J", "total heat absorbed per cycle"),
        compute("eta", "W/Qin", "%", "efficiency of the cycle"),
    ],
    distractors=[
        distractor("took the work as the area under the upper isobar", W="p2*(V2 - V1)"),
        distractor("used Cv = 3R/2 for the isobaric expansion", Qbc="3*p2*(V2 - V1)/2"),
        distractor("counted only the isobaric heat input", Qin="Qbc"),
        distractor("used the diatomic Cv = 5R/2 on the isochoric leg", Qab="5*V1*(p2 - p1)/2"),
    ],
    require=["p2 > 1.3*p1", "V2 > 1.3*V1"],
))

register_family(Family(
    name="isobaric_heating_diatomic",
    domain=D,
    question=("{n} of a diatomic ideal gas is heated at constant pressure from {T1} to {T2}. Taking "
              "R = {R}, how much heat is supplied to the gas?"),
    givens=[
        given("n", between(0.50, 5.00), "mol", "amount of gas", sig=2),
        given("T1", between(260, 400), "K", "initial temperature", sig=3),
        given("T2", between(300, 700), "K", "final temperature", sig=3),
        R_GAS,
    ],
    find=("Q", "the heat supplied at constant pressure"),
    principles=[
        principle("Molar heat capacity at constant pressure", "for a diatomic ideal gas Cv = 5R/2 and "
                  "Cp = Cv + R = 7R/2 (Mayer's relation)", "Cp", "diatomic", "Mayer"),
        principle("First law of thermodynamics", "Q = dU + W = n*Cv*dT + n*R*dT = n*Cp*dT at constant "
                  "pressure", "first law", "isobaric"),
    ],
    steps=[
        compute("dT", "T2 - T1", "K", "temperature rise"),
        compute("Cp", "7*R/2", "J/(mol*K)", "molar heat capacity at constant pressure"),
        compute("Q", "n*Cp*dT", "kJ", "heat supplied"),
    ],
    require=["T2 > 1.06*T1"],
    typical_errors=[distractor("used Cv = 5R/2 instead of Cp", Cp="5*R/2")],
))

register_family(Family(
    name="calorimetry_mixing",
    domain=D,
    question=("A {m1} metal block of specific heat {c1} at {T1} is dropped into {m2} of water at {T2} "
              "held in a copper calorimeter of mass {mc}. The specific heats of water and copper are {cw} and "
              "{cc}. Neglecting heat losses, find the final equilibrium temperature."),
    givens=[
        given("m1", between(100, 500), "g", "mass of the metal block", sig=3),
        given("c1", between(380, 900), "J/(kg*K)", "specific heat of the metal", sig=3),
        given("T1", between(350, 470), "K", "initial temperature of the block", sig=3),
        given("m2", between(150, 500), "g", "mass of water", sig=3),
        given("T2", between(283, 300), "K", "initial temperature of the water and calorimeter", sig=3),
        given("mc", between(50, 200), "g", "mass of the calorimeter", sig=2),
        const("cw", 4186, "J/(kg*K)", "specific heat of water"),
        const("cc", 385, "J/(kg*K)", "specific heat of copper"),
    ],
    find=("Tf", "the final equilibrium temperature"),
    principles=[
        principle("Principle of calorimetry", "heat lost by the hot block equals heat gained by the water "
                  "and the calorimeter, with Q = m*c*dT for each body", "calorimetry", "heat lost", "heat gained",
                  "specific heat"),
    ],
    steps=[
        compute("C1", "m1*c1", "J/K", "heat capacity of the block"),
        compute("C2", "m2*cw + mc*cc", "J/K", "heat capacity of the water and calorimeter"),
        compute("Tf", "(C1*T1 + C2*T2)/(C1 + C2)", "K", "final temperature", sig=4,
                why="from C1*(T1 - Tf) = C2*(Tf - T2)"),
    ],
    distractors=[
        distractor("ignored the heat absorbed by the calorimeter", C2="m2*cw"),
        distractor("ignored the specific heats (mass-weighted average)",
                   Tf="(m1*T1 + (m2 + mc)*T2)/(m1 + m2 + mc)"),
        distractor("took the simple average of the two temperatures", Tf="(T1 + T2)/2"),
        distractor("used the water's specific heat for the block", C1="m1*cw"),
    ],
))

register_family(Family(
    name="ice_to_water_heat",
    domain=D,
    question=("How much heat is needed to turn {m} of ice at {T1} into water at {T2}? The ice melts at {T0}; "
              "take the specific heat of ice as {ci}, the latent heat of fusion as {Lf} and the specific heat "
              "of water as {cw}."),
    givens=[
        given("m", between(50, 900), "g", "mass of ice", sig=3),
        given("T1", between(240, 271), "K", "initial temperature of the ice", sig=3),
        given("T2", between(278, 368), "K", "final temperature of the water", sig=3),
        const("T0", 273, "K", "melting point of ice"),
        const("ci", 2100, "J/(kg*K)", "specific heat of ice"),
        const("Lf", 3.34e5, "J/kg", "latent heat of fusion of ice"),
        const("cw", 4186, "J/(kg*K)", "specific heat of water"),
    ],
    find=("Q", "the total heat needed"),
    principles=[
        principle("Sensible heat", "Q = m*c*dT while a phase is heated, with the specific heat of that "
                  "phase", "specific heat", "sensible heat"),
        principle("Latent heat", "melting at constant temperature needs Q = m*L", "latent heat", "fusion",
                  "phase change"),
    ],
    steps=[
        compute("Q1", "m*ci*(T0 - T1)", "kJ", "heat to warm the ice to the melting point"),
        compute("Q2", "m*Lf", "kJ", "heat to melt the ice"),
        compute("Q3", "m*cw*(T2 - T0)", "kJ", "heat to warm the melt water"),
        compute("Q", "Q1 + Q2 + Q3", "kJ", "total heat"),
    ],
    typical_errors=[distractor("forgot the latent heat of melting", Q="Q1 + Q3"),
                    distractor("used the specific heat of water for the ice", Q1="m*cw*(T0 - T1)")],
))

register_family(Family(
    name="carnot_engine_heat_rejected",
    domain=D,
    question=("A Carnot engine works between reservoirs at {TH} and {TC} and absorbs {QH} of heat from the "
              "hot reservoir in each cycle. How much heat does it reject to the cold reservoir per cycle?"),
    givens=[
        given("TH", between(450, 1200), "K", "hot reservoir temperature", sig=3),
        given("TC", between(260, 400), "K", "cold reservoir temperature", sig=3),
        given("QH", between(200, 5000), "J", "heat absorbed per cycle", sig=2),
    ],
    find=("QC", "the heat rejected per cycle"),
    principles=[
        principle("Carnot efficiency", "a reversible engine between TH and TC has eta = 1 - TC/TH",
                  "carnot", "efficiency", "reversible"),
        principle("First law on a cyclic process", "over a cycle dU = 0, so W = QH - QC", "first law", "cycle"),
    ],
    steps=[
        compute("eta", "1 - TC/TH", "", "Carnot efficiency"),
        compute("W", "eta*QH", "J", "work done per cycle"),
        compute("QC", "QH - W", "J", "heat rejected per cycle"),
    ],
    typical_errors=[distractor("used eta = TC/TH", eta="TC/TH")],
))

register_family(Family(
    name="thermal_stress_clamped_rod",
    domain=D,
    question=("A metal rod of cross-sectional area {A} is fixed between two rigid walls at {T1}, when it is "
              "unstressed. The rod is heated to {T2}. Its Young's modulus is {Y} and its coefficient of linear "
              "expansion is {alpha}. Find the force the rod exerts on each wall."),
    givens=[
        given("A", between(0.50, 5.0), "cm^2", "cross-sectional area", sig=2),
        given("T1", between(280, 310), "K", "initial temperature", sig=3),
        given("T2", between(320, 420), "K", "final temperature", sig=3),
        given("Y", between(70, 210), "GPa", "Young's modulus", sig=3),
        given("alpha", between(1.0e-5, 2.4e-5), "1/K", "coefficient of linear expansion", sig=2),
    ],
    find=("F", "the compressive force on each wall"),
    principles=[
        principle("Thermal expansion", "a free rod would expand by the strain alpha*dT", "thermal expansion",
                  "linear expansion", "strain"),
        principle("Hooke's law", "the walls prevent the expansion, producing the stress Y*strain; the force "
                  "is stress times area", "Young's modulus", "stress", "Hooke"),
    ],
    steps=[
        compute("strain", "alpha*(T2 - T1)", "", "prevented thermal strain", sig=3),
        compute("stress", "Y*strain", "MPa", "thermal stress"),
        compute("F", "stress*A", "kN", "force on each wall"),
    ],
))

register_family(Family(
    name="composite_wall_interface_temperature",
    domain=D,
    question=("A wall of area {A} is made of two layers in contact: {d1} of material with thermal "
              "conductivity {k1} and {d2} of material with thermal conductivity {k2}. The outer face of the "
              "first layer is at {TH} and that of the second at {TC}. In the steady state, find the "
              "temperature of the interface between the layers."),
    givens=[
        given("A", between(1.0, 10.0), "m^2", "area of the wall", sig=2),
        given("d1", between(2.0, 20.0), "cm", "thickness of the first layer", sig=2),
        given("k1", between(0.10, 1.50), "W/(m*K)", "conductivity of the first layer", sig=2),
        given("d2", between(2.0, 20.0), "cm", "thickness of the second layer", sig=2),
        given("k2", between(0.030, 0.80), "W/(m*K)", "conductivity of the second layer", sig=2),
        given("TH", between(300, 380), "K", "temperature of the hot face", sig=3),
        given("TC", between(250, 290), "K", "temperature of the cold face", sig=3),
    ],
    find=("Ti", "the interface temperature"),
    principles=[
        principle("Fourier's law of conduction", "the heat current through a slab is k*A*dT/d, so a layer "
                  "has thermal resistance d/(k*A)", "conduction", "Fourier", "thermal resistance"),
        principle("Steady state in series", "the same heat current flows through both layers, whose "
                  "resistances add", "steady state", "series"),
    ],
    steps=[
        compute("R1", "d1/(k1*A)", "K/W", "thermal resistance of the first layer"),
        compute("R2", "d2/(k2*A)", "K/W", "thermal resistance of the second layer"),
        compute("P", "(TH - TC)/(R1 + R2)", "W", "heat current through the wall"),
        compute("Ti", "TH - P*R1", "K", "interface temperature", sig=4, why="from P = (TH - Ti)/R1"),
    ],
    typical_errors=[distractor("added the layers' conductances as if in parallel", P="(TH - TC)*(1/R1 + 1/R2)")],
))

register_family(Family(
    name="stefan_boltzmann_net_power",
    domain=D,
    question=("A sphere of radius {r} with emissivity {emis} is kept at {T} in surroundings at {T0}. Taking "
              "the Stefan-Boltzmann constant as {sigma}, find the net rate at which it loses energy by "
              "radiation."),
    givens=[
        given("r", between(1.0, 20.0), "cm", "radius of the sphere", sig=3),
        given("emis", between(0.20, 0.98), "", "emissivity of the surface", sig=2),
        given("T", between(400, 1200), "K", "temperature of the sphere", sig=3),
        given("T0", between(280, 310), "K", "temperature of the surroundings", sig=3),
        const("sigma", 5.67e-8, "W/(m^2*K^4)", "Stefan-Boltzmann constant"),
    ],
    find=("P", "the net radiated power"),
    principles=[
        principle("Stefan-Boltzmann law", "a surface of emissivity e and area A at temperature T emits "
                  "e*sigma*A*T^4 and absorbs e*sigma*A*T0^4 from surroundings at T0",
                  "Stefan-Boltzmann", "emissivity", "radiation", "T^4"),
    ],
    steps=[
        compute("A", "4*pi*r^2", "m^2", "surface area of the sphere"),
        compute("P", "emis*sigma*A*(T^4 - T0^4)", "W", "net radiated power"),
    ],
    typical_errors=[distractor("ignored absorption from the surroundings", P="emis*sigma*A*T^4")],
))

register_family(Family(
    name="rms_speed_gas",
    domain=D,
    question=("Find the root-mean-square speed of the molecules of an ideal gas of molar mass {M} at a "
              "temperature of {T}. Take R = {R}."),
    givens=[
        given("M", choice(2.0, 4.0, 16.0, 28.0, 32.0, 40.0, 44.0), "g/mol", "molar mass of the gas", sig=2),
        given("T", between(200, 900), "K", "temperature of the gas", sig=3),
        R_GAS,
    ],
    find=("vrms", "the rms speed of the molecules"),
    principles=[
        principle("Kinetic theory of gases", "the mean translational kinetic energy per mole is (3/2)*R*T, "
                  "so (1/2)*M*vrms^2 = (3/2)*R*T", "kinetic theory", "rms speed", "equipartition"),
    ],
    steps=[compute("vrms", "sqrt(3*R*T/M)", "m/s", "rms speed")],
    distractors=[
        distractor("used the mean-speed formula sqrt(8RT/(pi*M))", vrms="sqrt(8*R*T/(pi*M))"),
        distractor("used the most-probable-speed formula sqrt(2RT/M)", vrms="sqrt(2*R*T/M)"),
        distractor("used the molar mass in g/mol as if it were kg/mol", vrms="sqrt(3*R*T/(1000*M))"),
    ],
))

# Paper's Example 3: heat for isochoric heating of helium.
register_family(Family(
    name="isochoric_heating_helium",
    domain=D,
    question=("A rigid sealed container holds {m} of helium gas (molar mass {M}) at {T1}. How much heat must "
              "be supplied to raise its temperature to {T2}? Treat helium as a monatomic ideal gas and take "
              "R = {R}."),
    givens=[
        given("m", between(1.0, 40.0), "g", "mass of helium", sig=3),
        given("T1", between(260, 350), "K", "initial temperature", sig=3),
        given("T2", between(300, 600), "K", "final temperature", sig=3),
        const("M", 4, "g/mol", "molar mass of helium"),
        R_GAS,
    ],
    find=("Q", "the heat supplied"),
    principles=[
        principle("Mole concept", "the amount of gas is n = m/M", "moles", "molar mass"),
        principle("First law at constant volume", "no work is done in a rigid container, so Q = dU = n*Cv*dT "
                  "with Cv = 3R/2 for a monatomic gas", "first law", "isochoric", "Cv", "monatomic"),
    ],
    steps=[
        compute("n", "m/M", "mol", "amount of helium"),
        compute("Cv", "3*R/2", "J/(mol*K)", "molar heat capacity at constant volume"),
        compute("Q", "n*Cv*(T2 - T1)", "J", "heat supplied"),
    ],
    require=["T2 > 1.06*T1"],
    typical_errors=[distractor("used Cp = 5R/2 instead of Cv", Cv="5*R/2")],
))
