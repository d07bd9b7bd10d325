"""Answer extraction and scoring on real-looking model outputs, and `physr3 score-answers`."""

import json
import subprocess
import sys

import pytest

from physr3.cli import main
from physr3.eval.answers import (
    extract_answer,
    final_answer_tag,
    last_pattern,
    match_option,
    parse_letters,
    score,
    short_text,
    summarize,
)
from physr3.solution import render_solution

SEVEN_TAG = render_solution(
    {"given": ["m = 2.0 kg", "F = 10 N"], "find": ["a"], "concept": ["Newton's second law"],
     "governing_equation": ["a = F/m"], "substitution": ["a = 10 N / 2.0 kg"], "calculation": ["a = 5.0 m/s^2"]},
    "5.0 m/s^2")

LONG_COT_MCQ = """Let's compute the stopping potential data.
From eV0 = hc/λ - φ, the slope of V0 against 1/λ is hc/e.
Using (0.3, 2.0) and (0.4, 1.0): slope = 1.0 / (1/0.3 - 1/0.4) µm V = 1.2 µm V.
So h = 1.2e-6 * 1.6e-19 / 3e8 = 6.4e-34 J s.
Option (A) 6.0 is too small and option (C) is too large.
Therefore, the correct option is (B)."""

LONG_COT_MULTI = r"""For Rydberg states, $r_n \propto n^2/Z$, so $\Delta r / r \approx 2/n$ independent of $Z$: (A) is correct.
The relative change in radius varies as $1/n$: (B) is correct.
Energy $E_n \propto Z^2/n^2$ so $\Delta E/E \approx 2/n$, not $1/n^3$: (C) is wrong.
Angular momentum $L = n\hbar$ so $\Delta L / L = 1/n$: (D) is correct.

**Final Answer:** $\boxed{ABD}$"""

NO_ANSWER_RAMBLE = ("To solve this we need to think about energy conservation carefully and consider the forces "
                    "acting on the block while it slides down the incline, including friction which opposes "
                    "the motion, and then we should")


# ---- filters -------------------------------------------------------------------------------------

def test_final_answer_tag_wins_over_patterns_in_the_body():
    text = "The answer is 3 m/s^2 at first glance.\n" + SEVEN_TAG
    assert final_answer_tag(text) == "5.0 m/s^2"
    assert extract_answer(text, "numeric_unit").method == "final_answer"


def test_unclosed_final_answer_at_the_end_of_a_truncated_generation_counts():
    assert final_answer_tag("<calculation>\nStep 7: x\n</calculation>\n<final_answer>\n12 J") == "12 J"


def test_last_pattern_takes_the_latest_of_answer_is_boxed_and_option():
    assert last_pattern("The answer is A. Wait, recheck: $\\boxed{C}$", "mcq") == ("C", "boxed")
    assert last_pattern("We get \\boxed{2}. So the final answer is 3.", "integer") == ("3", "answer_is")
    assert last_pattern(LONG_COT_MCQ, "mcq") == ("(B)", "answer_is")


def test_option_phrases_only_for_multiple_choice():
    assert last_pattern("Hence we choose option (D).", "mcq") == ("(D)", "option")
    assert last_pattern("Hence we choose option (D).", "numeric") is None


def test_boxed_inside_answer_phrase_keeps_the_unit():
    assert last_pattern("Answer: $\\boxed{2.5}$ m/s", "numeric_unit") == ("$\\boxed{2.5}$ m/s", "answer_is")
    assert last_pattern("The answer is 3 m/s, or rather \\boxed{2.5 m/s}", "numeric_unit") == ("2.5 m/s", "boxed")


def test_short_text_only_for_short_predictions():
    assert short_text("  ABD ") == "ABD"
    assert short_text(NO_ANSWER_RAMBLE) is None
    assert extract_answer(NO_ANSWER_RAMBLE, "numeric").method == "none"


@pytest.mark.parametrize("span,letters", [
    ("B", "B"), ("(B)", "B"), ("(b)", "B"), ("Option C", "C"), ("\\text{(D)}", "D"), ("**A**", "A"),
    ("ABD", "ABD"), ("A, B and D", "ABD"), ("(A), (C)", "AC"), ("options B & C", "BC"), ("[A] and [D]", "AD"),
    ("(B) $6.4 \\times 10^{-34}$", "B"), ("B) 6.4e-34 J s", "B"), ("\\boxed{A, C}", "AC"), ("B, since", "B"),
    ("Options A and C are correct", "AC"),
])
def test_parse_letters(span, letters):
    assert parse_letters(span) == frozenset(letters)


