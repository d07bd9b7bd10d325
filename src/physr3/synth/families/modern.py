"""Modern Physics families (domain "Modern Physics"): photons and matter waves, the Bohr atom, radioactivity,
nuclear energetics and special relativity. Four of the twelve are 4-option MCQ whose distractors are
typical errors.

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

MP = "Modern Physics"
H = const("h", 6.63e-34, "J*s", "Planck constant")
C = const("c", 3e8, "m/s", "speed of light")
Q_E = const("e", 1.6e-19, "C", "elementary charge")
M_E = const("me", 9.11e-31, "kg", "electron mass")

register_family(Family(
    name="photoelectric_stopping_potential",
    domain=MP,
    question=("Light of wavelength {lam} falls on a metal surface whose work function is {phi}. Taking "
              "h = {h}, c = {c} and e = {e}, find the stopping potential for the emitted photoelectrons."),
    givens=[
        given("lam", between(150, 550), "nm", "wavelength of the light", sig=3),
        given("phi", between(1.80, 5.00), "eV", "work function of the metal", sig=3),
        H, C, Q_E,
    ],
    find=("V0", "the stopping potential"),
    principles=[
        principle("Photon energy", "each photon carries E = h*c/lambda", "photon", "planck"),
        principle("Einstein's photoelectric equation", "Kmax = E - phi, and the stopping potential satisfies "
                  "e*V0 = Kmax", "photoelectric", "work function", "stopping potential"),
    ],
    steps=[
        compute("Eph", "h*c/lam", "eV", "photon energy"),
        compute("Kmax", "Eph - phi", "eV", "maximum kinetic energy of the photoelectrons"),
        compute("V0", "Kmax/e", "V", "stopping potential"),
    ],
    distractors=[
        distractor("ignored the work function", Kmax="Eph"),
        distractor("added the work function instead of subtracting it", Kmax="Eph + phi"),
        distractor("confused the stopping potential with the work function in volts", V0="phi/e"),
    ],
    require=["Eph > 1.1*phi"],
))

register_family(Family(
    name="de_broglie_accelerated_electron",
    domain=MP,
    question=("An electron moving with a kinetic energy of {K0} is accelerated further through a potential "
              "difference of {V}. Taking h = {h}, me = {me}, e = {e} and c = {c}, find its de Broglie "
              "wavelength afterwards (non-relativistic)."),
    givens=[
        given("K0", between(1.0, 50.0), "eV", "initial kinetic energy", sig=2),
        given("V", between(20, 999), "V", "accelerating potential difference", sig=3),
        H, M_E, Q_E, C,
    ],
    find=("lam", "the de Broglie wavelength of the electron"),
    principles=[
        principle("Work-energy theorem", "the field does work e*V on the electron, so K = K0 + e*V",
                  "work", "kinetic energy"),
        principle("Momentum from kinetic energy", "K = p^2/(2*me)", "momentum", "kinetic energy"),
        principle("de Broglie relation", "lambda = h/p", "de broglie", "matter wave", "wavelength"),
    ],
    steps=[
        compute("K", "K0 + e*V", "eV", "final kinetic energy"),
        compute("p", "sqrt(2*me*K)", "kg*m/s", "momentum of the electron"),
        compute("lam", "h/p", "pm", "de Broglie wavelength"),
    ],
    distractors=[
        distractor("dropped the factor 2 in p = sqrt(2*m*K)", p="sqrt(me*K)"),
        distractor("used the photon relation lambda = h*c/E", lam="h*c/K"),
        distractor("used h-bar instead of h", lam="h/(2*pi*p)"),
        distractor("ignored the initial kinetic energy", K="e*V"),
    ],
))

register_family(Family(
    name="bohr_photon_photoelectric",
    domain=MP,
    question=("In a hydrogen-like ion of atomic number {Z}, the electron falls from the level n = {nu} to "
              "n = {nl}. The emitted photon strikes a metal whose threshold wavelength is {lam0}. Using the "
              "Bohr model (hydrogen ground-state energy -{E0}) with h = {h} and c = {c}, find the maximum "
              "kinetic energy of the photoelectrons."),
    givens=[
        given("Z", choice(1, 2, 3), "", "atomic number", sig=None),
        given("nu", between(2, 6, step=1), "", "upper level", sig=None),
        given("nl", between(1, 3, step=1), "", "lower level", sig=None),
        given("lam0", between(250, 650), "nm", "threshold wavelength of the metal", sig=3),
        const("E0", 13.6, "eV", "magnitude of the hydrogen ground-state energy"),
        H, C,
    ],
    find=("Kmax", "the maximum kinetic energy of the photoelectrons"),
    principles=[
        principle("Bohr model energy levels", "En = -E0*Z^2/n^2; the photon carries the difference between "
                  "the levels", "bohr", "energy level", "transition"),
        principle("Photon energy and wavelength", "E = h*c/lambda", "photon", "wavelength"),
        principle("Einstein's photoelectric equation", "Kmax = h*c/lambda - h*c/lambda0",
                  "photoelectric", "threshold wavelength", "work function"),
    ],
    steps=[
        compute("Eph", "E0*Z^2*(1/nl^2 - 1/nu^2)", "eV", "energy of the emitted photon"),
        compute("lam", "h*c/Eph", "nm", "wavelength of the emitted photon"),
        compute("Kmax", "h*c*(1/lam - 1/lam0)", "eV", "maximum kinetic energy"),
    ],
    require=["nu > nl", "lam0 > 1.1*lam"],
    typical_errors=[distractor("forgot the Z^2 scaling of the levels", Eph="E0*(1/nl^2 - 1/nu^2)")],
))

register_family(Family(
    name="radioactive_activity_after_time",
    domain=MP,
    question=("A sample contains {m} of a pure radioactive isotope of molar mass {M}, whose half-life is "
              "{T}. Taking NA = {NA}, find the activity of the sample after {t}."),
    givens=[
        given("m", between(1.0, 99), "ug", "initial mass of the isotope", sig=2),
        given("M", choice(32, 60, 90, 131, 137, 198, 210, 226), "g/mol", "molar mass", sig=None),
        given("T", between(1.0, 30.0), "d", "half-life in days", sig=2),
        given("t", between(1.0, 60.0), "d", "elapsed time in days", sig=2),
        const("NA", 6.02e23, "1/mol", "Avogadro constant"),
    ],
    find=("A", "the activity after time t"),
    principles=[
        principle("Number of nuclei from mass", "N0 = m*NA/M", "avogadro", "mole"),
        principle("Radioactive decay law", "N = N0*exp(-lambda*t) with lambda = ln(2)/T_half",
                  "decay law", "decay constant", "half-life", "exponential"),
        principle("Activity", "A = lambda*N", "activity"),
    ],
    steps=[
        compute("lam", "log(2)/T", "1/s", "decay constant"),
        compute("N0", "m*NA/M", "", "initial number of nuclei"),
        compute("N", "N0*exp(-lam*t)", "", "nuclei remaining at time t"),
        compute("A", "lam*N", "Bq", "activity at time t"),
    ],
    require=["t < 5*T"],
    typical_errors=[distractor("took the decay constant as 1/T_half", lam="1/T")],
))

register_family(Family(
    name="half_life_from_activity_ratio",
    domain=MP,
    question=("The activity of a radioactive sample is {A1} at one instant and {A2} a time {t} later. Find "
              "the half-life of the isotope."),
    givens=[
        given("A1", between(2.0, 9.9), "kBq", "initial activity", sig=2),
        given("A2", between(0.20, 8.0), "kBq", "later activity", sig=2),
        given("t", between(1.0, 48.0), "h", "time between the measurements", sig=2),
    ],
    find=("T", "the half-life"),
    principles=[
        principle("Radioactive decay law", "the activity falls as A = A1*exp(-lambda*t), so "
                  "lambda = ln(A1/A2)/t", "decay law", "activity", "exponential"),
        principle("Half-life and decay constant", "T_half = ln(2)/lambda", "half-life", "decay constant"),
    ],
    steps=[
        compute("lam", "log(A1/A2)/t", "1/h", "decay constant"),
        compute("T", "log(2)/lam", "h", "half-life"),
    ],
    require=["A2 < 0.85*A1", "A2 > 0.05*A1"],
    typical_errors=[distractor("reported the mean life instead of the half-life", T="1/lam")],
))

register_family(Family(
    name="decay_chain_max_daughter",
    domain=MP,
    question=("A radioactive nucleus X decays to Y with a half-life of {T1}, and Y decays to a stable nucleus "
              "Z with a half-life of {T2}. Initially the sample contains only X. After how long is the number "
              "of Y nuclei a maximum?"),
    givens=[
        given("T1", between(1.0, 20.0), "h", "half-life of X", sig=2),
        given("T2", between(1.0, 20.0), "h", "half-life of Y", sig=2),
    ],
    find=("tm", "the time at which the number of Y nuclei is maximum"),
    principles=[
        principle("Decay constants", "lambda = ln(2)/T_half for each nucleus", "decay constant", "half-life"),
        principle("Successive decay (Bateman)", "NY = N0*l1/(l2 - l1)*(exp(-l1*t) - exp(-l2*t)); NY is maximal "
                  "when dNY/dt = 0, i.e. l1*NX = l2*NY, giving tm = ln(l1/l2)/(l1 - l2)",
                  "decay chain", "bateman", "maximum", "derivative"),
    ],
    steps=[
        compute("l1", "log(2)/T1", "1/h", "decay constant of X"),
        compute("l2", "log(2)/T2", "1/h", "decay constant of Y"),
        compute("tm", "log(l1/l2)/(l1 - l2)", "h", "time of maximum NY", why="from dNY/dt = 0"),
    ],
    require=["(T1 - T2)^2 > 0.04*T2^2"],
    typical_errors=[distractor("added the decay constants", tm="log(l1/l2)/(l1 + l2)")],
))

register_family(Family(
    name="neutron_separation_energy",
    domain=MP,
    question=("A nucleus X has {Z} protons and {N} neutrons and a binding energy per nucleon of {b1}. The "
              "nucleus with the same number of protons and one neutron fewer has a binding energy per nucleon "
              "of {b2}. Find the minimum energy needed to remove one neutron from X."),
    givens=[
        given("Z", between(20, 50, step=1), "", "number of protons", sig=None),
        given("N", between(20, 75, step=1), "", "number of neutrons", sig=None),
        given("b1", between(8.40, 8.80), "MeV", "binding energy per nucleon of X", sig=3),
        given("b2", between(8.40, 8.80), "MeV", "binding energy per nucleon of the lighter isotope", sig=3),
    ],
    find=("Sn", "the neutron separation energy of X"),
    principles=[
        principle("Binding energy", "the total binding energy is the number of nucleons times the binding "
                  "energy per nucleon; it is the energy equivalent of the mass defect",
                  "binding energy", "per nucleon", "mass defect"),
        principle("Energy conservation in the separation", "X -> (X minus one neutron) + n: the energy needed "
                  "is the binding energy of X minus that of the residual nucleus (a free neutron has none)",
                  "separation energy", "conservation of energy"),
    ],
    steps=[
        compute("B1", "(Z + N)*b1", "MeV", "total binding energy of X", sig=5),
        compute("B2", "(Z + N + (-1))*b2", "MeV", "total binding energy of the residual nucleus", sig=5),
        compute("Sn", "B1 - B2", "MeV", "neutron separation energy"),
    ],
    require=["N >= Z", "N <= 1.5*Z", "Sn > 0.5*b1", "Sn < 1.5*b1"],
    typical_errors=[distractor("gave the residual nucleus as many nucleons as X", B2="(Z + N)*b2")],
))

register_family(Family(
    name="compton_recoil_energy",
    domain=MP,
    question=("An X-ray photon of wavelength {lam} is scattered by a free electron at rest through an angle of "
              "{theta}. Taking h = {h}, me = {me} and c = {c}, find the kinetic energy of the recoiling "
              "electron."),
    givens=[
        given("lam", between(10.0, 99.9), "pm", "incident wavelength", sig=3),
        given("theta", between(30, 180, step=5), "deg", "scattering angle", sig=None),
        H, M_E, C,
    ],
    find=("K", "the kinetic energy of the recoil electron"),
    principles=[
        principle("Compton scattering", "the wavelength increases by h/(me*c)*(1 - cos(theta))",
                  "compton", "wavelength shift"),
        principle("Conservation of energy", "the electron's kinetic energy is the energy lost by the photon, "
                  "h*c/lambda - h*c/lambda'", "conservation of energy", "photon energy"),
    ],
    steps=[
        compute("dl", "h/(me*c)*(1 - cos(theta))", "pm", "Compton shift"),
        compute("lam2", "lam + dl", "pm", "scattered wavelength"),
        compute("K", "h*c/lam - h*c/lam2", "keV", "kinetic energy of the electron"),
    ],
    typical_errors=[distractor("used 1 + cos(theta) in the Compton shift", dl="h/(me*c)*(1 + cos(theta))")],
))

register_family(Family(
    name="xray_cutoff_bragg_angle",
    domain=MP,
    question=("An X-ray tube is operated at {V}. The shortest-wavelength X-rays it emits are diffracted in "
              "first order by crystal planes of spacing {d}. Taking h = {h}, c = {c}, e = {e} and me = {me}, "
              "find the glancing (Bragg) angle of this diffraction."),
    givens=[
        given("V", between(10.0, 50.0), "kV", "tube voltage", sig=3),
        given("d", between(100, 400), "pm", "spacing of the crystal planes", sig=3),
        H, C, Q_E, M_E,
    ],
    find=("th", "the first-order Bragg angle for the cutoff wavelength"),
    principles=[
        principle("Duane-Hunt law", "an electron's whole kinetic energy e*V can go into one photon, so "
                  "lambda_min = h*c/(e*V)", "cutoff wavelength", "duane-hunt", "continuous spectrum"),
        principle("Bragg's law", "2*d*sin(theta) = n*lambda with theta the glancing angle", "bragg",
                  "diffraction", "glancing angle"),
    ],
    steps=[
        compute("lam", "h*c/(e*V)", "pm", "cutoff wavelength"),
        compute("th", "asin(lam/(2*d))", "deg", "first-order glancing angle"),
    ],
    distractors=[
        distractor("used the de Broglie wavelength of the electrons", lam="h/sqrt(2*me*e*V)"),
        distractor("dropped the factor 2 in Bragg's law", th="asin(lam/d)"),
        distractor("measured the angle from the normal to the planes", th="acos(lam/(2*d))"),
    ],
    require=["lam < 0.9*d"],
))

register_family(Family(
    name="photon_radiation_force",
    domain=MP,
    question=("A laser of power {P} emits light of wavelength {lam} that falls normally on a surface which "
              "reflects a fraction {Rf} of the photons and absorbs the rest. Taking h = {h} and c = {c}, find "
              "the force the light exerts on the surface."),
    givens=[
        given("P", between(0.50, 20.0), "W", "laser power", sig=2),
        given("lam", between(400, 700), "nm", "wavelength", sig=3),
        given("Rf", between(0.10, 0.95), "", "fraction of photons reflected", sig=2),
        H, C,
    ],
    find=("F", "the force on the surface"),
    principles=[
        principle("Photon energy and momentum", "E = h*c/lambda and p = h/lambda for each photon",
                  "photon", "momentum", "energy"),
        principle("Impulse of the photon stream", "an absorbed photon transfers p, a reflected one 2*p; the "
                  "force is the momentum transferred per second", "radiation pressure", "impulse", "reflected"),
    ],
    steps=[
        compute("Eph", "h*c/lam", "eV", "energy of one photon"),
        compute("rate", "P/Eph", "1/s", "photons per second"),
        compute("p", "h/lam", "kg*m/s", "momentum of one photon"),
        compute("F", "(1 + Rf)*rate*p", "nN", "force on the surface"),
    ],
    typical_errors=[distractor("treated the reflected photons as absorbed", F="rate*p")],
))

register_family(Family(
    name="time_dilation_particle_survival",
    domain=MP,
    question=("Unstable particles with a proper mean lifetime of {tau0} are produced with speed {beta}c and "
              "travel {L} in the laboratory. Taking c = {c}, what fraction of them survive the journey?"),
    givens=[
        given("tau0", between(1.50, 3.00), "us", "proper mean lifetime", sig=3),
        given("beta", between(0.900, 0.999), "", "speed as a fraction of c", sig=3),
        given("L", between(0.50, 5.0), "km", "distance travelled in the lab", sig=2),
        C,
    ],
    find=("f", "the fraction of particles surviving"),
    principles=[
        principle("Time dilation", "the lifetime in the lab is gamma*tau0, gamma = 1/sqrt(1 - beta^2)",
                  "time dilation", "lorentz factor", "relativity"),
        principle("Exponential decay", "the surviving fraction is exp(-t/tau) for lab travel time t",
                  "decay law", "exponential", "mean lifetime"),
    ],
    steps=[
        compute("gamma", "1/sqrt(1 - beta^2)", "", "Lorentz factor"),
        compute("tau", "gamma*tau0", "us", "dilated mean lifetime"),
        compute("tt", "L/(beta*c)", "us", "travel time in the lab"),
        compute("f", "exp(-tt/tau)", "", "surviving fraction"),
    ],
    distractors=[
        distractor("ignored time dilation", tau="tau0"),
        distractor("applied length contraction on top of time dilation", tt="L/(gamma*beta*c)"),
        distractor("treated the mean lifetime as a half-life", f="2^(-tt/tau)"),
    ],
    require=["f > 0.02"],
))

register_family(Family(
    name="fission_q_value",
    domain=MP,
    question=("A nucleus of mass number {A} (binding energy per nucleon {b}) splits into a fragment of mass "
              "number {A1} (binding energy per nucleon {b1}), a second fragment (binding energy per nucleon "
              "{b2}) and {nn} free neutrons. Find the energy released in the fission."),
    givens=[
        given("A", between(230, 240, step=1), "", "mass number of the parent", sig=None),
        given("A1", between(85, 105, step=1), "", "mass number of the first fragment", sig=None),
        given("nn", choice(2, 3), "", "number of free neutrons", sig=None),
        given("b", between(7.50, 7.70), "MeV", "binding energy per nucleon of the parent", sig=3),
        given("b1", between(8.40, 8.70), "MeV", "binding energy per nucleon of the first fragment", sig=3),
        given("b2", between(8.30, 8.60), "MeV", "binding energy per nucleon of the second fragment", sig=3),
    ],
    find=("Q", "the energy released"),
    principles=[
        principle("Conservation of nucleon number", "A = A1 + A2 + nn", "nucleon number", "conservation"),
        principle("Q-value from binding energies", "Q = total binding energy of the products minus that of "
                  "the parent; free neutrons have no binding energy", "Q-value", "binding energy"),
    ],
    steps=[
        compute("A2", "A - A1 - nn", "", "mass number of the second fragment", sig=3),
        compute("Q", "A1*b1 + A2*b2 - A*b", "MeV", "energy released"),
    ],
    typical_errors=[distractor("left the free neutrons out of the nucleon balance", A2="A - A1")],
))
