"""Mechanics families (domain "Mechanics"); also the worked examples for writing a family.

Each family is one `register_family(Family(...))` declaration; see the package docstring for the rules.
"""

from __future__ import annotations

from physr3.synth import Family, between, compute, const, distractor, given, principle, register_family

register_family(Family(
    name="projectile_range",
    domain="Mechanics",
    question=("A ball is projected from level ground with a speed of {v0} at an angle of {theta} above the "
              "horizontal. Neglect air resistance and take g = {g}. How far from the launch point does the "
              "ball land?"),
    givens=[
        given("v0", between(5.0, 45.0), "m/s", "launch speed", sig=3),
        given("theta", between(15, 75, step=5), "deg", "launch angle above the horizontal", sig=2),
        const("g", 9.8, "m/s^2", "gravitational acceleration"),
    ],
    find=("R", "the horizontal range of the ball"),
    principles=[
        principle("Projectile motion", "the horizontal velocity component is constant and the vertical "
                  "motion has constant acceleration g downward; the ball lands when its height returns to "
                  "zero", "projectile", "horizontal", "vertical", "constant acceleration"),
    ],
    steps=[
        compute("vx", "v0*cos(theta)", "m/s", "horizontal velocity component"),
        compute("vy", "v0*sin(theta)", "m/s", "initial vertical velocity component"),
        compute("T", "2*vy/g", "s", "time of flight", why="from 0 = vy*T - g*T^2/2"),
        compute("R", "vx*T", "m", "horizontal range"),
    ],
))

register_family(Family(
    name="atwood_tension",
    domain="Mechanics",
    question=("Two blocks of masses {m1} and {m2} are connected by a light inextensible string passing over "
              "a light frictionless pulley and released from rest. Taking g = {g}, what is the tension in "
              "the string?"),
    givens=[
        given("m1", between(2.0, 9.0), "kg", "mass of the heavier block", sig=3),
        given("m2", between(0.5, 6.0), "kg", "mass of the lighter block", sig=3),
        const("g", 9.8, "m/s^2", "gravitational acceleration"),
    ],
    find=("T", "the tension in the string"),
    principles=[
        principle("Newton's second law", "applied to each block separately; the string is light and "
                  "inextensible, so both blocks share one acceleration a and one tension T",
                  "newton", "second law", "tension", "acceleration"),
    ],
    steps=[
        compute("a", "(m1 - m2)*g/(m1 + m2)", "m/s^2", "acceleration of the blocks",
                why="adding m1*g - T = m1*a and T - m2*g = m2*a"),
        compute("T", "m2*(g + a)", "N", "tension in the string", why="from T - m2*g = m2*a"),
    ],
    distractors=[
        distractor("sign convention flipped for the lighter block", T="m2*(g - a)"),
        distractor("ignored the acceleration (static tension)", T="m2*g"),
        distractor("used only the heavier mass in Newton's law", a="(m1 - m2)*g/m1"),
        distractor("used the heavier block's weight as the tension", T="m1*g"),
    ],
    require=["m1 > 1.2*m2"],
))

register_family(Family(
    name="incline_friction_speed",
    domain="Mechanics",
    question=("A block of mass {m} is released from rest and slides {d} down a rough plane inclined at "
              "{theta} to the horizontal. The coefficient of kinetic friction is {mu}. Taking g = {g}, "
              "find the speed of the block after sliding this distance."),
    givens=[
        given("m", between(0.5, 10.0), "kg", "mass of the block", sig=2),
        given("d", between(1.0, 12.0), "m", "distance slid along the incline", sig=2),
        given("theta", between(20, 60, step=5), "deg", "angle of the incline", sig=2),
        given("mu", between(0.10, 0.50), "", "coefficient of kinetic friction", sig=2),
        const("g", 9.8, "m/s^2", "gravitational acceleration"),
    ],
    find=("v", "the speed of the block after sliding the distance d"),
    principles=[
        principle("Work-energy theorem", "the change in kinetic energy equals the work done by gravity "
                  "minus the work done against kinetic friction", "work-energy", "kinetic energy", "work"),
        principle("Kinetic friction", "the friction force is mu times the normal force m*g*cos(theta)",
                  "friction", "normal force"),
    ],
    steps=[
        compute("h", "d*sin(theta)", "m", "height descended"),
        compute("Wg", "m*g*h", "J", "work done by gravity"),
        compute("Wf", "mu*m*g*cos(theta)*d", "J", "work done against friction"),
        compute("v", "sqrt(2*(Wg - Wf)/m)", "m/s", "final speed", why="from m*v^2/2 = Wg - Wf"),
    ],
    require=["mu < 0.8*tan(theta)"],
))
