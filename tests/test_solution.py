"""The seven-tag format: rendering, parsing, each compliance rule, and step counting."""

import pytest

from physr3.solution import (
    REASONING_TAGS,
    count_steps,
    parse_solution,
    render_solution,
    step_tag,
    validate,
)

SECTIONS = {
    "given": ["m = 2.0 kg (mass of the block)", "F = 10 N (horizontal force; surface frictionless)"],
    "find": ["a, the acceleration of the block"],
    "concept": ["Newton's second law; friction is absent, so F is the net force."],
    "governing_equation": ["a = F / m"],
    "substitution": ["a = (10 N) / (2.0 kg)"],
    "calculation": ["a = 5.0 m/s^2"],
}
GOOD = render_solution(SECTIONS, "5.0 m/s^2")


def test_rendered_solution_matches_design_example_and_is_compliant():
    assert GOOD.splitlines()[:4] == ["<given>", "Step 1: m = 2.0 kg (mass of the block)",
                                     "Step 2: F = 10 N (horizontal force; surface frictionless)", "</given>"]
    report = validate(GOOD)
    assert report.compliant, report.violations
    assert report.n_steps == 7


def test_parse_reads_sections_steps_and_final_answer():
    parsed = parse_solution(GOOD)
    assert parsed.final_answer == "5.0 m/s^2"
    assert [s.number for s in parsed.steps] == list(range(1, 8))
    assert parsed.step(5).tag == "governing_equation"
    assert parsed.step(5).text == "a = F / m"
    assert step_tag(GOOD, 7) == "calculation"
    assert step_tag(GOOD, 8) is None


def test_render_refuses_missing_section():
    with pytest.raises(ValueError, match="concept"):
        render_solution({k: v for k, v in SECTIONS.items() if k != "concept"}, "x")


@pytest.mark.parametrize(
    "mutate, expected",
    [
        (lambda s: s.replace("<concept>\n", "").replace("</concept>\n", ""), "missing <concept>"),
        (lambda s: s.replace("</find>", ""), "<find> is not closed"),
        (lambda s: s + "\n<given>\nStep 8: x\n</given>", "<given> appears 2 times"),
        (lambda s: s.replace("5.0 m/s^2\n</final_answer>", "\n</final_answer>"), "<final_answer> is empty"),
        (lambda s: s.replace("Step 4:", "Step 5:"), "expected Step 4, found Step 5"),
        (lambda s: s.replace("5.0 m/s^2\n</final_answer>", "Step 8: 5.0 m/s^2\n</final_answer>"),
         "<final_answer> contains step(s) 8"),
        (lambda s: "Step 0: preamble\n" + s, "outside any tag"),
        (lambda s: s.replace("Step 4: ", ""), "<concept> has no numbered step"),
    ],
)
def test_each_rule_names_its_violation(mutate, expected):
    report = validate(mutate(GOOD))
    assert not report.compliant
    assert any(expected in v for v in report.violations), report.violations


def test_tags_out_of_order_are_reported():
    swapped = GOOD.replace("<given>", "<TMP>").replace("</given>", "</TMP>")
    given_block = swapped[swapped.index("<TMP>"): swapped.index("</TMP>") + 6]
    swapped = swapped.replace(given_block + "\n", "")
    swapped = swapped.replace("</find>", "</find>\n" + given_block).replace("TMP", "given")
    report = validate(swapped)
    assert any("out of order" in v for v in report.violations), report.violations


def test_step_quoted_in_prose_is_not_a_step():
    text = GOOD.replace("Newton's second law;", "Newton's second law (as in Step 9: of the notes);")
    assert count_steps(text) == 7
    assert validate(text).compliant
    # The paper's unanchored pattern counts the quoted one as well.
    assert count_steps(text, pattern="paper") == 8


def test_markdown_heading_steps_are_counted_by_both_patterns():
    text = "## Step 1: a\n### Step 2: b"
    assert count_steps(text) == 2
    assert count_steps(text, pattern="paper") == 2


def test_unknown_pattern_lists_valid_ones():
    with pytest.raises(ValueError, match="anchored, paper"):
        count_steps(GOOD, pattern="fuzzy")


def test_empty_and_garbage_input_never_raise():
    for text in ("", "no tags at all", "<given>", "</final_answer><given>"):
        report = validate(text)
        assert not report.compliant
        assert report.violations


def test_reasoning_tags_are_the_first_six():
    assert len(REASONING_TAGS) == 6 and "final_answer" not in REASONING_TAGS