@pytest.mark.parametrize("span", ["5 C", "6.4e-34", "none of these", ""])
def test_parse_letters_finds_none(span):
    assert parse_letters(span) is None


# ---- scoring -------------------------------------------------------------------------------------

CASES = [
    # gold, prediction, type, correct, score, reason
    ("B", "<final_answer>\nB\n</final_answer>", "mcq", True, 1.0, "match"),
    ("B", LONG_COT_MCQ, "mcq", True, 1.0, "match"),
    ("B", "Thus the answer is (B) 6.4 × 10^{-34} J s.", "mcq", True, 1.0, "match"),
    ("B", "Therefore, the correct option is $\\boxed{B}$.", "mcq", True, 1.0, "match"),
    ("D", "Answer: C", "mcq", False, 0.0, "mismatch"),
    ("B", "AB", "mcq", False, 0.0, "mismatch"),
    ("B", NO_ANSWER_RAMBLE, "mcq", False, 0.0, "no_answer"),
    ("B", "<final_answer>6.4 × 10^-34</final_answer>", "mcq", False, 0.0, "unparseable"),
    ("ABD", LONG_COT_MULTI, "mcq_multi", True, 1.0, "match"),
    ("ABD", "The correct options are (A), (B) and (D).", "mcq_multi", True, 1.0, "match"),
    ("ABD", "Final Answer: A, B", "mcq_multi", False, 0.5, "partial"),
    ("ABD", "<final_answer>D</final_answer>", "mcq_multi", False, 0.25, "partial"),
    ("ABD", "**Answer:** ABC", "mcq_multi", False, 0.0, "mismatch"),
    ("CD", "After analysis, the answer is C.", "mcq_multi", False, 0.25, "partial"),
    ("C", "<final_answer>(A) and (C)</final_answer>", "mcq_multi", False, 0.0, "mismatch"),
    ("9", "Hence the sensor reads $\\boxed{9}$.", "integer", True, 1.0, "match"),
    ("9", "The answer is 9.0", "integer", True, 1.0, "match"),
    ("9", "The answer is 8", "integer", False, 0.0, "mismatch"),
    ("2", "<final_answer>τ = 2.00 s</final_answer>", "numeric", True, 1.0, "match"),
    ("0.75", "The answer is 0.76", "numeric", True, 1.0, "match"),
    ("0.75", "The answer is 0.77", "numeric", False, 0.0, "mismatch"),
    ("100.00", "100.01", "numeric", True, 1.0, "match"),
    ("5.56", "So the final answer is \\frac{50}{9}.", "numeric", True, 1.0, "match"),
    ("5.56", "The final answer is None", "numeric", False, 0.0, "unparseable"),
    ("5.0 m/s^2", SEVEN_TAG, "numeric_unit", True, 1.0, "match"),
    ("5.0 m/s^2", "so a = 500 cm/s² to the right", "numeric_unit", True, 1.0, "match"),
    ("5.0 m/s^2", "<final_answer>$a = 5.0\\,\\mathrm{m\\,s^{-2}}$</final_answer>", "numeric_unit", True, 1.0, "match"),
    ("5.0 m/s^2", "<final_answer>5.04 m/s^2</final_answer>", "numeric_unit", True, 1.0, "match"),
    ("5.0 m/s^2", "<final_answer>5.06 m/s^2</final_answer>", "numeric_unit", False, 0.0, "mismatch"),
    ("5.0 m/s^2", "a = 5.0 m/s", "numeric_unit", False, 0.0, "dimension_mismatch"),
    ("5.0 m/s^2", "<final_answer>5.0 N</final_answer>", "numeric_unit", False, 0.0, "dimension_mismatch"),
    ("5.0 m/s^2", "5.0", "numeric_unit", False, 0.0, "missing_unit"),
    ("3.2e-19 J", "E = 2 eV", "numeric_unit", True, 1.0, "match"),
    ("3.2e-19 J", "$E = 0.2 \\times 10^{-18}\\,\\mathrm{J}$", "numeric_unit", False, 0.0, "mismatch"),
    ("3.2 \\times 10^{-19} \\mathrm{~J}", "The energy is 3.2e-19 J.", "numeric_unit", True, 1.0, "match"),
    ("1.5 kJ", "The work done is 1500 J.", "numeric_unit", True, 1.0, "match"),
    ("1.5 kJ", NO_ANSWER_RAMBLE, "numeric_unit", False, 0.0, "no_answer"),
    ("300 K", "27 °C", "numeric_unit", True, 1.0, "match"),
    ("2.0 \\mu C", "<final_answer>q = 2.0 × 10⁻⁶ C</final_answer>", "numeric_unit", True, 1.0, "match"),
    ("0.25", "25%", "numeric_unit", True, 1.0, "match"),
    ("0 N", "The net force is 0 N.", "numeric_unit", True, 1.0, "match"),
    ("-9.8 m/s^2", "a = −9.8 m/s²", "numeric_unit", True, 1.0, "match"),
    ("-9.8 m/s^2", "a = 9.8 m/s²", "numeric_unit", False, 0.0, "mismatch"),
]


