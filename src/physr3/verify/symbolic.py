"""The offline symbolic verifier: the first wrong step of a model's solution, against step-level ground truth.

`SymbolicVerifier().verify(problem, solution) -> Verdict` needs `problem.ground_truth` in the generator's
schema (`physr3.synth.gt/1`, see `physr3.synth.groundtruth`); it reads the model's steps with
`physr3.solution.parse_solution` and their maths with `physr3.quantity.expr` (no eval, no sympify of
model text). It checks every step in the order written and returns the first that fails, by the model's
own step number, with error type MC | CM | CE and a one-sentence explanation of what is wrong and what
was expected. A solution whose written steps all pass is error-free only when it is also complete (the
target identified, the reasoning reaching its value, the final answer present and right: see
"Completeness"); a truncated or off-topic solution never gets error_step 0. Registered as `"symbolic"` in
`physr3.verify.registry`. Modules: `symbolic_gt` (the ground truth as evaluable instances),
`symbolic_checks` (the per-step checks and `Tolerances`), this one (the walk over steps, blame, final
answer, verdicts).

How a step is read. Parenthesised remarks (holding `=`, or starting with a word and holding two:
"(mass of the block)", "(from F = m a)", "(in N)") are dropped; the rest is split into clauses at `;`, `⇒`, ", so", " and ", " where ", " with ", ...; a
clause with `=` is a chain `lhs = s1 = s2 ...`. The lhs is the longest expression ending the text before
the first `=` (so "The height is h = 4.93 m" reads h); each later segment is the longest expression at
its start (trailing prose is ignored). Ambiguous names right after a number (`2 m`, `0.42 T`) are read
both as units and as variables, and a check passes when either reading passes. Unparseable or
unevaluable segments (unknown names) are skipped, never failed.

What is checked, and the type of a failure:
- Section of a step. Read tolerantly (`section_tags`): a step is in the section whose opening tag came last
  before it (`<tag` without `>` counts) until that section closes, so an unclosed `<given>` does not
  swallow the sections after it and tags out of order still say where a step is. Compliance is not
  required (structure is scored separately); steps are checked whatever the tags.
- Given position. Steps in <given>, and untagged steps at the start (before any step that is not a given
  statement) that read as givens (`x = <number [unit]>` clauses, or only symbol names, or numbers with
  units), are checked as given statements.
- Givens (MC). A clause `x = <number [unit]>` where x is a given of the problem (by name, `v_0`/`v0`,
  `θ`/`theta`, case variants when unique) must state the problem's value, pint-converted (`4210 g` for
  4.21 kg, `0.611 rad` for 35 deg). A sampled given must agree to the precision the problem states it
  with (within half a unit of its last stated digit: for 4.21 kg, `4.21`, `4.210`, `4210 g` pass and
  `4.22`, `4.2` fail); a fixed constant (g, k, e, ...) within `given_rel` (0.5%: `9.81` for 9.8
  passes). A value equal to another given's value is reported as a swap. Order does not matter; givens
  stated under other names (`u = 43.1 m/s` for v0) are matched by value and the name is remembered.
  The unit kind counts as much as the value: a value written with a unit must have the quantity's
  dimension (`m = 22.5 g/mol` or `22.5 g/s` for a mass of 22.5 g is MC, although its SI magnitude is
  the mass's), for a given named, a given matched by value and a value accepted as implied alike. The
  description counts too: a given step that states one quantity and describes it in words ("Acoustic
  power: 1e-12 W/m^2", "d = 3.6 m (distance from the source)") must state the value of the given its
  words describe (`_Checker.described`: the quantity whose description's word stems the step covers
  best, at least half of them; no unique best, no judgement), else MC; in a prose step with several
  numbers each is described by the words since the previous one. A given named by its own symbol is
  judged by that symbol. What a small model writes into <given> besides (from labelled real solutions, all MC): a quantity
  to be found named by its symbol (`T = 14.1 N`, an option's value) or described in words ("The tension
  in the string is 6.28 m/s", "energy: kinetic energy: Joules"), unless it holds a given's value (then
  the symbol is the solution's name for that given: `v2 = 4.7 m/s` for u2, and a <find> asking for v2
  asks for a given) or its own right value (a derived value stated early); the answer's value under
  any name; a given's value stated again with new words ("refractive index correction (n_ref) = 1.04"
  after "refractive index (n) = 1.04"; a new name without new words, `d_s = 30.0 cm`, is a relabelling
  and passes); a new name that is a conventional letter (t a time, m a mass, v a speed, F a force) for
  a value of another kind (`t = 3.8 km`). Physical constants and sums of givens are accepted only in
  their own unit kind (1000 kg/m^3, not 1000 J), and a single stated value without rounding spread.
  A stated given that matches no quantity of the problem, neither by name nor by value (`m = 2.0 kg` in
  a problem with no m and no 2.0 kg), is an MC error at that step. Accepted without a name match: zero;
  physical constants (`CONSTANTS_SI` within 1%: g = 9.81, R = 8.314, c, h, e, k, G, N_A, m_e, ...; bare
  13.6, 1240, 931.5, 1.00); 90/180 degrees; a number written in the question (SI for one with a unit);
  the value of any quantity of the ground truth within `value_rel` (a derived value stated in <given>
  that equals a correct intermediate); a sum or difference of two givens of one unit (total mass).
  A given line without `=`: names without values ("Step 1: m", "m1, m2") pass when each is a given of
  the problem (any quantity of it, for an untagged line) or a constant's usual name, else MC; numbers
  with a unit or a decimal point in it ("Mass: 2.0 kg") must be quantities as above, else MC; plain
  prose is not judged.
  A given's meaning, matched by its words (from real SFT samples): a right
  value whose own words (not its symbol, units or numbers) share no word stem with what it is in the
  problem is the wrong quantity (`h = 6.63e-34 J*s (wavevector of the photon)`, "385 mm^-1, which is the
  refractive index": MC); one shared stem is enough ("thick wall" for the thickness of the first layer
  wins over a description-only match to the area of the wall). The problem's letter holding another
  given's value, with words describing that given (`m = 4 g/mol (molar mass)`), is the solution's name
  for it. A symbol glued to its decimal value (`v1.89 m/s: speed ...`) reads as `v = 1.89 m/s`; a step
  whose content is on the lines below its "Step k:" marker is judged by that content.
- Target (MC). A <find> step passes when the first computed quantity it names (as a symbol standing
  alone, not inside a formula such as "v^2/(R*g)") is the asked one, or, naming none, when it holds a
  content word of the target's description or a unit of its dimension ("(in N)"); it fails when it
  names another quantity first (or gives a unit of another dimension) and no <find> step names the
  target. A <find> section in which no step names the target (only givens, "m1 = 7.31 kg", an invented
  quantity, nothing) fails at its first step; it is judged when the first <find> step is reached, with
  the names the solution has given by then. `target = <expression>` names the target, and the equation
  is checked like any other (CM when wrong); the target given a bare value ("Q: 25 C") is listed as if
  it were given (MC). Once the target is named, a further <find> step "NAME (words)" whose name is no
  symbol of the problem and whose words describe none of its quantities asks for an invented one (MC).
- Empty steps. A step with nothing but tags or punctuation ("Step 1: <given>", a last "Step 30:" cut
  off) is an error, typed by its section (MC before any given is stated, else CE when untagged).
- Principle (CM). Lenient: a <concept> step fails only when it matches none of the ground-truth
  principles (a keyword or the name, compared as 5-letter word stems in any order: "laws of Newton"
  matches "Newton's law", "charges conserved" matches "conservation of charge"; or a formula of the
  principle written out, "Q = C*V" for "Q = CV") while some principle is matched by no step. A concept
  step that only restates values ("v = 367 V") is not judged as a principle.
- Equations (CM). A clause without substituted numbers (only symbols, small integers, simple fractions,
  pi) must hold as an identity: both sides are evaluated at the instance's true values and at two
  instances re-solved from perturbed givens (0.8-1.25x; fixed constants are not perturbed), and must
  agree to `identity_rel` (1e-6) of the largest term. This decides sympy-style equivalence for every
  rearrangement (`a = F/m`, `F = m a`, `m1 g - T = m1 a`) without simplify/solve, which can hang.
  A new symbol defined by the solution (`N = m g cos θ`) is remembered and used later (a symbol defined
  by a rounded number makes the identities that use it hold to `value_rel` at the true values only);
  one that equals a known quantity becomes an alias for it. Of several readings of a segment, those
  whose dimensions fit the lhs are used (`9.8 m/s^2`: m the metre; `2 g L`: g the variable).
  A new symbol's definition must be dimensionally consistent when every symbol in it has a known
  dimension (`F = m1 + g` is CM). An equation that uses a symbol not yet defined (`T = m2 x`) is kept
  and checked when a later step defines that symbol (`x = g + a`); when it fails then, the error is CM
  at the step that wrote it. `q(t) = ...` defines q (function notation, not q*t).
- <concept> steps. Equations in them are checked like governing equations where that is safe: `x =
  <symbolic expression>` with x one quantity; names are read strictly there (`E` is not the charge `e`,
  `D` not `d`), values ("with Q = 0" for an adiabatic stage) and relations between expressions ("1/v -
  1/u = 1/f", which carry a sign convention) are not judged, so the ground truth's own concept lines pass.
- Prose relations. A claim in words in any step but <given>/<find>, "<words describing one quantity>
  is|equals|becomes <maths>" ("the length of the pipe is L/2", "the tension is m2 g"), is checked as the
  equation `L = L/2`; maths that goes on in words ("stress times area") or words ("the same") are not read.
- Substitutions and values (CE). A clause with numbers is evaluated once, at the true values, in SI (pint
  factors), and must match its lhs within `value_rel` (2%; the brief's 1-2% for rounded intermediates).
  Bare numbers are tried as SI, as the lhs's display unit (for a bare result), as the unit of a given
  with that stated magnitude, and with bare trig arguments in degrees or radians; any match passes.
  Rounded intermediates plugged in widen the tolerance by the rounding they carry (each literal that is
  not a stated given moved by half a unit of its last digit), so `1042 MeV - 1032 MeV` is not a slip.
  Wrong number in a substitution: MC when it is another given's value and putting the right given there
  makes the step right (the wrong quantity was read: m2 plugged in for m1); every other wrong number is
  CE (a copying or arithmetic slip; a misread of the problem shows first in <given>, which is MC).
- Letters are labels, values and words are meaning (from the labelled real solutions in benchmarks/data/real_solutions
  on dev and test). A problem's letter holding another given's value is the solution's label for that
  given when the letter is the given's own in another case (`v = 3.7 kV` for V), when the step's words
  describe that given, or when the step has no words at all (`R = 906 km` for the height h); if a later
  step then writes that given's letter with the first letter's value, the two were swapped (MC at the
  first). A letter's own value after such use is that letter's given again. Words decide: words naming
  a quantity to be found with another given's value (`f = 130 cm (image focal length)`) are MC; loose
  words that fit a given's value ("Speed of sound: 331 m/s" for v0) are that given unless they hold what
  sets the unknown apart ("temperature of the interface"); words after a bare value ("140 g: specific
  heat", "172 g (specific heat)") and a left-hand side of words ("<acoustic power> = 1e-12 W/m^2",
  "Tension (T) = 180 N") are read as its description. A <find> step that gives the target a value
  ("Sound intensity level: 37.9 W/m^2", "p = 121 W") is MC; one whose words describe another quantity
  ("Nmin = 51 neutrons") does not name the target. A given line "words (SYMBOL)" without a value whose
  symbol and words match no quantity of the problem ("refractive index (n)") is MC, and so is a name
  with digits and no value that is no given ("u0 (initial air speed)"). A constant under a name not its
  own (`T = 9.81 m/s^2`) is implied only where the problem has a quantity of its kind. A wrong relation
  for the unknown written among the givens (`Q = n*R*T` with numbers) is CM. A principle restated in
  other words (60% of its statement's content words) counts as stated.
- Round five, from the level-1 real solutions (benchmarks/data/real_solutions/level1_test.jsonl, tuning data
  since its one held-out measurement); each rule in one sentence, details in the named method:
  a given's value called a quantity of another kind by the head noun of its words ("n = 5.89 mW (the
  total energy emitted)", "n = 4.67 mol (molar mass)") is MC (`misnamed_kind`); a remark after a given
  value that is the problem's symbols or the value again ("h = 6.63e-34 J*s (h)", "T1 = 284 K (284 K)") is
  no factor (`drop_value_remark`); a given written as a function of a value ("T(299 K) = 954 K") is
  garbled, MC; a relation that does not hold written in <given> for a given ("L = L/L") is MC; a <concept>
  step headed by the name of another problem's principle (the generator's library: "Kinetic energy:" for
  a rest energy, "Refraction:" for a mirror) is CM unless that principle states this problem's formula
  (`foreign_principle`); a relation in words between quantities named by their descriptions' head nouns
  ("the charge on a capacitor is the voltage across its plates divided by the capacitance") is checked
  as the equation `Q = V / C` (`prose_word_relations`); a universal constant's own symbol set to a wrong
  value ("G = 1/6") outside <given>/<find> is CM (`wrong_constant`); a <find> step writing a value the
  problem does not give ("wavelength: 716 nm") is MC (`find_value`); the target named in <find> by its
  own letter ("I" for i_R) is read as the target in <concept> equations (`name_target`); a number with a
  unit taken from the answer options substituted into a formula is MC (`option_number`); numbers that
  read back as another formula than the one written, leaving out a quantity it needs, are CM.
- Round six, from the third round of real solutions (benchmarks/data/real_solutions/round3_test.jsonl, tuning
  data since its one held-out measurement in session 5); each rule in one sentence, details in the named
  method: words that name a unit of the value's own kind ("n = 3.42 mol (number of moles)", "(in volts)")
  are no other meaning (`meaning_words`); the problem's own words around a value (up to the next number,
  the sentence's end or an "of") are its meaning (`problem_words`); a given's right value under its own
  letter whose words cover a quantity to be found of its kind ("C2 = 17 uF (capacitance of the parallel
  combination)") is MC (`computed_meant`); a value under a new letter whose words name another given by
  more words, as written, than its own ("r = 56.7 cm (focal length of the object)") is MC (`outworded`);
  a given's letter that already holds its own value, written again with another kind's value ("C = 87
  kohm (resistor)" after "C = 9.7 uF"), is MC; a remark giving the same symbol another value ("gamma = 5/3
  (gamma = 0.5)") is MC; values on the lines below a <given> step's own line are given statements of that
  step (`given_continuations`); a lone-letter list label or a remark written twice after a value is no
  factor (`drop_value_remark`); "words (more words) = value" reads the parenthesis as a remark; a unit with
  its denominator written without parentheses ("J/mol*K") is also read grouped; a <find> step naming the
  target in a unit of another kind ("(in Hz)" for a wavelength) or with a qualifier the question lacks
  (final, minimum, maximum, average) is MC (`target_unit_failure`, `target_variant`), and one whose value
  follows a given's symbol after "at"/"when"/... ("at t = 44 ms") states a condition, not the target's
  value; a new symbol defined by a known quantity's right relation (`E_kinetic = m*v^2/2`) or renaming a
  given (`L0 = L`), and a given clause written word for word in the question ("I = 0.5 M R^2"), are
  checked steps; a given's letter holding another given's value of another kind, with that given's words
  ("v = 25 deg (angle of the magnetic field)"), is a label; the kind check (`misnamed_kind`) reads the
  clause that says what a value is ("the length of the rod is 2.2 cm^2") and each clause of a step with
  several values, and a unit's exponent is no second number; a new numbered name without words holding
  the value of the given with its letter and another index (`m_ball1` = m2's value) is a swap (MC); an
  "(in UNIT)" remark naming another unit than the value's ("40 deg (in radians)") is MC; a failing
  relation among givens only in <given> ("M/M = 40 g/mol") is MC; a prose claim whose words name a
  quantity of another kind ("the normal force on the incline is ...") is no claim about a quantity it
  shares a word with; a <find> step giving a numbered name a value, its remark naming the target ("Q1 =
  1400 J (heat rejected)"), lists the unknown as given (MC). Tried and dropped (each made a dev/test/level-1 verdict worse): a step repeating the
  one before it word for word as an error; "SYMBOL (words) in UNIT: value" read as the symbol's statement.
- Round seven, from the fourth round of real solutions (benchmarks/data/real_solutions/round4_test.jsonl, tuning
  data since session 7); each rule in one sentence, details in the named module or function: the given
  statements' letters, repeats and remarks are judged by `symbolic_givens` (a given repeated word for word, a
  letter of another kind shown up by the solution itself, a problem-defined constant's letter with another value,
  one letter for two values, a remark that is an expression of another kind, an unchecked equation of another
  dimension than its words: CM), a given's words by their embedding against the record's descriptions by
  `symbolic_meaning`; the kind check reads a value without the remark after it and takes "at constant pressure" in
  the problem as a process, not as the wording of a value (`misnamed_kind`); an "(in UNIT units)" remark of another
  kind than the value's unit, same SI factor or not, is MC (`_unit_remark_clash`); a given "t = 0 (time)" where
  the problem writes "at t = 0" restates its starting condition (`_ZERO_CONDITION`); a remark holding a given's
  formula description ("(the constant mu0/(4*pi))") is its own meaning (`foreign_words`).
- Round eight, from the fifth round of real solutions (benchmarks/data/real_solutions/round5_test.jsonl, tuning
  data since session 7): layouts of right steps are read, not blamed as unchecked (`symbolic_layouts`, each rule
  in one sentence there): a remark naming the value's own unit ("7.2 V (volt)"); "words = R1 (6.9 ohm)", "f = the
  frequency (368 Hz)"; a number-less, symbol-less sentence of the problem's own words; a stray `<find>` opened in
  `<given>`; a constant under its own letter; a heading before a given's statement; a remark with the
  description's formula; an unchecked X = X + Y is CM; a letter the problem writes with a given's value holds
  no other given (`symbolic_givens`).
- Round nine, from the sixth round of real solutions (round6_test.jsonl, tuning data since session 8): right
  steps misread are read (each rule in one sentence in `symbolic_layouts` and the named `_Checker` method): a
  letter read as a unit (`Ts = 301 K`) or written with an index (`lambda_n`) is one symbol; `sin(theta) = ...`
  is the sine; `v2^2 = ...` defines v2; a given's case variant equated to another kind (`E = h*c/lambda`) is its
  own letter; a special case of the governing relation with the right value is right (`special_case`); a concept
  equation naming one new letter in passing is checked by the letter's kind (`defines_in_passing`); `mplate =
  370 cm^2`, `v = 0.907c` are given layouts; a concept step naming the principle counts even when it reads like
  a given; a remark pairing the value with its object's other given (`paired_remark`) is no meaning of it. By cause: a wrong relation among the givens in <given>/<find> is CM (`wrong_formula`), and so is a
  bare principle that does not apply where the givens belong (`bare_foreign_principle`).
- Session 14, early verdicts of round 11 (classes A2, A10, A24, A25 of
  analysis/round11_misses_session12_verifier.md; each rule in one sentence in `symbolic_namings`): a quantity named
  without a value among the givens is read both ways, right when its words name a quantity of the problem, MC when
  it has no such quantity or carries a unit of another kind (`value_less_naming`, `letter_equals_words`); a stray
  word after '=' (`drop_stray_word`), a count after its given's words and a remark naming the value's unit again are
  read; a quantity noun after a negation ("no internal resistance") names no value; a remark that is only the noun
  of the value's own kind ("(voltage)" on an emf) is no other meaning; an untagged first sentence in the problem's
  own words (any verb form) is a true setup step.
- Type by cause, not by section. A misread or misplaced given is MC wherever it is written
  (a computed quantity's value stated in <given>/<find> takes the unknown for given: MC). A wrong
  relation is CM wherever it is written, also when it shows only as a wrong value: the numbers of the
  failing expression are read back as the quantities whose values they are (givens exactly, computed
  values within `value_rel`, of the same unit kind; whole numbers stay constants of the equation), and
  if that form is a wrong relation for the quantity (`T = 3.69 * 9.8`: T = m2 g), the error is CM, also
  when the right relation was written before (numbers substituted into a different formula). A wrong result of a right
  relation is CE, in <governing_equation> as much as in <calculation>; a bare wrong result is CE.
- Unchecked steps. A step where no check decided anything (prose, a definition of a symbol never
  confirmed by a later check, an equation whose unknown is never defined) is listed in
  `Verdict.unchecked_steps` (those before the reported step). `verifier.symbolic_unchecked` decides what
  it counts as: `pass` (correct, the default) or `error` (the first unchecked step is the first error,
  typed by its section: the only cue there is). Free prose is the LLM judge's part (`verifier.kind=llm`).
- Rounding versus slips. A single written value within tolerance but off by more than half a unit of
  its last written digit (and more than `suspicious_rel`) is *suspicious* (a correctly rounded value
  never is; trailing zeros of an integer such as 2890 are not counted as digits). Suspicion alone is no
  error (small models round intermediates). When a later value or the final answer fails, the
  suspicious steps are tested as its cause: their written values are put into the ground truth's
  equations (first one, then the first two, ...) and if the failing value then comes out right, the
  earliest such step is blamed (CE): a slip of 338.80 -> 338.90 shows only in 341.20 - 338.90 = 2.30.
- Final answer. Read from <final_answer>, else (broken tags) from the text after the last `<final_answer`
  or "Final answer:" marker. Numeric answers must match within `final_rel` (1%, the answer-scoring
  tolerance); MCQ letters must match (an answer without a letter is read as a value). An answer that
  reads as neither (empty, "m", words) counts as missing. A wrong final answer in an otherwise complete
  solution with every step passing is blamed on the earliest suspicious step that explains it (as
  above), else on the last step, as CE.
- Completeness. "No error" (error_step 0) only when every written step passes AND the solution is
  complete: givens stated, the target identified, the principle stated, a governing equation written,
  the target's value computed and the final answer present and right. When every written step passes
  but an element is missing, the error is the first missing element, in this order, at the step where
  the solution stops being complete (positions 0-based over the written steps, "checked" = the last
  step that established any element or passed any check):
    given (MC)        no step in <given> and no given stated anywhere -> the first step;
    target (MC)       no <find> step names the target (by symbol, a content word of its description or
                      "(in <unit of its dimension>)") and no untagged step names it -> the first <find>
                      step if there is one, else the step after the last given;
    principle (CM)    the ground truth has principles, no <concept> step, no untagged step naming one ->
                      the step after the last given/target step;
    equation (CM)     no symbolic equation verified (or introduced in <governing_equation>) -> the step
                      after the last checked step;
    calculation (CE)  the target's value is never computed (under its name or a new one) -> same place;
    final answer (CE) missing or unreadable -> same place.
  When that place lies after the last written step n, step n is blamed (so the paper's reward is
  n/(n+1), never 1.0, for a truncated solution whose steps are all right); `Verdict.details["missing"]`
  names the element. A solution that is complete but whose final answer is wrong is handled as above.
- A reached answer outweighs a doubtful reading (`symbolic_outcome`, `verifier.symbolic_answer_overrules`, on by
  default): when the numeric final answer is right (for multiple choice: the right letter and the right option's
  value computed), a failure from a check that only reads the solution's notation (an unchecked step, a given's
  words, a principle, target or relation in its own words and letters: `READING_CHECKS`) is overruled, the
  verdict is no error and `details["overruled"]` keeps it; a stated number contradicting the problem stands.
- Step number. The model's number of the failing step. When the numbering is not 1..n in order, the
  step's 1-based position is used instead (the reward counts positions).
- Bounds: at most `MAX_STEPS` steps and `MAX_CLAUSES` clauses per step are checked, expressions are
  capped in length and nesting (`physr3.quantity.expr`), so a verdict takes milliseconds whatever the input.

Not in the format: a solution with no `Step k:` line gets `status="parse_error"` (error_step 0, type
none; the reward's failure policy applies). Missing tags are tolerated: untagged steps are checked by
content (the completeness rule applies to them too). A problem without a physr3.synth.gt record also gets
`parse_error` (the verifier cannot judge), and so does an internal failure (counted in `counters["internal_errors"]`; never an exception).

Not covered: temperatures in °C/°F (offset units; the generator states K); a value of the right
magnitude with the opposite sign is an error (no sign-convention leniency); a bare number cannot show a
unit slip (`1910` for 1.91 kJ passes as SI); the concept check is keyword-level beyond its equations and
simple "X is <maths>" claims; unknown names make a clause unchecked rather than wrong until defined
(listed in `Verdict.raw["unchecked"]`, their steps in `Verdict.unchecked_steps`); in fully untagged solutions a
principle written as a formula in other symbols ("Q = 0" for an adiabatic stage, `E = hc/λ` where e is
the charge) is checked as maths and can be a false alarm; element presence is lenient (a <given> step in
prose counts as givens stated, a <find> step sharing one content word with the target's description
identifies it).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Any

from physr3 import quantity as mp
from physr3.problems import Problem
from physr3.quantity.answer import MATCH, UNPARSEABLE, judge
from physr3.solution import ANCHORED_STEP_PATTERN, TAGS, parse_solution
from physr3.verify.base import Verdict
from physr3.verify.symbolic_checks import (
    Finding,
    Tolerances,
    _Checker,
    _with_unit,
    drop_value_remark,
    option_digits,
    split_clauses,
)
from physr3.verify.symbolic_givens import (
    _INDEXED,
    _LETTER_KINDS,
    GivenStatements,
    misdescribed_equation,
    remark_value,
)
from physr3.verify.symbolic_gt import SCHEMA, GroundTruth, srepr_to_sympy
from physr3.verify.symbolic_layouts import (
    drop_instant,
    lines_below_steps,
    restates_problem,
    self_plus_term,
    states_problem_expression,
    stray_openings,
    symbol_value_remark,
)
from physr3.verify.symbolic_namings import drop_stray_word, letter_equals_words
from physr3.verify.symbolic_outcome import overrules, reaches_answer
from physr3.verify.symbolic_relations import (
    equates_unlike_values,
    equation_continuations,
    states_values_only,
    unlike_sides,
    writes_relation,
)

try:  # the registry is optional at import time (another module owns it)
    from physr3.verify.registry import register_verifier
except ImportError:  # pragma: no cover
    def register_verifier(name):  # type: ignore[no-redef]
        return lambda cls: cls

MAX_STEPS = 400  # steps beyond this are not checked (a bound on time for runaway generations)
MAX_CLAUSES = 12  # clauses checked per step
MAX_PENDING = 20  # equations with a symbol unknown when written, kept to be checked once it is defined
# An unchecked step counted as an error (verifier.symbolic_unchecked=error) has nothing but its section
# to say what kind of step it is.
UNCHECKED_TYPE_BY_TAG = {"given": "MC", "find": "MC", "concept": "CM", "governing_equation": "CM"}

UNCHECKED_POLICIES = ("pass", "error")
__all__ = ["GroundTruth", "SymbolicVerifier", "Tolerances", "split_clauses", "srepr_to_sympy"]


# ---------------------------------------------------------------------------------------------- verifier
@register_verifier("symbolic")
class SymbolicVerifier:
    """Offline first-error verifier against `physr3.synth.gt/1` ground truth (see the module docstring)."""

    name = "symbolic"

    def __init__(self, tolerances: Tolerances | None = None, unchecked: str | None = None,
                 answer_overrules: bool | None = None):
        from physr3.config import VerifierConfig  # the config's defaults: one home for them

        if unchecked is None:
            unchecked = VerifierConfig.symbolic_unchecked
        if answer_overrules is None:
            answer_overrules = VerifierConfig.symbolic_answer_overrules
        if unchecked not in UNCHECKED_POLICIES:
            raise ValueError(f"unchecked={unchecked!r}: expected one of {', '.join(UNCHECKED_POLICIES)}")
        self.tol = tolerances or Tolerances()
        self.unchecked = unchecked
        self.answer_overrules = bool(answer_overrules)
        self._gt_cache: dict[str, GroundTruth] = {}
        self.counters = {"verified": 0, "parse_error": 0, "errors_found": 0}

    @classmethod
    def from_config(cls, cfg: Any = None, **kwargs: Any) -> Any:
        """Build from a full Config (`verifier.symbolic_unchecked`, `verifier.symbolic_answer_overrules`);
        tolerances are `Tolerances`' unless given. With `verifier.symbolic_arbiter=on` the verifier comes wrapped
        in the learned arbiter (`symbolic_arbiter.ArbitratedVerifier`, the same `verify`/`verify_batch`)."""
        unchecked = cfg.verifier.symbolic_unchecked if cfg is not None else None
        overrules = cfg.verifier.symbolic_answer_overrules if cfg is not None else None
        verifier = cls(kwargs.get("tolerances"), kwargs.get("unchecked", unchecked),
                       kwargs.get("answer_overrules", overrules))
        arbiter = kwargs.get("arbiter", cfg.verifier.symbolic_arbiter if cfg is not None else None)
        return with_arbiter(verifier, arbiter)

    def report(self) -> str:
        return ", ".join(f"{k} {v}" for k, v in self.counters.items())

    def ground_truth(self, problem: Problem) -> GroundTruth | None:
        rec = problem.ground_truth
        if not isinstance(rec, dict) or rec.get("schema") != SCHEMA or not rec.get("steps"):
            return None
        key = f"{problem.id}:{rec.get('family')}:{rec.get('seed')}"
        if key not in self._gt_cache:
            if len(self._gt_cache) > 4096:
                self._gt_cache.clear()
            self._gt_cache[key] = GroundTruth(rec, key)
        return self._gt_cache[key]

    def verify_batch(self, items: Sequence[tuple[Problem, str]]) -> list[Verdict]:
        return [self.verify(p, s) for p, s in items]

    def verify(self, problem: Problem, solution: str, accepted: frozenset[int] = frozenset()) -> Verdict:
        """The first wrong step of `solution`. `accepted`: 1-based step positions taken as right whatever their
        checks find (the learned arbiter's way to let the walk go on past a finding it overrules,
        `symbolic_arbiter`); empty, the verdict is the checks' alone."""
        self.counters["verified"] += 1
        try:
            gt = self.ground_truth(problem)
        except Exception as exc:  # a malformed record must not crash a run
            gt = None
            why = f"ground truth unreadable: {exc}"
        else:
            why = "no physr3.synth.gt/1 ground truth on this problem"
        if gt is None:
            self.counters["parse_error"] += 1
            return Verdict(0, "none", why, status="parse_error")
        parsed = parse_solution(solution or "")
        if not parsed.steps:
            self.counters["parse_error"] += 1
            return Verdict(0, "none", "The solution has no numbered steps (Step k:), so no step can be checked.",
                           status="parse_error")
        try:
            verdict = self._verify(gt, parsed, problem.question or "", solution or "", problem.options or [],
                                   frozenset(accepted))
        except RecursionError:
            self.counters["parse_error"] += 1
            return Verdict(0, "none", "The solution could not be read (nesting too deep).", status="parse_error")
        except Exception as exc:  # a bug here must cost one verdict, never a run; counted and reported
            self.counters["parse_error"] += 1
            self.counters["internal_errors"] = self.counters.get("internal_errors", 0) + 1
            return Verdict(0, "none", f"The symbolic verifier failed on this solution ({type(exc).__name__}: "
                           f"{str(exc)[:80]}).", status="parse_error")
        if verdict.error_step:
            self.counters["errors_found"] += 1
        return verdict

    def _verify(self, gt: GroundTruth, parsed: Any, question: str = "", text: str = "",
                options: Sequence[str] = (), accepted: frozenset[int] = frozenset()) -> Verdict:
        steps = continued_steps(text, section_tags(text, parsed.steps[:MAX_STEPS]))
        more = {**equation_continuations(text, steps), **given_continuations(text, steps)}  # lines below a step
        numbered = [s.number for s in steps] == list(range(1, len(steps) + 1))
        checker = _Checker(gt, self.tol, question)
        checker.option_digits = option_digits(options)
        statements = GivenStatements(gt, question, options)  # round seven: letters and repeats of given statements
        statements.foresee([s.text for s in steps if s.tag == "given"])  # session 8: how the givens use letters
        findings: list[Finding] = []
        concept_steps = [(i, s) for i, s in enumerate(steps) if s.tag == "concept"]
        concept_fail = self._concept_failure(checker, concept_steps)
        find_steps = [(i, s) for i, s in enumerate(steps) if s.tag == "find"]
        target_fail = None  # judged when the first <find> step is reached (with the names stated by then)

        first_fail: Finding | None = None
        hits: list[set[str]] = []  # per step: the elements of a complete solution it establishes
        checked: list[bool] = []  # per step: whether any check decided something in it
        pending: list[tuple[int, str, str | None]] = []  # equations with an unknown symbol, for later
        in_givens = True  # still in the leading run of given statements (where untagged steps are givens)
        for i, step in enumerate(steps):
            number = step.number if numbered else i + 1
            tag = step.tag
            if tag is None and in_givens and checker.given_like(step.text):
                tag = "given"  # an untagged given statement is checked as one
            elif tag != "given":
                in_givens = False
            checker.hits = set()
            checker.decided = False
            checker.step_index = i
            known_before = len(checker.env[0])
            finding = None
            if find_steps and i == find_steps[0][0]:
                target_fail = self._target_failure(checker, find_steps)
            if not _CONTENT.search(_TAG_MARK.sub(" ", step.text)):  # "Step 1: <given>", "Step 30:" (cut off)
                etype = UNCHECKED_TYPE_BY_TAG.get(tag) or ("CE" if any("given" in h for h in hits) else "MC")
                finding = Finding(0, "fail", etype, "states nothing (an empty or garbled step).",
                                  info={"check": "empty"})
            elif concept_fail and concept_fail[0] == i:
                finding = concept_fail[1]
            elif tag == "concept" and checker.foreign_principle(step.text):  # "Kinetic energy: the rest energy ..."
                finding = checker.foreign_principle(step.text)
            elif tag == "concept" and (heading := statements.objects.concept(step.text)) is not None:
                finding = heading  # "Ampère-Maxwell: Ohm's law"
            elif target_fail and target_fail[0] == i:
                finding = target_fail[1]
            elif tag == "given" and statements.check(step.text, i) is not None:  # `V = 301 K`, a repeated given
                finding = statements.last
            elif tag == "find" and (misdefined := statements.misdefined(step.text)) is not None:
                finding = misdefined  # `(R1) = 1.7 ohm`, R1 = 13 ohm
            else:  # equations are checked wherever they are written, a <concept> step's included
                # a <given> step that goes on over lines below its "Step k:" line ("Step 1: m1 = 22 kg" then
                # "m2 (mass of the beam) = 38 kg"): each line is a given statement of that step, checked in turn
                for part in [step] + [dataclasses.replace(step, text=t) for t in more.get(i, [])]:
                    f = self._check_text(checker, part, tag, i, pending)
                    finding = f if f is not None else finding
                    if finding is not None and finding.status == "fail":
                        break
            step_hits = set(checker.hits)
            if finding is None or finding.status != "fail":
                step_hits |= self._elements(checker, step)
                if step.tag == "find" and "target" in step_hits:
                    checker.name_target(step.text)  # "E, the rest energy": E is the target from here on
            hits.append(step_hits)
            checked.append(finding is not None or checker.decided or "target" in step_hits
                           or (step.tag == "concept" and bool(checker.principle_hits(step.text))))
            at = i  # the step a failure is blamed on
            if (finding is None or finding.status != "fail") and pending and len(checker.env[0]) > known_before:
                late = self._resolve_pending(checker, pending, checked)
                if late is not None:
                    j, finding = late
                    number, step, tag = (steps[j].number if numbered else j + 1), steps[j], steps[j].tag
                    at = j
            if finding is not None and accepted and finding.status == "fail":
                j = finding.info.get("step_index")
                if (j if j is not None and 0 <= j < i else at) + 1 in accepted:
                    finding, checked[at] = None, True  # taken as right by the caller (the learned arbiter)
            if finding is None:
                continue
            j = finding.info.pop("step_index", None)
            if j is not None and 0 <= j < i:  # the error began at an earlier step (a swap of two givens)
                number, step, tag = (steps[j].number if numbered else j + 1), steps[j], steps[j].tag
            finding.step = number
            finding.info["tag"] = step.tag
            if finding.status == "fail":
                self._type_by_cause(checker, finding, tag)
                if finding.error_type == "MC" and step.tag in ("given", "find") and checker.wrong_formula(
                        step.text, as_written=step.tag == "find"):
                    finding.error_type = "CM"  # `Q = 4.3 mol * (11.9 L) / (357 K)`: a wrong relation, by cause
                    finding.explanation += " It writes a relation that does not hold."
            findings.append(finding)
            if finding.status == "fail":
                first_fail = finding
                break
        missing = None
        if first_fail is not None and len(hits) > 1 and not checked[0] and not any("given" in h for h in hits[:-1]) \
                and not any(s.tag == "given" for s in steps[:len(hits)]) and 1 not in accepted:
            # a first step that decided nothing and no given stated before a later failure (session 10): the
            # givens missing at the first step come first, as `_incomplete` blames them when nothing fails
            # ("Step 1: Refraction", then a slip at step 9)
            first_fail = Finding(steps[0].number if numbered else 1, "fail", "MC", "is where the solution should "
                                 f"state the problem's givens, but it does not; expected {checker.given_list()}.",
                                 info={"check": "complete", "element": "given", "tag": steps[0].tag})
            missing = "given"
            if checker.bare_foreign_principle(steps[0].text) or writes_relation(checker, steps[0].text):
                first_fail.error_type = "CM"  # "Step 1: Refraction" in a mirror problem; `vb = v^2 - vb`: wrong physics
        if first_fail is None:
            final_status, final = self._final_check(checker, final_text(parsed, text))
            first_fail = self._incomplete(checker, steps, hits, numbered, final_status)
            if first_fail is not None:
                missing = first_fail.info.get("element")
                at = next((s for j, s in enumerate(steps) if (s.number if numbered else j + 1) == first_fail.step), None)
                if missing == "given" and at is not None and checker.bare_foreign_principle(at.text):
                    first_fail.error_type = "CM"  # "Step 1: Refraction" in a mirror problem: a wrong principle
                    first_fail.explanation += f" It names {at.text.strip()[:40]}, a principle that does not apply."
                elif missing == "given" and at is not None and writes_relation(checker, at.text):
                    first_fail.error_type = "CM"  # `vb = v^2 - vb` where the givens belong: a wrong relation
            elif final is not None:  # complete, but the final answer is wrong
                final.step = steps[-1].number if numbered else len(steps)
                first_fail = final
        for name in checker.confirmed:  # a step that defined a symbol later confirmed was right
            j = checker.def_step.get(name)
            if j is not None and j < len(checked):
                checked[j] = True
        unchecked = [j for j, c in enumerate(checked) if not c and j + 1 not in accepted]
        unchecked_numbers = [steps[j].number if numbered else j + 1 for j in unchecked]
        fail_at = next((j for j, s in enumerate(steps) if first_fail is not None and
                        (s.number if numbered else j + 1) == first_fail.step), len(steps))
        if self.unchecked == "error" and unchecked and unchecked[0] < fail_at:
            j = unchecked[0]
            # `w = h/m (wavelength)`, `L' = L' + L`: a wrong relation is CM wherever it is written
            # session 14: in <given>, a relation for a letter of a kind the problem computes (`R4 = R1 + R2 + R3`)
            wrong_relation = misdescribed_equation(checker, steps[j].text) or self_plus_term(steps[j].text) or (
                steps[j].tag not in ("given", "find") and writes_relation(checker, steps[j].text)) \
                or (steps[j].tag == "given" and relation_for_computed(checker, steps[j].text)) \
                or checker.bare_foreign_principle(steps[j].text) \
                or equates_unlike_values(checker, steps[j].text)  # `1.84 kg * (286 K) = 392 JK`: values of two kinds
            etype = "CM" if wrong_relation else UNCHECKED_TYPE_BY_TAG.get(steps[j].tag, "CE")
            if etype == "CM" and not wrong_relation and states_values_only(checker, steps[j].text):
                etype = "MC"  # `v = 367 V` in <concept>: data stated, not a relation (session 12)
            first_fail = Finding(unchecked_numbers[0], "fail", etype,  # `w = h/m`: an equation is CM wherever
                                 "cannot be checked against the ground truth (verifier.symbolic_unchecked=error "
                                 "counts such a step as the first error).", info={"check": "unchecked",
                                                                                   "tag": steps[j].tag})
            missing = None
        suspicious = [f for f in findings if f.status == "suspicious"]
        raw = {"findings": [f.to_json() for f in findings], "unchecked": checker.unchecked[:20],
               "elements": sorted(set().union(*hits)) if hits else []}
        if first_fail is None:
            return Verdict(0, "none", "Every step agrees with the ground truth and the solution is complete: the "
                           "target is identified, the reasoning reaches its value and the final answer is right.",
                           raw=raw, details={"suspicious": [f.step for f in suspicious]},
                           unchecked_steps=unchecked_numbers)
        blamed = first_fail
        if first_fail.numeric and suspicious:
            blamed = self._root_cause(checker, first_fail, suspicious)
        if self.answer_overrules and overrules(blamed.info.get("check")) and reaches_answer(
                gt, self._final_check(checker, final_text(parsed, text))[0], steps, self.tol.final_rel):
            # a right answer outweighs a doubtful reading of the author's notation (symbolic_outcome)
            return Verdict(0, "none", f"The final answer is right, which overrules the one doubt found: step "
                           f"{blamed.step} {blamed.explanation}", raw=raw,
                           details={"suspicious": [f.step for f in suspicious],
                                    "overruled": {"step": blamed.step, "type": blamed.error_type,
                                                  "check": blamed.info.get("check")}},
                           unchecked_steps=unchecked_numbers)
        explanation = f"Step {blamed.step} {blamed.explanation}"
        return Verdict(blamed.step, blamed.error_type, explanation, raw=raw,
                       details={"tag": blamed.info.get("tag"), "check": blamed.info.get("check"),
                                "symbol": blamed.info.get("symbol"), "first_failure_step": first_fail.step,
                                "missing": missing},
                       unchecked_steps=[k for k in unchecked_numbers if k < blamed.step])

    def _check_text(self, checker: _Checker, step: Any, tag: str | None, i: int,
                    pending: list[tuple[int, str, str | None]]) -> Finding | None:
        """The checks of one step's text (or of one continuation line of a <given> step), in order; the
        first failure, else the last finding, else None."""
        finding = None
        if tag == "given" and _in_question(step.text, checker.question):
            checker.decided = True  # "The moment of inertia ... is I = 0.5 M R^2,": the problem's formula, in words
            return None
        if tag == "given" and states_problem_expression(step.text, checker.question):
            checker.decided = True  # "mu0/4*pi = 1e-7 T*m/A": the problem's constant as it writes it (session 15)
            return None
        # "v1.89 m/s: speed at the lowest point": a one-letter symbol glued to its decimal value
        said = _GLUED_VALUE.sub(r"\1 = \2", step.text) if tag == "given" else step.text
        if tag in ("given", "find"):  # "<acoustic power> = 1e-12 W/m^2": words in angle brackets, no tag
            said = _ANGLE_WORDS.sub(r"\1", said)
        if tag == "given":  # "emissivity (emissivity of the sphere) = 0.30": the remark moves after the value
            said = _WORDS_REMARK_EQUAL.sub(r"\1 = \3 (\2)", said, count=1)
            # "series resistance = R1 (6.9 ohm)", "f = the frequency (368 Hz)": read as "R1 = 6.9 ohm (words)"
            said = symbol_value_remark(said) or said
            said = letter_equals_words(said) or said  # `V = Voltage applied across ...`: a naming (symbolic_namings)
            said = drop_stray_word(said, checker.names) or said  # `g = gaining 9.8 m/s^2`: a stray word
            said = drop_instant(said, checker.question) or said  # "uncharged at t = 0": an instant (session 15)
        words_lhs = _WORDS_EQUAL.match(said) if tag == "given" else None
        word_lhs = _WORD_EQUAL.match(said) if tag == "given" and not words_lhs else None
        if word_lhs and checker.description_word(word_lhs.group(1)):  # "wavelength = 272 Hz"
            words_lhs = word_lhs
        if words_lhs and checker.has_words(words_lhs.group(1)) and \
                not any(checker.names.get(mp.canonical_name(w)) for w in words_lhs.group(1).split()):
            said = f"{words_lhs.group(1)}: {said[words_lhs.end():]}"  # "acoustic power = 1e-12 W/m^2"
        if tag == "given":  # "Tension (T) = 180 N" / "Wavelength (λ): 223 nm" reads as "T = 180 N (Tension)"
            m = _WORDS_SYMBOL.match(said)
            if m and (re.fullmatch(r"[A-Za-zα-ωΑ-Ω](?:\d+|_\w+)?", m.group(2))
                      or mp.canonical_name(m.group(2)) in checker.names):  # not "(hc)": h times c
                said = f"{m.group(2)} = {m.group(3)} ({m.group(1)})"
        clauses = split_clauses(said)[:MAX_CLAUSES]
        checker.label = said if tag == "given" and len(clauses) <= 1 else ""
        if tag == "given":  # "h = 6.63e-34 J*s (h)": a remark after a value, not a factor
            clauses = [drop_value_remark(c, checker.names) for c in clauses]
            finding = checker.misnamed_kind(step.text)  # "n = 5.89 mW (the total energy)"
            if finding is None and len(clauses) > 1:  # "... of mass M1 = 9.0 m^2 and thickness ...": each clause
                finding = next((f for f in map(checker.misnamed_kind, clauses) if f is not None), None)
            clash = _unit_remark_clash(said) if finding is None else None  # "40 deg above the horizontal (in radians)"
            if clash is not None:
                finding = Finding(0, "fail", "MC", f"states a value in one unit and calls it {clash.group(0)}: the "
                                  f"value's unit is misread.", info={"check": "given_unit_remark"})
            garbled = _VALUE_OF_VALUE.match(said)  # "T(299 K) = 954 K": two values for one quantity
            if finding is None and not garbled:
                garbled = _two_values(checker, said) or _either_value(said)  # "gamma = 5/3 (gamma = 0.5)"
            if finding is None and garbled:
                finding = Finding(0, "fail", "MC", f"writes {garbled.group(0).strip()[:40]}, two values for "
                                  f"one quantity; the problem gives {checker.given_list()}.",
                                  info={"check": "given_garbled"})
            if finding is not None:
                clauses = []
        for clause in clauses:
            if tag == "given" and "=" in clause and _in_question(clause, checker.question):
                checker.decided = True  # "I = 0.5 M R^2": the problem's own formula, restated
                continue
            zero = _ZERO_CONDITION.fullmatch(clause) if tag == "given" else None
            if zero and re.search(rf"(?<![\w.]){re.escape(zero.group(1))}\s*=\s*0(?![\w]|\.\d)", checker.question):
                checker.decided = True  # "t = 0 (time)" for "... at t = 0": the problem's starting condition
                continue
            decided, checker.decided = checker.decided, False
            f = checker.check_clause(clause, tag)
            clause_decided, checker.decided = checker.decided, decided or checker.decided
            if f is not None:
                finding = f
                if f.status == "fail":
                    break
            elif not clause_decided and tag != "given" and len(pending) < MAX_PENDING and \
                    checker.unknown_names(clause):
                pending.append((i, clause, tag))  # checked once a later step defines its unknown
        if not clauses and tag == "given" and finding is None:
            finding = checker.check_given_text(step.text, any_symbol=step.tag is None)
            if finding is None and not checker.decided and restates_problem(step.text, checker.question):
                checker.decided = True  # "The block is initially at rest.": the problem's words, no value
        elif tag is None and i == 0 and finding is None and not checker.decided and \
                restates_problem(step.text, checker.question):
            checker.decided = True  # untagged, first: "The surface is reflecting the light from the laser." (A25)
        if tag == "given" and (finding is None or finding.status != "fail"):
            finding = remark_value(checker, step.text) or finding  # "(x = 0.12 m)": a number invented in a remark
        if tag not in ("given", "find") and (finding is None or finding.status != "fail"):
            finding = checker.wrong_constant(step.text) or finding  # "(G = 1/6, the speed of light)"
        if tag not in ("given", "find") and (finding is None or finding.status != "fail"):
            for clause in checker.prose_relations(step.text) + checker.prose_word_relations(step.text):
                # "the length of the pipe is L/2"; "the charge is the voltage divided by the capacitance"
                f = checker.check_clause(clause, tag)
                if f is not None and f.status == "fail":
                    finding = f
                    break
        return finding

    @staticmethod
    def _resolve_pending(checker: _Checker, pending: list[tuple[int, str, str | None]],
                         checked: list[bool]) -> tuple[int, Finding] | None:
        """Equations written with a symbol unknown at the time, checked now that a later step defined it;
        the first that fails is an error at the step where it was written."""
        current = checker.step_index
        try:
            for entry in list(pending):
                j, clause, tag = entry
                left = checker.unknown_names(clause)
                lhs = checker.readings(clause.split("=")[0], "lhs")
                if lhs and lhs[0][0] == "var":
                    left.discard(lhs[0][1])
                if left:
                    continue
                pending.remove(entry)
                checker.step_index, checker.decided = j, False
                f = checker.check_clause(clause, tag)
                if checker.decided and j < len(checked):
                    checked[j] = True
                if f is not None and f.status == "fail":
                    return j, f
        finally:
            checker.step_index, checker.decided = current, False
        return None

    @staticmethod
    def _type_by_cause(checker: _Checker, finding: Finding, tag: str | None) -> None:
        """The error type by what went wrong, not by the section it is written in: a misread or misplaced
        given is MC wherever (a computed quantity's value stated among the givens takes the unknown for
        given), a wrong relation is CM wherever (also when it shows only as a wrong value whose numbers
        read back as a wrong equation), a wrong result of right numbers in a right relation is CE. A
        relation that does not hold written in <given> for a given of the problem (`L = L/L, the length of
        the rail`) misstates that given: MC (a wrong relation for the unknown there stays CM), and so does a
        relation among givens only (`M/M = 40 g/mol`). Values of two kinds equated (`(2.6 mol)*(493 K) = 124
        J`) are a wrong relation, CM, wherever they are written (session 12)."""
        if tag == "given" and finding.info.get("check") == "equation" and \
                finding.info.get("symbol") in checker.gt.givens:
            finding.error_type, finding.numeric = "MC", False
            return
        names = {checker.names.get(v, v) for n in finding.nodes for v in mp.variables(n)}
        if tag == "given" and finding.info.get("check") == "relation" and names and names <= set(checker.gt.givens):
            # "M/M = 40 g/mol" among the givens: a value stated for an expression of givens only, garbled data (MC)
            finding.error_type, finding.numeric = "MC", False
            return
        if not finding.numeric:
            return
        sym, check = finding.info.get("symbol"), finding.info.get("check")
        if check == "value" and sym and finding.nodes:
            lhs, node = ("var", sym), finding.nodes[0]
        elif check == "relation" and len(finding.nodes) == 2:
            lhs, node = finding.nodes
        else:
            lhs = node = None
        copied = checker.option_number(finding.nodes[0]) if check == "value" and finding.nodes else None
        if copied is not None:  # "F = (6.23 uC)*(2.37 uC)*(5.39e-4 N)": a number of the answer options, not data
            finding.error_type, finding.numeric = "MC", False
            finding.explanation += f" It substitutes {copied}, a number of the answer options, not the problem's data."
        elif check == "relation" and lhs is not None and unlike_sides(lhs, node, checker.dims):
            # `14.0 g * 4 g/mol * (285 K) = 100 kJ`: values of two kinds equated, a wrong relation wherever it is
            finding.error_type, finding.numeric = "CM", False
            finding.explanation += " Its two sides are quantities of different kinds: a wrong relation."
        elif check == "value" and lhs is not None and values_of_other_kind(checker, sym, node):
            # `Q = (4186 J)/(860 K)` for a heat: values combined into another kind, a wrong relation (session 14)
            finding.error_type, finding.numeric = "CM", False
            finding.explanation += f" Its values combine into a quantity of another kind than {sym}: a wrong relation."
        elif lhs is not None and checker.wrong_relation(lhs, node):
            finding.error_type, finding.numeric = "CM", False
            finding.explanation += " Its numbers follow a wrong relation" + (
                f"; {checker.expected_relation(sym)}" if sym else ".")
        elif tag in ("given", "find"):
            finding.error_type, finding.numeric = "MC", False

    @staticmethod
    def _elements(checker: _Checker, step: Any) -> set[str]:
        """The target and principle elements a (passing) step establishes; see "Completeness"."""
        out: set[str] = set()
        if step.tag == "find":
            if checker.names_target(step.text, lenient=True):
                out.add("target")
        elif step.tag is None or (step.tag in ("given", "concept") and "=" not in step.text):
            if checker.names_target(step.text, lenient=False):
                out.add("target")
        if checker.gt.principles and (step.tag == "concept" or (step.tag is None and checker.principle_hits(step.text))):
            out.add("principle")
        return out

    def _incomplete(self, checker: _Checker, steps: Sequence[Any], hits: list[set[str]], numbered: bool,
                    final_status: str) -> Finding | None:
        """The first element of a complete solution that is missing, as a failure at the step where the
        solution stops being complete (see "Completeness" in the module docstring), or None."""
        gt = checker.gt
        n = len(steps)

        def last(element: str) -> int:
            return max((i for i in range(n) if element in hits[i]), default=-1)

        def found(element: str) -> bool:
            return any(element in h for h in hits)

        checked = max((i for i in range(n) if hits[i]), default=-1)
        given_end = max(last("given"), max((i for i in range(n) if steps[i].tag == "given"), default=-1))
        first_find = next((i for i in range(n) if steps[i].tag == "find"), None)
        target_at = first_find if first_find is not None else given_end + 1
        eq = gt.equations.get(gt.target, {})
        answer = gt.rec.get("answer", {})
        value = gt.display_value(gt.target) if gt.target in gt.instances[0] else None
        elements = (  # element, present, where it belongs (0-based), type, what it does, what was expected
            ("given", given_end >= 0, 0, "MC", "state the problem's givens", checker.given_list()),
            ("target", found("target"), target_at, "MC", "identify the quantity asked for",
             f"{gt.target}, {gt.target_desc}".rstrip(", ")),
            ("principle", not gt.principles or found("principle"), max(given_end, last("target")) + 1, "CM",
             "state the principle that applies", str(gt.principles[0].get("name")) if gt.principles else ""),
            ("equation", found("equation"), checked + 1, "CM", "write the governing equation",
             f"{gt.target} = {eq.get('rhs', '?').replace('**', '^')}"),
            ("calculation", found("target_value"), checked + 1, "CE", f"compute the value of {gt.target}",
             f"{gt.target} = {_with_unit(value, gt.units.get(gt.target, ''))}" if value is not None else ""),
            ("final_answer", final_status != "missing", checked + 1, "CE", "give the final answer",
             str(answer.get("text", ""))),
        )
        for element, present, at, etype, what, expected in elements:
            if present:
                continue
            idx = min(max(at, 0), n - 1)
            number = steps[idx].number if numbered else idx + 1
            exp = f"; expected {expected}" if expected else ""
            if at >= n:  # the element belongs after the last step written: blame the last one (r = n/(n+1))
                why = f"is the last step written, and the solution ends before it goes on to {what}{exp}."
            else:
                why = f"is where the solution should {what}, but it does not{exp}."
            return Finding(number, "fail", etype, why, info={"check": "complete", "element": element,
                                                              "tag": steps[idx].tag})
        return None

    def _root_cause(self, checker: _Checker, fail: Finding, suspicious: list[Finding]) -> Finding:
        """The earliest suspicious step whose written value explains the numeric failure: with the
        solution's own values for the first k suspicious steps put into the ground truth's equations, the
        failing value comes out right. Without written values to test (an MCQ letter), the first
        suspicious step; when none explains it, the failing step itself."""
        sym = fail.info.get("symbol")
        if not fail.nodes or sym is None:
            return suspicious[0]
        gt = checker.gt
        overrides: dict[str, float] = {}
        for s in suspicious:
            if s.value_si is None or s.info.get("symbol") not in gt.equations:
                continue
            overrides[s.info["symbol"]] = s.value_si
            inst = gt.solve(gt.shown, overrides)
            if inst is None or sym not in inst:
                continue
            rel = self.tol.final_rel if fail.info.get("check") == "final" else self.tol.value_rel
            if any(checker.value_matches(n, inst[sym], gt.factors.get(sym, 1.0), rel) for n in fail.nodes):
                return s
        return fail

    def _concept_failure(self, checker: _Checker, concept_steps: list) -> tuple[int, Finding] | None:
        # a concept step that only restates values ("v = 367 V") states no principle to judge; one that reads
        # like a given but names a principle ("Stefan-Boltzmann law: a body of emissivity eps ...") still names it
        named = {i: checker.principle_hits(s.text) for i, s in concept_steps}
        covered = set().union(*named.values())
        concept_steps = [(i, s) for i, s in concept_steps if not checker.given_like(s.text)]
        if not concept_steps or not checker.gt.principles:
            return None
        hits = [named[i] for i, _ in concept_steps]
        if len(covered) == len(checker.gt.principles):
            return None
        missing = [p for k, p in enumerate(checker.gt.principles) if k not in covered]
        for (i, _s), h in zip(concept_steps, hits):
            if not h:
                p = missing[0]
                cues = ", ".join(p.get("keywords", [])[:3])
                return i, Finding(0, "fail", "CM", f"does not state the principle that applies; expected "
                                  f"{p.get('name')} ({cues}).", info={"check": "principle"})
        return None

    def _target_failure(self, checker: _Checker, find_steps: list) -> tuple[int, Finding] | None:
        """The <find> section must name the asked quantity: by symbol, by its description (or most of
        it), or by a unit of its dimension. A <find> that names another quantity first fails at that
        step; one that names only givens, an invented quantity or nothing fails at its first step. A
        first <find> step that is only a name and a value (`<top_point_thickness> = 1.7 m`, `T = 465 K`)
        lists a value where the unknown belongs (RUBRIC.md, "The find step"; session 14: all 33 such steps
        on the thirteen tuning sets are labelled first errors, MC), whatever the value is."""
        first = None
        for k, (i, s) in enumerate(find_steps):
            valued = checker.target_with_value(s.text)  # "Sound intensity level: 37.9 W/m^2"
            if valued is not None:
                return i, valued
            invented = checker.find_value(s.text)  # "wavelength: 716 nm": a value the problem does not give
            if invented is not None:
                if first is None and k == 0:
                    return i, invented
                continue  # the steps before it did not name the target either: judged as a section
            listed = _VALUE_ONLY.fullmatch(s.text) if k == 0 else None
            if listed is not None:  # "<top_point_thickness> = 1.7 m": a value listed, no unknown named (session 14)
                gt = checker.gt
                return i, Finding(0, "fail", "MC", f"lists {listed.group(1)} = {listed.group(2)} where the quantity "
                                  f"asked for should be named; the question asks for {gt.target}, "
                                  f"{gt.target_desc}.".replace(", .", "."), info={"check": "target"})
            named, fail = checker.check_target(s.text)
            if named or (fail is None and (checker.names_target(s.text, lenient=True)
                                           or checker.described(s.text) == checker.gt.target)):
                # the target named; a further <find> step that names a quantity the problem does not have
                # ("L (length of the light string)") asks for something else: MC there
                misread = checker.target_unit_failure(s.text) or checker.target_variant(s.text)  # "(in Hz)"
                if misread is not None:
                    return i, misread
                for j, later in find_steps[k + 1:]:
                    invented = checker.invented_unknown(later.text)
                    if invented:
                        return j, invented
                return None
            if fail and first is None:
                first = (i, fail)
        if first is None and find_steps:
            gt = checker.gt
            first = (find_steps[0][0], Finding(0, "fail", "MC", f"does not name the quantity asked for; the question "
                                               f"asks for {gt.target}, {gt.target_desc}.".replace(", .", "."),
                                               info={"check": "target"}))
        return first

    def _final_check(self, checker: _Checker, text: str) -> tuple[str, Finding | None]:
        """("correct" | "wrong" | "missing" | "unjudged", the failure when wrong). An answer that cannot be
        read as a letter or a value is missing; without an answer in the ground truth, unjudged."""
        gt = checker.gt
        text = (text or "").strip()
        ans = gt.rec.get("answer", {})
        if not ans:
            return "unjudged", None
        if not text:
            return "missing", None
        if gt.rec.get("kind") == "mcq" and ans.get("letter"):
            m = re.match(r"\W*\(?([A-D])(?![A-Za-z0-9.])", text) or re.search(
                r"(?i:option|answer|choice)\W*(?:is\W*)?\(?([A-D])(?![A-Za-z0-9])", text)
            if m:
                if m.group(1) == ans["letter"]:
                    return "correct", None
                return "wrong", Finding(0, "fail", "CE", f"leads to option {ans['letter']} ({ans.get('text')}), "
                                        f"but the final answer is {m.group(1)}.", numeric=True,
                                        info={"check": "final"})
        sym = ans.get("symbol")
        if sym not in checker.env[0]:
            return "unjudged", None
        segment = re.split(r"=|≈", mp.normalize(text))[-1]
        readings = checker.readings(segment, "rhs")
        try:  # one verdict with the answer scorer (physr3.eval.answers): the same reader, rule and tolerance
            found = judge(text, ans.get("text") or "", "numeric_unit" if ans.get("unit") else "numeric",
                          self.tol.final_rel, allow_missing_unit=True)
        except ValueError:  # no readable answer in the ground truth
            return "unjudged", None
        if found.reason == MATCH:
            return "correct", None
        if found.reason == UNPARSEABLE:
            return "missing", None
        return "wrong", Finding(0, "fail", "CE", f"ends with the final answer {text[:40]}; expected "
                                f"{ans.get('text')}.", numeric=True, info={"check": "final", "symbol": sym},
                                nodes=list(readings))


