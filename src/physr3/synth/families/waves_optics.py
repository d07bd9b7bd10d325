"""Waves & Optics families (domain "Waves & Optics"): strings and pipes, Doppler and beats, SHM, sound
level, lenses and mirrors, refraction, interference and diffraction.

Each family is one `register_family(Family(...))` declaration; see the package docstring for the rules.
Angles are stated and reported in deg (the framework converts to rad for sin/asin).
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

D = "Waves & Optics"

register_family(Family(
    name="string_standing_wave_frequency",
    domain=D,
    question=("A string of length {L} and mass {m} is fixed at both ends and kept under a tension of {T}. "
              "Find the frequency at which it vibrates when it forms a standing wave with {nl} loops."),
    givens=[
        given("L", between(0.50, 2.00), "m", "length of the string", sig=3),
        given("m", between(2.0, 20.0), "g", "mass of the string", sig=2),
        given("T", between(20, 400), "N", "tension in the string", sig=2),
        given("nl", choice(2, 3, 4, 5), "", "number of loops, the harmonic number", sig=None),
    ],
    find=("f", "the frequency of vibration"),
    principles=[
        principle("Wave speed on a string", "v = sqrt(T/mu) with mu = m/L the linear mass density",
                  "wave speed", "tension", "linear density"),
        principle("Standing waves on a string", "with both ends fixed, n loops fit the length: L = n*lambda/2, "
                  "and f = v/lambda", "standing wave", "harmonic", "nodes", "loops"),
    ],
    steps=[
        compute("mu", "m/L", "g/m", "linear mass density"),
        compute("v", "sqrt(T/mu)", "m/s", "wave speed"),
        compute("lam", "2*L/nl", "m", "wavelength", why="from L = nl*lam/2"),
        compute("f", "v/lam", "Hz", "frequency of vibration"),
    ],
    distractors=[
        distractor("took one loop per wavelength (L = n*lambda)", lam="L/nl"),
        distractor("ignored the number of loops (used the fundamental wavelength 2L)", lam="2*L"),
        distractor("used the closed-pipe relation lambda = 4L/n", lam="4*L/nl"),
        distractor("counted the nodes (n + 1) instead of the loops", lam="2*L/(nl + 1)"),
    ],
))

register_family(Family(
    name="closed_pipe_overtone_temperature",
    domain=D,
    question=("A pipe of length {L} is closed at one end. The air in it is at {T}, and the speed of sound "
              "in air is {v0} at {T0}. Find the frequency of the first overtone of the pipe."),
    givens=[
        given("L", between(20, 120), "cm", "length of the pipe", sig=3),
        given("T", between(288, 318), "K", "air temperature", sig=3),
        const("v0", 331, "m/s", "speed of sound at the reference temperature"),
        const("T0", 273, "K", "reference temperature"),
    ],
    find=("f", "the frequency of the first overtone"),
    principles=[
        principle("Speed of sound in a gas", "v = sqrt(gamma*R*T/M) is proportional to sqrt(T)",
                  "speed of sound", "temperature"),
        principle("Closed organ pipe", "a node at the closed end and an antinode at the open end allow only "
                  "odd harmonics f = (2k - 1)*v/(4L); the first overtone is the third harmonic",
                  "closed pipe", "overtone", "odd harmonics"),
    ],
    steps=[
        compute("v", "v0*sqrt(T/T0)", "m/s", "speed of sound in the pipe"),
        compute("f", "3*v/(4*L)", "Hz", "frequency of the first overtone"),
    ],
    distractors=[
        distractor("treated the pipe as open at both ends (first overtone v/L)", f="v/L"),
        distractor("took the first overtone as the second harmonic 2v/(4L)", f="v/(2*L)"),
        distractor("ignored the temperature dependence of the speed of sound", v="v0"),
    ],
))

register_family(Family(
    name="doppler_wall_beats",
    domain=D,
    question=("A source emitting sound of frequency {f} moves at {vs} directly towards a large wall, away "
              "from a stationary listener behind it. The listener hears the direct sound and the echo from "
              "the wall. Taking the speed of sound as {v}, find the beat frequency heard."),
    givens=[
        given("f", between(250, 800), "Hz", "frequency of the source", sig=3),
        given("vs", between(0.50, 5.0), "m/s", "speed of the source", sig=2),
        const("v", 340, "m/s", "speed of sound"),
    ],
    find=("fb", "the beat frequency heard by the listener"),
    principles=[
        principle("Doppler effect", "a source moving at vs relative to still air is heard at f*v/(v - vs) "
                  "ahead of it and f*v/(v + vs) behind it; a stationary wall reflects what it receives",
                  "doppler", "moving source", "reflection"),
        principle("Beats", "two tones heard together beat at the difference of their frequencies",
                  "beats", "beat frequency"),
    ],
    steps=[
        compute("f1", "f*v/(v + vs)", "Hz", "frequency of the direct sound (receding source)", sig=5),
        compute("f2", "f*v/(v - vs)", "Hz", "frequency of the echo (source approaching the wall)", sig=5),
        compute("fb", "f2 - f1", "Hz", "beat frequency"),
    ],
    typical_errors=[distractor("assumed the echo is unshifted", f2="f")],
))

register_family(Family(
    name="spring_mass_max_speed",
    domain=D,
    question=("A block of mass {m} hung from a light spring stretches it by {d} at equilibrium. The block is "
              "pulled down a further {A} and released. Taking g = {g}, find the maximum speed of the block."),
    givens=[
        given("m", between(0.20, 2.00), "kg", "mass of the block", sig=2),
        given("d", between(2.0, 20.0), "cm", "static extension of the spring", sig=3),
        given("A", between(1.0, 10.0), "cm", "amplitude of oscillation", sig=2),
        const("g", 9.8, "m/s^2", "gravitational acceleration"),
    ],
    find=("vmax", "the maximum speed of the block"),
    principles=[
        principle("Equilibrium of the hanging block", "the spring force balances the weight: k*d = m*g",
                  "equilibrium", "Hooke", "spring constant"),
        principle("Simple harmonic motion", "the block oscillates about equilibrium with omega = sqrt(k/m) "
                  "and reaches vmax = A*omega at the equilibrium position", "SHM", "angular frequency",
                  "maximum speed"),
    ],
    steps=[
        compute("k", "m*g/d", "N/m", "spring constant"),
        compute("omega", "sqrt(k/m)", "rad/s", "angular frequency"),
        compute("vmax", "A*omega", "m/s", "maximum speed"),
    ],
    distractors=[
        distractor("used the frequency f = omega/(2*pi) in place of omega", vmax="A*omega/(2*pi)"),
        distractor("used the static extension as the amplitude", vmax="d*omega"),
        distractor("treated the release as free fall through the amplitude", vmax="sqrt(2*g*A)"),
        distractor("multiplied omega by 2*pi", omega="2*pi*sqrt(k/m)"),
    ],
    require=["A < 0.9*d"],
))

register_family(Family(
    name="pendulum_in_lift_period",
    domain=D,
    question=("A simple pendulum of length {L} hangs from the ceiling of a lift that accelerates upward at "
              "{a}. Taking g = {g}, find the period of small oscillations of the pendulum."),
    givens=[
        given("L", between(0.200, 2.50), "m", "length of the pendulum", sig=3),
        given("a", between(0.5, 4.0), "m/s^2", "upward acceleration of the lift", sig=2),
        const("g", 9.8, "m/s^2", "gravitational acceleration"),
    ],
    find=("Tp", "the period of small oscillations"),
    principles=[
        principle("Effective gravity in an accelerating frame", "in a lift accelerating upward at a the "
                  "bob feels g_eff = g + a", "pseudo force", "effective gravity", "non-inertial"),
        principle("Simple pendulum", "for small oscillations T = 2*pi*sqrt(L/g_eff)", "pendulum", "period",
                  "small oscillations"),
    ],
    steps=[
        compute("geff", "g + a", "m/s^2", "effective gravitational acceleration"),
        compute("Tp", "2*pi*sqrt(L/geff)", "s", "period of the pendulum"),
    ],
    typical_errors=[distractor("subtracted the lift's acceleration", geff="g - a")],
))

register_family(Family(
    name="thin_lens_image_height",
    domain=D,
    question=("An object {ho} tall stands upright {u} in front of a thin converging lens of focal length "
              "{f}. Find the height of the image."),
    givens=[
        given("ho", between(1.0, 10.0), "cm", "height of the object", sig=2),
        given("u", between(10, 120), "cm", "object distance", sig=3),
        given("f", between(5.0, 40.0), "cm", "focal length", sig=2),
    ],
    find=("hi", "the height of the image (magnitude)"),
    principles=[
        principle("Thin lens formula", "1/v - 1/u = 1/f in the Cartesian convention; with the object at "
                  "distance u to the left, the real image lies at v = u*f/(u - f)", "lens formula",
                  "thin lens", "image distance"),
        principle("Linear magnification", "m = v/u (in magnitude) and h_i = m*h_o; the image is real and "
                  "inverted", "magnification", "image height"),
    ],
    steps=[
        compute("v", "u*f/(u - f)", "cm", "image distance", why="from 1/v + 1/u = 1/f with magnitudes"),
        compute("mag", "v/u", "", "magnitude of the magnification"),
        compute("hi", "mag*ho", "cm", "height of the image"),
    ],
    distractors=[
        distractor("sign error in the lens formula (1/v + 1/u = 1/f with signs)", v="u*f/(u + f)"),
        distractor("inverted the magnification (u/v)", mag="u/v"),
        distractor("placed the image at the focal point", v="f"),
    ],
    require=["u > 1.3*f", "u < 6*f"],
))

register_family(Family(
    name="concave_mirror_image_distance",
    domain=D,
    question=("An object is placed {u} in front of a concave mirror whose radius of curvature is {Rc}. How "
              "far from the mirror is the image formed?"),
    givens=[
        given("u", between(10, 150), "cm", "object distance", sig=3),
        given("Rc", between(10, 80), "cm", "radius of curvature", sig=2),
    ],
    find=("v", "the image distance from the mirror"),
    principles=[
        principle("Focal length of a spherical mirror", "f = R/2 for paraxial rays", "focal length",
                  "radius of curvature"),
        principle("Mirror formula", "1/v + 1/u = 1/f with signed distances; for a real object beyond F the "
                  "image is real, at v = u*f/(u - f) in front of the mirror", "mirror formula", "real image"),
    ],
    steps=[
        compute("f", "Rc/2", "cm", "focal length"),
        compute("v", "u*f/(u - f)", "cm", "image distance", why="from 1/v + 1/u = 1/f with magnitudes"),
    ],
    require=["u > 1.2*f", "u < 5*Rc"],
    typical_errors=[distractor("took the focal length equal to the radius of curvature", f="Rc")],
))

register_family(Family(
    name="critical_angle_glass_liquid",
    domain=D,
    question=("Light travels at {vg} in a glass block that is immersed in a liquid of refractive index "
              "{n2}. Taking c = {c}, find the critical angle for light going from the glass into the liquid."),
    givens=[
        given("vg", between(1.58e8, 2.10e8), "m/s", "speed of light in the glass", sig=3),
        given("n2", between(1.00, 1.50), "", "refractive index of the liquid", sig=3),
        const("c", 3e8, "m/s", "speed of light in vacuum"),
    ],
    find=("thc", "the critical angle at the glass-liquid interface"),
    principles=[
        principle("Refractive index", "n = c/v, the ratio of the speed of light in vacuum to that in the "
                  "medium", "refractive index", "speed of light"),
        principle("Snell's law and total internal reflection", "n1*sin(theta1) = n2*sin(theta2); the "
                  "critical angle has theta2 = 90 deg, so sin(theta_c) = n2/n1", "Snell", "critical angle",
                  "total internal reflection"),
    ],
    steps=[
        compute("n1", "c/vg", "", "refractive index of the glass"),
        compute("thc", "asin(n2/n1)", "deg", "critical angle", why="from n1*sin(thc) = n2*sin(90 deg)"),
    ],
    require=["n2 < 0.95*n1"],
    typical_errors=[distractor("used the glass-air critical angle, ignoring the liquid", thc="asin(1/n1)")],
))

register_family(Family(
    name="thin_film_reflected_wavelength",
    domain=D,
    question=("A soap film of thickness {t} and refractive index {n} is surrounded by air and illuminated "
              "by white light at normal incidence. Find the longest wavelength that is strongly reflected."),
    givens=[
        given("t", between(77.0, 125), "nm", "thickness of the film", sig=3),
        given("n", between(1.30, 1.50), "", "refractive index of the film", sig=3),
    ],
    find=("lam", "the longest strongly reflected wavelength"),
    principles=[
        principle("Thin-film interference", "the two reflected rays differ in path by 2*n*t, and reflection "
                  "at the top (denser) surface adds a half-wave phase change", "thin film", "interference",
                  "phase change", "optical path"),
        principle("Condition for constructive reflection", "2*n*t = (m + 1/2)*lambda; the longest "
                  "wavelength has m = 0", "constructive", "order"),
    ],
    steps=[
        compute("delta", "2*n*t", "nm", "optical path difference"),
        compute("lam", "2*delta", "nm", "longest strongly reflected wavelength",
                why="from delta = lam/2 (m = 0)"),
    ],
    typical_errors=[distractor("forgot the half-wave phase change on reflection", lam="delta")],
))

register_family(Family(
    name="young_double_slit_in_liquid",
    domain=D,
    question=("In a Young's double-slit experiment the slits are {d} apart and the screen is {Dsc} away; "
              "light of vacuum wavelength {lam} is used. The whole apparatus is immersed in a liquid of "
              "refractive index {n}. Find the fringe width on the screen."),
    givens=[
        given("d", between(0.10, 1.00), "mm", "slit separation", sig=2),
        given("Dsc", between(0.50, 2.50), "m", "slit-to-screen distance", sig=3),
        given("lam", between(400, 700), "nm", "vacuum wavelength", sig=3),
        given("n", between(1.20, 1.60), "", "refractive index of the liquid", sig=3),
    ],
    find=("beta", "the fringe width"),
    principles=[
        principle("Wavelength in a medium", "the frequency is unchanged, so lambda_medium = lambda/n",
                  "wavelength", "refractive index", "medium"),
        principle("Young's double-slit fringes", "bright fringes are spaced beta = lambda*D/d",
                  "double slit", "fringe width", "interference"),
    ],
    steps=[
        compute("lamm", "lam/n", "nm", "wavelength in the liquid"),
        compute("beta", "lamm*Dsc/d", "mm", "fringe width"),
    ],
    typical_errors=[distractor("multiplied the wavelength by n in the medium", lamm="lam*n")],
))

register_family(Family(
    name="diffraction_grating_angle",
    domain=D,
    question=("Monochromatic light of wavelength {lam} falls normally on a diffraction grating whose line "
              "density is {N}. At what angle from the normal is the principal maximum of order {m} seen?"),
    givens=[
        given("lam", between(400, 700), "nm", "wavelength", sig=3),
        given("N", between(100, 800), "mm^-1", "number of lines per unit length", sig=3),
        given("m", choice(1, 2, 3), "", "order of the maximum", sig=None),
    ],
    find=("theta", "the angle of the maximum from the normal"),
    principles=[
        principle("Grating spacing", "adjacent slits are d = 1/N apart", "grating", "spacing"),
        principle("Grating equation", "principal maxima satisfy d*sin(theta) = m*lambda", "grating equation",
                  "diffraction", "order"),
    ],
    steps=[
        compute("d", "1/N", "um", "grating spacing"),
        compute("theta", "asin(m*lam/d)", "deg", "angle of the maximum", why="from d*sin(theta) = m*lam"),
    ],
    require=["m*lam < 0.95*d"],
    typical_errors=[distractor("used the small-angle approximation theta = m*lambda/d", theta="m*lam/d")],
))

register_family(Family(
    name="sound_intensity_level",
    domain=D,
    question=("A small source radiates sound uniformly in all directions with an acoustic power of {P}. "
              "Taking the reference intensity as {I0}, find the sound intensity level at a distance of {r} "
              "from the source (in decibels)."),
    givens=[
        given("P", between(0.010, 5.0), "W", "acoustic power of the source", sig=2),
        given("r", between(2.0, 200), "m", "distance from the source", sig=3),
        const("I0", 1e-12, "W/m^2", "reference intensity"),
    ],
    find=("beta", "the sound intensity level in dB"),
    principles=[
        principle("Inverse-square law", "the power spreads over a sphere, so the intensity is P/(4*pi*r^2)",
                  "inverse square", "intensity", "spherical wave"),
        principle("Sound intensity level", "beta = 10*log10(I/I0) decibels", "decibel", "intensity level",
                  "logarithm"),
    ],
    steps=[
        compute("Int", "P/(4*pi*r^2)", "W/m^2", "intensity at the listener", sig=3),
        compute("beta", "10*log(Int/I0)/log(10)", "", "sound intensity level in dB", sig=3),
    ],
    typical_errors=[distractor("used the hemisphere area 2*pi*r^2", Int="P/(2*pi*r^2)")],
))