@pytest.mark.parametrize("gold,pred,kind,correct,value,reason", CASES)
def test_score(gold, pred, kind, correct, value, reason):
    result = score(gold, pred, kind)
    assert (result.correct, result.score, result.reason) == (correct, pytest.approx(value), reason), result


def test_relative_tolerance_is_configurable_and_missing_unit_can_be_allowed():
    assert not score("5.0 m/s^2", "5.2 m/s^2", "numeric_unit").correct
    assert score("5.0 m/s^2", "5.2 m/s^2", "numeric_unit", rel_tol=0.05).correct
    assert score("5.0 m/s^2", "5.0", "numeric_unit", allow_missing_unit=True).correct


def test_option_text_maps_back_to_its_letter():
    options = ["$6.0 \\times 10^{-34}$", "$6.4 \\times 10^{-34}$", "$6.6 \\times 10^{-34}$", "$6.8 \\times 10^{-34}$"]
    assert match_option("6.4e-34", options) == "B"
    assert score("B", "<final_answer>6.4 × 10^-34</final_answer>", "mcq", options=options).correct
    assert match_option("0.5 A", ["0.25 A", "0.5 A", "2:00 AM", "4:00 AM"]) == "B"


def test_bad_gold_or_type_is_a_value_error():
    with pytest.raises(ValueError, match="gold"):
        score("banana", "B", "mcq")
    with pytest.raises(ValueError, match="gold"):
        score("fast", "The answer is 3 m/s", "numeric_unit")
    with pytest.raises(ValueError, match="answer type"):
        score("B", "B", "essay")


def test_summarize_counts_no_answer_apart():
    results = [score("B", "B", "mcq"), score("B", "C", "mcq"), score("B", NO_ANSWER_RAMBLE, "mcq"),
               score("AB", "A", "mcq_multi")]
    s = summarize(results)
    assert (s["n"], s["correct"], s["no_answer"]) == (4, 1, 1)
    assert s["mean_score"] == pytest.approx((1 + 0 + 0 + 0.25) / 4)
    assert s["reasons"] == {"match": 1, "mismatch": 1, "no_answer": 1, "partial": 1}


# ---- CLI -----------------------------------------------------------------------------------------

def test_score_answers_prints_one_line_per_input(tmp_path, capsys):
    path = tmp_path / "p.jsonl"
    rows = [{"gold": "ABD", "pred": LONG_COT_MULTI, "type": "mcq_multi"},
            {"gold": "5.0 m/s^2", "pred": "5.0 m/s", "type": "numeric_unit"},
            {"gold": ["C"], "pred": "I am not sure.", "type": "mcq", "id": "q3"}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert main(["score-answers", str(path)]) == 0
    out, err = capsys.readouterr()
    lines = [json.loads(x) for x in out.splitlines()]
    assert [x["reason"] for x in lines] == ["match", "dimension_mismatch", "no_answer"]
    assert {"correct", "score", "extracted", "reason"} <= set(lines[0])
    assert lines[0]["extracted"] == "ABD" and lines[2]["id"] == "q3"
    assert "1/3 correct" in err and "no answer 1" in err


@pytest.mark.parametrize("row,field", [
    ({"pred": "B", "type": "mcq"}, "gold"),
    ({"gold": "B", "type": "mcq"}, "pred"),
    ({"gold": "B", "pred": "B", "type": "essay"}, "type"),
    ({"gold": "B", "pred": 3, "type": "mcq"}, "pred"),
    ({"gold": "zebra", "pred": "B", "type": "mcq"}, "gold"),
])
def test_score_answers_malformed_line_names_file_line_field(tmp_path, capsys, row, field):
    path = tmp_path / "p.jsonl"
    path.write_text(json.dumps({"gold": "A", "pred": "A", "type": "mcq"}) + "\n" + json.dumps(row) + "\n")
    assert main(["score-answers", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"physr3 score-answers: error: {path}:2: field '{field}'") and err.count("\n") == 1


def test_score_answers_subprocess_bad_json(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_text('{"gold": "A", "pred": "A", "type": "mcq"}\n{not json\n')
    proc = subprocess.run([sys.executable, "-m", "physr3.cli", "score-answers", str(path)],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and f"{path}:2" in proc.stderr and "Traceback" not in proc.stderr