# a <find> step that is only a name (a letter, words in angle brackets) and a value: `<speed> = 10.5 m/s`
_VALUE_ONLY = re.compile(r"\s*<?([A-Za-z_][\w ]{0,40}?)>?\s*=\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
                         r"(?:\s*[A-Za-zμΩ°][\w/*^]*)?)\s*\.?\s*")
# "t = 0 (time)": a symbol set to zero, a remark allowed
_ZERO_CONDITION = re.compile(r"\s*([A-Za-zα-ωΑ-Ω]\w{0,5})\s*=\s*0\s*(?:\([^()]*\))?\s*[.;]?\s*")
_CONTENT = re.compile(r"[A-Za-z0-9α-ωΑ-Ω]")
# a given written as a function of a value set to another value ("T(299 K) = 954 K"): garbled data; also
# letter(value) on both sides ("F(0.936 m) = T(210 N)", session 10): two data equated, not a relation (MC)
_VALUE_OF_VALUE = re.compile(r"^\s*[A-Za-zα-ωΑ-Ω][\w']*\s*\(\s*[-+]?(?:\d+\.?\d*|\.\d+)[^()=]*\)\s*=\s*"
                             r"(?:[A-Za-zα-ωΑ-Ω][\w']*\s*\(\s*)?[-+]?\.?\d[^=,;]*")
