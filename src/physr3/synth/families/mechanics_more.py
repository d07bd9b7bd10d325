"""More Mechanics families (domain "Mechanics"): projectiles with energy, connected bodies with friction,
collisions, circular motion, springs, rolling, statics and orbits. Four of the ten are 4-option MCQ whose
distractors are typical errors.

Each family is one `register_family(Family(...))` declaration; see the package docstring for the rules.
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

MECH = "Mechanics"
G_ACC = const("g", 9.8, "m/s^2", "gravitational acceleration")
ENERGY = principle("Conservation of mechanical energy", "with no non-conservative work, kinetic plus potential "
                   "energy is the same at every point", "conservation of energy", "kinetic energy",
                   "potential energy")

register_family(Family(
    name="cliff_projectile_impact_angle",
    domain=MECH,
    question=("A stone is thrown from the edge of a cliff {H} high with a speed of {v0} at an angle of {theta} "
              "above the horizontal. Neglect air resistance and take g = {g}. At what angle below the horizontal "
              "does the stone strike the level ground at the foot of the cliff?"),
    givens=[
        given("H", between(10.0, 120.0), "m", "height of the cliff", sig=3),
        given("v0", between(5.0, 30.0), "m/s", "launch speed", sig=3),
        given("theta", between(10, 60, step=5), "deg", "launch angle above the horizontal", sig=2),
        G_ACC,
    ],
    find=("phi", "the angle of the velocity below the horizontal at impact"),
    principles=[
        ENERGY,
        principle("Projectile motion", "the horizontal velocity component stays v0*cos(theta) throughout the "
                  "flight", "projectile", "horizontal component", "constant"),
    ],
    steps=[
        compute("v", "sqrt(v0^2 + 2*g*H)", "m/s", "impact speed", why="from m*v^2/2 = m*v0^2/2 + m*g*H"),
        compute("vx", "v0*cos(theta)", "m/s", "horizontal velocity component"),
        compute("phi", "acos(vx/v)", "deg", "angle of the velocity below the horizontal at impact",
                why="cos(phi) = vx/v"),
    ],
    typical_errors=[
        distractor("forgot the speed gained in falling the cliff height", v="v0"),
    ],
))

register_family(Family(
    name="table_pulley_friction_tension",
    domain=MECH,
    question=("A block of mass {m1} lies on a rough horizontal table (coefficient of kinetic friction {mu}). A "
              "light string tied to it passes over a light frictionless pulley at the edge of the table and "
              "carries a hanging block of mass {m2}. The system is released from rest. Taking g = {g}, find "
              "the tension in the string while the blocks move."),
    givens=[
        given("m1", between(1.0, 10.0), "kg", "mass of the block on the table", sig=3),
        given("m2", between(0.5, 8.0), "kg", "mass of the hanging block", sig=3),
        given("mu", between(0.10, 0.50), "", "coefficient of kinetic friction", sig=2),
        G_ACC,
    ],
    find=("T", "the tension in the string"),
    principles=[
        principle("Newton's second law", "applied to each block; the light inextensible string gives both "
                  "blocks one acceleration a and one tension T", "newton", "second law", "tension"),
        principle("Kinetic friction", "the friction on the table block is mu*m1*g, opposing its motion",
                  "friction", "normal force"),
    ],
    steps=[
        compute("f", "mu*m1*g", "N", "kinetic friction on the block on the table"),
        compute("a", "(m2*g - f)/(m1 + m2)", "m/s^2", "acceleration of the blocks",
                why="adding T - f = m1*a and m2*g - T = m2*a"),
        compute("T", "m2*(g - a)", "N", "tension in the string", why="from m2*g - T = m2*a"),
    ],
    distractors=[
        distractor("ignored friction on the table", a="m2*g/(m1 + m2)"),
        distractor("took the tension equal to the hanging weight (static)", T="m2*g"),
        distractor("used the hanging mass in the friction force", f="mu*m2*g"),
        distractor("sign error in the hanging block's equation", T="m2*(g + a)"),
    ],
    require=["m2 > 1.3*mu*m1"],
))

register_family(Family(
    name="elastic_collision_head_on",
    domain=MECH,
    question=("A ball of mass {m1} moving at {u1} collides head-on and perfectly elastically with a ball of mass "
              "{m2} moving at {u2} in the opposite direction. Taking the first ball's original direction of "
              "motion as positive, find the velocity of the second ball after the collision."),
    givens=[
        given("m1", between(0.2, 5.0), "kg", "mass of the first ball", sig=3),
        given("u1", between(2.0, 15.0), "m/s", "initial speed of the first ball", sig=3),
        given("m2", between(0.2, 5.0), "kg", "mass of the second ball", sig=3),
        given("u2", between(1.0, 10.0), "m/s", "initial speed of the second ball, moving the opposite way", sig=2),
    ],
    find=("v2", "the velocity of the second ball after the collision"),
    principles=[
        principle("Conservation of momentum", "no external horizontal force acts, so the total momentum and the "
                  "centre-of-mass velocity are unchanged by the collision", "momentum", "centre of mass"),
        principle("Elastic collision", "kinetic energy is conserved, so in the centre-of-mass frame each "
                  "velocity simply reverses: v = 2*vcm - u", "elastic", "kinetic energy", "reverses"),
    ],
    steps=[
        compute("vcm", "(m1*u1 - m2*u2)/(m1 + m2)", "m/s", "velocity of the centre of mass"),
        compute("v2", "2*vcm + u2", "m/s", "velocity of the second ball after the collision",
                why="in the centre-of-mass frame the velocity reverses: v2 - vcm = vcm - (-u2)"),
    ],
    typical_errors=[
        distractor("treated the collision as perfectly inelastic (common velocity)", v2="vcm"),
        distractor("ignored that the second ball moves the opposite way", vcm="(m1*u1 + m2*u2)/(m1 + m2)"),
    ],
    require=["v2 > 0.1*u1"],
))

register_family(Family(
    name="trolleys_stick_energy_loss",
    domain=MECH,
    question=("A trolley of mass {m1} moving at {u1} on a smooth straight track runs into a trolley of mass "
              "{m2} moving at {u2} in the same direction. They couple together and move on as one. How much "
              "kinetic energy is lost in the collision?"),
    givens=[
        given("m1", between(1.0, 10.0), "kg", "mass of the faster trolley", sig=3),
        given("u1", between(3.0, 12.0), "m/s", "initial speed of the faster trolley", sig=3),
        given("m2", between(1.0, 10.0), "kg", "mass of the slower trolley", sig=3),
        given("u2", between(0.5, 8.0), "m/s", "initial speed of the slower trolley", sig=2),
    ],
    find=("dK", "the kinetic energy lost in the collision"),
    principles=[
        principle("Conservation of momentum", "the track is smooth, so total momentum before the collision "
                  "equals that of the coupled trolleys after it", "momentum", "conservation"),
        principle("Perfectly inelastic collision", "kinetic energy is not conserved; the loss is the initial "
                  "minus the final kinetic energy", "inelastic", "kinetic energy", "loss"),
    ],
    steps=[
        compute("v", "(m1*u1 + m2*u2)/(m1 + m2)", "m/s", "common velocity after the collision"),
        compute("Ki", "m1*u1^2/2 + m2*u2^2/2", "J", "total kinetic energy before the collision"),
        compute("Kf", "(m1 + m2)*v^2/2", "J", "kinetic energy after the collision"),
        compute("dK", "Ki - Kf", "J", "kinetic energy lost"),
    ],
    distractors=[
        distractor("reported the final kinetic energy instead of the loss", dK="Kf"),
        distractor("treated the trolleys as moving towards each other", v="(m1*u1 - m2*u2)/(m1 + m2)"),
        distractor("counted only the kinetic energy lost by the faster trolley", dK="m1*(u1^2 - v^2)/2"),
        distractor("forgot the factor 1/2 in kinetic energy", Ki="m1*u1^2 + m2*u2^2", Kf="(m1 + m2)*v^2"),
    ],
    require=["u1 > 1.5*u2"],
))

register_family(Family(
    name="banked_curve_max_speed",
    domain=MECH,
    question=("A car goes round a curve of radius {R} on a road banked at {theta} to the horizontal. The "
              "coefficient of static friction between the tyres and the road is {mu}. Taking g = {g}, find the "
              "maximum speed at which the car can take the curve without skidding."),
    givens=[
        given("R", between(30.0, 300.0), "m", "radius of the curve", sig=3),
        given("theta", between(5, 30, step=1), "deg", "banking angle", sig=2),
        given("mu", between(0.10, 0.60), "", "coefficient of static friction", sig=2),
        G_ACC,
    ],
    find=("v", "the maximum speed on the curve"),
    principles=[
        principle("Uniform circular motion", "the net horizontal force on the car is the centripetal force "
                  "m*v^2/R towards the centre", "centripetal", "circular motion"),
        principle("Limiting static friction", "at the maximum speed friction acts down the slope with its "
                  "limiting value mu*N; vertically N*cos(theta) - mu*N*sin(theta) = m*g",
                  "friction", "limiting", "normal force"),
    ],
    steps=[
        compute("q", "(tan(theta) + mu)/(1 - mu*tan(theta))", "", "ratio v^2/(R*g) at the limit",
                why="dividing N*(sin(theta) + mu*cos(theta)) = m*v^2/R by N*(cos(theta) - mu*sin(theta)) = m*g"),
        compute("v", "sqrt(R*g*q)", "m/s", "maximum speed"),
    ],
    distractors=[
        distractor("ignored friction (used the design speed of the banking)", q="tan(theta)"),
        distractor("took friction up the slope (gives the minimum speed)", q="(tan(theta) - mu)/(1 + mu*tan(theta))"),
        distractor("dropped the friction term in the vertical balance", q="tan(theta) + mu"),
        distractor("used the level-road formula v^2 = mu*R*g", q="mu"),
    ],
    require=["mu*tan(theta) < 0.5"],
))

register_family(Family(
    name="vertical_circle_top_tension",
    domain=MECH,
    question=("A small ball of mass {m} tied to a light string of length {L} is whirled in a vertical circle. "
              "Its speed at the lowest point is {u}. Taking g = {g}, find the tension in the string when the "
              "ball is at the highest point of the circle."),
    givens=[
        given("m", between(0.10, 2.0), "kg", "mass of the ball", sig=2),
        given("L", between(0.30, 2.0), "m", "length of the string", sig=2),
        given("u", between(4.0, 15.0), "m/s", "speed at the lowest point", sig=3),
        G_ACC,
    ],
    find=("T", "the tension at the highest point"),
    principles=[
        ENERGY,
        principle("Circular motion", "at the top, tension and weight both point to the centre and together "
                  "supply the centripetal force m*v^2/L", "centripetal", "circular motion", "tension"),
    ],
    steps=[
        compute("vt", "sqrt(u^2 - 4*g*L)", "m/s", "speed at the highest point",
                why="from m*u^2/2 = m*vt^2/2 + m*g*2*L"),
        compute("T", "m*vt^2/L - m*g", "N", "tension at the highest point", why="from T + m*g = m*vt^2/L"),
    ],
    typical_errors=[
        distractor("took the weight as opposing the tension at the top", T="m*vt^2/L + m*g"),
        distractor("used a height rise of L instead of 2*L", vt="sqrt(u^2 - 2*g*L)"),
    ],
    require=["u^2 > 5.5*g*L", "u^2 < 9*g*L"],
))

register_family(Family(
    name="spring_friction_compression",
    domain=MECH,
    question=("A block of mass {m} slides with a speed of {v} along a rough horizontal floor (coefficient of "
              "kinetic friction {mu}) and runs into a light horizontal spring of force constant {k}. Taking "
              "g = {g}, find the maximum compression of the spring."),
    givens=[
        given("m", between(0.5, 5.0), "kg", "mass of the block", sig=2),
        given("v", between(1.0, 8.0), "m/s", "speed of the block on reaching the spring", sig=3),
        given("mu", between(0.10, 0.50), "", "coefficient of kinetic friction", sig=2),
        given("k", between(100.0, 2000.0), "N/m", "force constant of the spring", sig=3),
        G_ACC,
    ],
    find=("x", "the maximum compression of the spring"),
    principles=[
        principle("Work-energy theorem", "the block's kinetic energy goes into spring potential energy "
                  "k*x^2/2 and work against friction f*x while the spring is compressed by x",
                  "work-energy", "spring potential energy", "work"),
        principle("Kinetic friction", "the friction force is mu*m*g on a horizontal floor", "friction"),
    ],
    steps=[
        compute("f", "mu*m*g", "N", "kinetic friction force"),
        compute("K", "m*v^2/2", "J", "kinetic energy on reaching the spring"),
        compute("x", "(sqrt(f^2 + 2*k*K) - f)/k", "m", "maximum compression",
                why="positive root of k*x^2/2 + f*x = K"),
    ],
    typical_errors=[
        distractor("ignored friction during the compression", x="sqrt(2*K/k)"),
        distractor("forgot the factor 1/2 in the spring energy", x="(sqrt(f^2 + 4*k*K) - f)/(2*k)"),
    ],
))

register_family(Family(
    name="rolling_incline_time",
    domain=MECH,
    question=("A round rigid body whose moment of inertia about its central axis is I = {k} M R^2 is released "
              "from rest and rolls without slipping a distance {d} down a plane inclined at {theta} to the "
              "horizontal. Taking g = {g}, how long does it take to roll this distance?"),
    givens=[
        given("k", choice(0.4, 0.5, 1.0), "", "ratio I/(M*R^2) of the body", sig=None),
        given("d", between(0.50, 10.0), "m", "distance rolled along the incline", sig=3),
        given("theta", between(10, 50, step=5), "deg", "angle of the incline", sig=2),
        G_ACC,
    ],
    find=("t", "the time taken to roll the distance d"),
    principles=[
        principle("Conservation of energy in rolling", "rolling without slipping does no work against friction; "
                  "the kinetic energy M*v^2/2 + I*w^2/2 with w = v/R equals (1 + k)*M*v^2/2",
                  "rolling", "rotational kinetic energy", "moment of inertia", "conservation of energy"),
        principle("Uniform acceleration", "the acceleration along the incline is constant, so the average "
                  "speed is v/2 and t = 2*d/v", "constant acceleration", "kinematics"),
    ],
    steps=[
        compute("h", "d*sin(theta)", "m", "height descended"),
        compute("v", "sqrt(2*g*h/(1 + k))", "m/s", "speed after rolling the distance d",
                why="from M*g*h = (1 + k)*M*v^2/2"),
        compute("t", "2*d/v", "s", "time taken", why="d = (0 + v)*t/2"),
    ],
    typical_errors=[
        distractor("ignored the rotational kinetic energy", v="sqrt(2*g*h)"),
        distractor("took the final speed as the average speed", t="d/v"),
    ],
))

register_family(Family(
    name="beam_cable_tension",
    domain=MECH,
    question=("A uniform horizontal beam of length {L} and mass {M} is hinged to a wall at one end and held "
              "horizontal by a cable attached to its other end; the cable makes an angle of {theta} with the "
              "beam. A load of mass {m} hangs from the beam at a distance {x} from the hinge. Taking g = {g}, "
              "find the tension in the cable."),
    givens=[
        given("L", between(2.0, 6.0), "m", "length of the beam", sig=3),
        given("M", between(5.0, 50.0), "kg", "mass of the beam", sig=2),
        given("theta", between(20, 70, step=5), "deg", "angle between the cable and the beam", sig=2),
        given("m", between(5.0, 80.0), "kg", "mass of the load", sig=2),
        given("x", between(0.5, 6.0), "m", "distance of the load from the hinge", sig=2),
        G_ACC,
    ],
    find=("T", "the tension in the cable"),
    principles=[
        principle("Rotational equilibrium", "the net torque about the hinge is zero, which removes the unknown "
                  "hinge force", "torque", "equilibrium", "moments"),
        principle("Centre of gravity", "the weight of a uniform beam acts at its midpoint", "centre of gravity",
                  "uniform"),
    ],
    steps=[
        compute("tau", "g*(M*L/2 + m*x)", "N*m", "clockwise torque of the weights about the hinge"),
        compute("T", "tau/(L*sin(theta))", "N", "tension in the cable", why="from T*L*sin(theta) = tau"),
    ],
    distractors=[
        distractor("used cos instead of sin for the perpendicular component", T="tau/(L*cos(theta))"),
        distractor("ignored the beam's own weight", tau="g*m*x"),
        distractor("took the beam's weight as acting at its far end", tau="g*(M*L + m*x)"),
        distractor("forgot to resolve the tension perpendicular to the beam", T="tau/L"),
    ],
    require=["x < 0.95*L"],
))

register_family(Family(
    name="satellite_escape_energy",
    domain=MECH,
    question=("A satellite of mass {m} moves in a circular orbit at a height of {h} above the Earth's surface. "
              "Taking G = {G}, the Earth's mass as {M} and its radius as {R}, find the minimum additional energy "
              "that must be given to the satellite for it to escape from the Earth's gravity."),
    givens=[
        given("m", between(100.0, 2000.0), "kg", "mass of the satellite", sig=3),
        given("h", between(200.0, 2000.0), "km", "height of the orbit above the surface", sig=3),
        const("G", 6.67e-11, "N*m^2/kg^2", "gravitational constant"),
        const("M", 5.97e24, "kg", "mass of the Earth"),
        const("R", 6370, "km", "radius of the Earth"),
    ],
    find=("W", "the minimum additional energy needed to escape"),
    principles=[
        principle("Newton's law of gravitation", "the gravitational pull G*M*m/r^2 supplies the centripetal "
                  "force m*v^2/r, where r is measured from the Earth's centre", "gravitation", "centripetal",
                  "orbital radius"),
        principle("Energy of a bound orbit", "the potential energy is -G*M*m/r and the total energy K + U is "
                  "negative; to escape, the total energy must be raised to zero", "potential energy",
                  "total energy", "escape"),
    ],
    steps=[
        compute("r", "R + h", "km", "orbital radius from the Earth's centre"),
        compute("K", "G*M*m/(2*r)", "GJ", "kinetic energy in orbit", why="from m*v^2/r = G*M*m/r^2"),
        compute("U", "-(G*M*m/r)", "GJ", "gravitational potential energy in orbit"),
        compute("Etot", "K + U", "GJ", "total energy in orbit"),
        compute("W", "-Etot", "GJ", "minimum additional energy to escape", why="raises the total energy to zero"),
    ],
    typical_errors=[
        distractor("used the height above the surface as the orbital radius", r="h"),
        distractor("ignored the orbital kinetic energy (escape from rest at that radius)", Etot="U"),
    ],
))