# a given written with its one-letter symbol glued to a decimal value and followed by a unit ("m1.5 kg: mass");
# a decimal point is required, so "m1 = 2 kg" and "v2" stay names
_GLUED_VALUE = re.compile(r"^\s*([A-Za-zα-ωΑ-Ω])(\d+\.\d+|\d{3,})(?=\s*[A-Za-zμΩ°])")  # "m1890 kg" too
# a given written as "words (SYMBOL) = value" or "words (SYMBOL): value": the symbol is the name, the words
# its description (one clause, the value running to the end of the step)
_WORDS_SYMBOL = re.compile(r"^\s*([A-Za-z][A-Za-z '-]{2,60}?)\s*\(\s*([A-Za-zα-ωΑ-Ω][A-Za-z0-9_]{0,6})\s*\)\s*[:=]\s*"
                           r"([-+]?\.?\d[^=;,]*?)\s*$")
# a given "words (more words) = value ...": the words in parentheses are a remark on the name, not a symbol
_WORDS_REMARK_EQUAL = re.compile(r"^\s*([A-Za-z][A-Za-z '-]{2,60}?)\s*\(([A-Za-z][A-Za-z '-]*\s[A-Za-z '-]+)\)\s*=\s*"
                                 r"([-+.]?\d[^=;]*)$")
_ANGLE_WORDS = re.compile(r"<\s*(?!/?\s*(?:" + "|".join(TAGS) + r")\b)([A-Za-z][A-Za-z '-]{1,60}?)\s*>")
# a given whose left-hand side is words only ("acoustic power = 1e-12 W/m^2"): read as "words: value"
_WORDS_EQUAL = re.compile(r"^\s*([A-Za-z][A-Za-z'-]+(?:\s+[A-Za-z'-]+)+)\s*=\s*(?=[-+.]?\d)")  # two words or more
_WORD_EQUAL = re.compile(r"^\s*([A-Za-z][a-z]{3,})\s*=\s*(?=[-+.]?\d)")  # one word ("wavelength = ...")
_TAG_MARK = re.compile(r"<\s*(/?)\s*(" + "|".join(TAGS) + r")\b[^<>\n]*>?", re.IGNORECASE)


# "X = 18 uF": a step that states a value, which a <find> step never does (a stray <find> before it is noise)
_STATES_VALUE = re.compile(r"=\s*[-+]?(?:\d|\.\d)")


def with_arbiter(verifier: SymbolicVerifier, arbiter: bool | str | None = None) -> Any:
    """`verifier`, wrapped in the learned step arbiter when `arbiter` (True or "on"; default:
    `verifier.symbolic_arbiter`'s default) says so."""
    from physr3.config import VerifierConfig

    arbiter = VerifierConfig.symbolic_arbiter if arbiter is None else arbiter
    if arbiter not in (True, False, "on", "off"):
        raise ValueError(f"arbiter={arbiter!r}: expected on or off")
    if arbiter in (False, "off"):
        return verifier
    from physr3.verify.symbolic_arbiter import ArbitratedVerifier

    return ArbitratedVerifier(verifier)


def section_tags(text: str, steps: Sequence[Any]) -> list[Any]:
    """The steps with the section each is written in, read tolerantly: a step belongs to the section whose
    opening tag came last before it (`<tag` without `>` counts), until that section's closing tag. So an
    unclosed `<given>` does not swallow the sections opened after it, and tags out of order still name
    the section a step is in; a stray opening (`symbolic_layouts.stray_openings`) is not followed when the step
    after it states a value (`<given> C1 = 13 uF <find> C2 = 18 uF </given>`), and is when it does not (`<given>
    m1 = 7.31 kg <find T, the tension </given>`: the find step). Without any tag the steps are returned as they
    are (untagged)."""
    marks = [(m.start(), bool(m.group(1)), m.group(2).lower()) for m in _TAG_MARK.finditer(text or "")]
    if not marks:
        return list(steps)
    positions = [m.start(1) for m in ANCHORED_STEP_PATTERN.finditer(text)]
    if len(positions) < len(steps):
        return list(steps)
    stray = stray_openings(marks)  # `<find>` opened inside `<given>` and never closed: still <given>
    out, current, k = [], None, 0
    for step, pos in zip(steps, positions):
        while k < len(marks) and marks[k][0] < pos:
            _, closing, tag = marks[k]
            if k in stray and _STATES_VALUE.search(step.text):  # data after it: still the section it opened in
                k += 1
                continue
            if not closing:
                current = tag
            elif tag == current:
                current = None
            k += 1
        out.append(step if step.tag == current else dataclasses.replace(step, tag=current))
    return out


def continued_steps(text: str, steps: Sequence[Any]) -> list[Any]:
    """A step written as "Step 1:" with its content on the lines below (up to the next step or tag) reads
    as that content, the lines joined by commas; a "Step 30:" followed by nothing (cut off) or by a tag
    only stays empty."""
    matches = list(ANCHORED_STEP_PATTERN.finditer(text or ""))
    if len(matches) != len(steps) or all(s.text.strip() for s in steps):
        return list(steps)
    out = []
    for k, (step, m) in enumerate(zip(steps, matches)):
        if not step.text.strip():
            end = matches[k + 1].start() if k + 1 < len(matches) else len(text)
            lines = []
            for line in text[m.end():end].splitlines()[1:]:
                if _TAG_MARK.search(line) or not line.strip():
                    break  # the section ends (or a blank line): what follows is not this step's
                lines.append(line.strip())
            if lines:
                step = dataclasses.replace(step, text=", ".join(lines))
        out.append(step)
    return out


_SAME_SYMBOL_AGAIN = re.compile(r"^\s*(?P<sym>[A-Za-zα-ωΑ-Ω][\w']*)\s*=\s*(?P<a>[^()=]+?)\s*\(\s*(?P=sym)\s*=\s*"
                                r"(?P<b>[^()=]+?)\s*\)")


def _in_question(clause: str, question: str) -> bool:
    """Whether a given clause with a symbolic right-hand side is written word for word in the question
    (spacing aside): "I = 0.5 M R^2" for a body "whose moment of inertia ... is I = 0.5 M R^2"; or its right
    side alone, after "=", under another letter ("m = 0.5 M R^2")."""
    def norm(t: str) -> str:
        return re.sub(r"\s+", "", mp.normalize(t))
    # "The moment of inertia ... is I = 0.5 M R^2,": the equation from its symbol on, without the words before
    written = clause
    clause = re.sub(r"^.*?(?<![\w'])(?=[A-Za-zα-ωΑ-Ω][\w']*\s*=)", "", clause, count=1).rstrip(" ,.;")
    c = norm(clause)
    rhs = re.sub(r"\d+(?:\.\d*)?(?:[eE][-+]?\d+)?", " ", clause.split("=", 1)[1] if "=" in clause else "")
    symbolic = [w for w in re.findall(r"[A-Za-z]\w*", rhs) if mp.unit_word(w) is None]  # not "17 uF"
    if len(c) < 5 or not symbolic:
        return False
    if c in norm(question):
        return True
    # "m = 0.5 M R^2 (inertia)", "Im = 0.4 M R^2": the problem's formula under a letter of the solution's own
    # restates it all the same (session 12; the labels accept such lines before a later error)
    # ... only as the whole line ("The mass of the body is I = 0.4 M R^2" says more) and one formula, not a chain
    # ("C = 1/(4*pi*eps0) = 9e9 N*m^2/C^2" is the problem's constant again under another letter: a repeat)
    if written.strip() != clause.strip() or clause.count("=") != 1:
        return False
    own = re.sub(r"\s*\([^()]*\)\s*$", "", clause.split("=", 1)[1])  # the remark aside
    letters = [w for w in re.findall(r"[A-Za-z]\w*", re.sub(r"\d+(?:\.\d*)?(?:[eE][-+]?\d+)?", " ", own))
               if mp.unit_word(w) is None]  # a formula in letters ("0.5 M R^2"), not a value ("8.85e-12 F/m")
    return bool(letters) and len(norm(own)) >= 5 and norm("=" + own) in norm(question)


def values_of_other_kind(checker: _Checker, sym: str, node: Any) -> bool:
    """Whether an expression of values only, two or more combined by an operator and all with units, has a
    known dimension other than that of the quantity `sym` it is written for (`Q = (4186 J)/(860 K)`, a heat
    computed as J/K): no slip of arithmetic gives another kind, so the relation is wrong (CM by cause; round-11
    class U9). Bare numbers are not judged: a small model drops units in arithmetic it otherwise does right."""
    want = checker.gt.dims.get(sym)
    if want is None or mp.variables(node) or _leaf_count(node) < 2 or not _all_with_units(node):
        return False
    got = mp.dimension(node, checker.dims)
    return got is not None and not mp.same_dim(got, want)


def _leaf_count(node: Any) -> int:
    """The values and symbols of an expression tree."""
    if not isinstance(node, tuple) or not node:
        return 0
    if node[0] in ("num", "qty", "var", "const"):
        return 1
    return sum(_leaf_count(a) for a in node[1:] if isinstance(a, tuple))


def _all_with_units(node: Any) -> bool:
    """Whether every value of an expression tree carries a unit (a bare exponent or factor aside: `^2`, `2*`)."""
    if not isinstance(node, tuple) or not node:
        return True
    if node[0] == "num":
        return False
    if node[0] in ("qty", "var", "const"):
        return True
    if node[0] == "pow":
        return _all_with_units(node[1])
    return all(_all_with_units(a) for a in node[1:] if isinstance(a, tuple))


def relation_for_computed(checker: _Checker, text: str) -> bool:
    """Whether a step in <given> writes a relation of symbols (`writes_relation`: not for a given's own letter)
    whose letter conventionally names the kind of a quantity the problem works out (`R4 = R1 + R2 + R3` where
    the parallel and equivalent resistances are computed, `I1 = emf r1/R1` where the current is): it states
    physics, CM by cause, not data (session 14, round-11 class U5). A relation for a letter of no computed
    kind (`m = mp*e`, `s = (m1 - m0)/(m1 - m0)`), or of no symbol of the problem (`W = E^2/m^2` for the
    Compton shift), stays a misstated given, MC, as the labels type it."""
    if not writes_relation(checker, text):
        return False
    plain = _TAG_MARK.sub(" ", text)
    m = re.search(r"(?<![\w'])([A-Za-zα-ωΑ-Ω][\w']{0,7})\s*=(?!=)", plain)  # its first equation
    rhs = re.split(r"=|;|,\s", plain[m.end():], maxsplit=1)[0] if m else ""
    if not any(checker.names.get(v, v) in checker.gt.dims for n in checker.readings(rhs, "rhs")[:1]
               for v in mp.variables(n)):
        return False  # `W = E^2/m^2` in a Compton problem: letters of its own, an invented given (MC)
    base = _INDEXED.fullmatch(m.group(1)) if m else None
    kinds = [info.dim for unit in (_LETTER_KINDS.get(base.group("base"), ()) if base else ())
             if (info := mp.pint_unit(unit)) is not None]
    return any(mp.same_dim(checker.gt.dims.get(s), d) for s in checker.gt.equations for d in kinds
               if checker.gt.dims.get(s) is not None)


def _unit_remark_clash(said: str) -> re.Match | None:
    """A given stating one value with a unit and, in a remark "(in UNIT)", another unit that pint reads and that
    is not the one written ("40 deg above the horizontal (in radians)"), or in a longer remark ending "in
    (units of) UNIT" a unit of another kind ("9.8 m/s^2 (given, also in units of m/s)"; session 14: "17 ms
    (time in seconds)" names the kind loosely): the value's unit is misread (MC), the match; None otherwise."""
    # "(in m^2/C^2 units)" too, and the unit at the end of a longer remark ("(given, also in units of m/s)", session 14)
    remark = re.search(r"\([^()]*?\bin\s+(?:units\s+of\s+)?([A-Za-zμΩ°/*^()0-9]+?)(?:\s+units?)?\s*\)", said)
    value = re.search(r"(?<![\w.^])[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*([A-Za-zμΩ°][\w/*^()]*)", said)
    if not remark or not value or value.start() > remark.start():
        return None
    own = re.match(r"\s*([A-Za-zα-ωΑ-Ω]\w*)\s*[=:]", said)
    if own and own.group(1) == remark.group(1):
        return None  # `R = 748 ohm (in R)` (session 13, round-10 class A13): the statement's own letter, a name
    written, asked = mp.pint_unit(value.group(1).replace("^", "**")), mp.pint_unit(remark.group(1).replace("^", "**"))
    if written is None or asked is None or (abs(written.factor - asked.factor) <= 1e-9 * abs(written.factor)
                                            and mp.same_dim(written.dim, asked.dim)):
        return None  # the same unit; N*m^2/C^2 "(in m^2/C^2 units)" has the same SI factor but another kind
    if not re.match(r"\(\s*in\b", remark.group(0)) and mp.same_dim(written.dim, asked.dim):
        return None  # "1.84 mm/s (speed of the particle in m/s)": words naming the kind's SI unit, loosely
    return remark


def _two_values(checker: _Checker, said: str) -> re.Match | None:
    """A given whose remark gives its own symbol another value ("gamma = 5/3 (gamma = 0.5)"): two values
    for one quantity, the match; None when the remark repeats the value (in another form: "(gamma =
    1.667)") or either side cannot be evaluated."""
    m = _SAME_SYMBOL_AGAIN.match(said)
    if not m:
        return None
    a = [v for n in checker.readings(m.group("a"), "rhs") if not mp.variables(n) for v in checker.values(n)]
    b = [v for n in checker.readings(m.group("b"), "rhs") if not mp.variables(n) for v in checker.values(n)]
    if not a or not b or any(checker.close(x, y, 0.02) for x in a for y in b):
        return None
    return m


# "4186 J/(kg*K) or 463 J/(kg*K)": two values with units (a unit holds at most one bracket) joined by "or"
_EITHER = re.compile(r"([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([A-Za-zμΩ°][\w/*^]*(?:\([\w/*^]+\))?)\s+or\s+"
                     r"([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([A-Za-zμΩ°][\w/*^]*(?:\([\w/*^]+\))?)")


def _either_value(said: str) -> re.Match | None:
    """A given offering two values of one kind joined by "or" ("Specific heat of water (4186 J/(kg*K) or 463
    J/(kg*K))"): it states neither as the given, two values for one quantity (session 14), the match; None
    when the two are one value in two units (`0.5 m or 50 cm`) or of different kinds."""
    m = _EITHER.search(said)
    if m is None:
        return None
    units = [mp.pint_unit(u.replace("^", "**")) for u in (m.group(2), m.group(4))]
    if any(u is None for u in units) or not mp.same_dim(units[0].dim, units[1].dim):
        return None
    a, b = float(m.group(1)) * units[0].factor, float(m.group(3)) * units[1].factor
    return None if abs(a - b) <= 0.02 * max(abs(a), abs(b)) else m


def given_continuations(text: str, steps: Sequence[Any]) -> dict[int, list[str]]:
    """The lines below a <given> step's own "Step k:" line that go on stating values ("Step 1: m1 = 22 kg"
    then "m2 (mass of the beam) = 38 kg" on the next line), up to a blank line, a tag or the next step,
    by step index: they are given statements of that step (a small model lists several givens under one
    number), checked like it. Lines without a digit (prose) are not read; a step whose content is all
    below its marker is `continued_steps`' case."""
    out: dict[int, list[str]] = {}
    for k, raw in lines_below_steps(text, steps, lambda step: step.tag == "given").items():
        lines = [re.sub(r"^\s*(?:[-*>•]\s*)+", "", line).strip() for line in raw]  # list bullets
        lines = [line for line in lines if re.search(r"\d", line)]
        if lines:
            out[k] = lines[:MAX_CLAUSES]
    return out


_FINAL_MARK = re.compile(r"<\s*final[ _]?answer\b[^<\n]*?>?|\bfinal[ _]answer\s*(?:is\b|:|=)?", re.IGNORECASE)


def final_text(parsed: Any, text: str = "") -> str:
    """The final answer: the <final_answer> section, else (broken tags) the text after the last
    `<final_answer` / "Final answer:" marker, up to the next tag or blank line."""
    if (parsed.final_answer or "").strip():
        return parsed.final_answer
    marks = [m for m in _FINAL_MARK.finditer(text or "") if not text[max(m.start() - 1, 0):m.start() + 2]
             .lstrip().startswith("</")]
    if not marks:
        return ""
    rest = text[marks[-1].end():]
    rest = re.split(r"<|\n\s*\n|^\s*Step\s+\d+\s*:", rest, maxsplit=1, flags=re.MULTILINE)[0]
    return rest.strip()
