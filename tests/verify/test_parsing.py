"""Judge-reply parsing: every shape judges really write is read, nothing else ever raises."""

import random
import string

import pytest

from physr3.verify.parsing import JudgeParseError, JudgeReply, normalize_error_type, parse_judge_reply

CASES = [
    # (reply text, error_step, error_type)
    ('{"error_step": 3, "error_type": "Conceptual Error", "error_explanation": "wrong law"}', 3, "CM"),
    ('```json\n{"error_step": 5, "error_type": "Computational Error", "error_explanation": "x"}\n```', 5, "CE"),
    ('Here is my evaluation:\n{"error_step": 1, "error_type": "Problem Miscomprehension", '
     '"error_explanation": "misread m"}\nLet me know if you need more.', 1, "MC"),
    ("{'error_step': 2, 'error_type': 'Conceptual Error', 'error_explanation': \"it's the wrong law\"}", 2, "CM"),
    ('{"error_step": 4, "error_type": "Computational Error", "error_explanation": "slip",}', 4, "CE"),
    ("{'error_step': None, 'error_type': 'no_error', 'error_explanation': 'fine', 'sure': True}", 0, "none"),
    ('{"error_step": 0, "error_type": "no_error", "error_explanation": "No error in your solution."}', 0, "none"),
    ('{"error_step": "Step 6", "error_type": "CE", "error_explanation": "x"}', 6, "CE"),
    ('{"error_step": 6.0, "error_type": "computational error (arithmetic)", "error_explanation": "x"}', 6, "CE"),
    ('{"Error Step": 2, "Error Type": "conceptual misapplication", "Explanation": "x"}', 2, "CM"),
    ('{"verdict": {"error_step": 3, "error_type": "MC", "error_explanation": "x"}}', 3, "MC"),
    ('```\n{\n  "error_step": 7,\n  "error_type": "Calculation Error",\n}\n```', 7, "CE"),
    ("error_step: 3, error_type: 'Computational Error', explanation: 'off by 10'", 3, "CE"),
    ('{"error_type": "no_error", "error_explanation": "all good"}', 0, "none"),
    ('{"error_step": 2, "error_type": "Problem Misunderstanding", "error_explanation": "x"', 2, "MC"),  # cut off
    ('{"error_step": 12, "error_type": "Conceptual Error"}', 12, "CM"),  # range is the judge's business
]


@pytest.mark.parametrize("text,step,etype", CASES)
def test_reads_the_shapes_judges_write(text, step, etype):
    reply = parse_judge_reply(text)
    assert isinstance(reply, JudgeReply)
    assert (reply.error_step, reply.error_type) == (step, etype)


def test_explanation_and_repair_are_reported():
    reply = parse_judge_reply('{"error_step": 4, "error_type": "CE", "error_explanation": "slip",}')
    assert reply.explanation == "slip" and reply.repaired == "trailing_comma"
    assert parse_judge_reply('{"error_step": 1, "error_type": "MC"}').repaired == "json"


def test_unknown_type_is_kept_as_unknown_for_the_judge_to_resolve():
    assert parse_judge_reply('{"error_step": 2, "error_type": "bad vibes"}').error_type == "unknown"


@pytest.mark.parametrize("text", ["", "   ", None, "I think the solution is fine.", "{}", '{"foo": 1}',
                                  '{"error_type": "Conceptual Error"}', '{"error_step": "many"}', "[1, 2, 3]",
                                  '{"error_step": true, "error_type": "CE"}'])
def test_unreadable_replies_raise_only_judge_parse_error(text):
    with pytest.raises(JudgeParseError):
        parse_judge_reply(text)


def test_random_garbage_never_raises_anything_else():
    rng = random.Random(0)
    alphabet = string.printable + "{}{}[]''\"\":,"
    for _ in range(1500):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 80)))
        try:
            parse_judge_reply(text)
        except JudgeParseError:
            pass


@pytest.mark.parametrize("name,canon", [
    ("Problem Miscomprehension", "MC"), ("problem_miscomprehension", "MC"), ("MC", "MC"),
    ("Conceptual Error", "CM"), ("conceptual misapplication", "CM"), ("CM", "CM"),
    ("Computational Error", "CE"), ("calculation error", "CE"), ("Arithmetic mistake", "CE"), ("CE", "CE"),
    ("no_error", "none"), ("No error", "none"), (None, "none"), ("none", "none"),
    ("Conceptual Error (CM)", "CM"), ("banana", "unknown"),
])
def test_category_names_map_to_codes(name, canon):
    assert normalize_error_type(name) == canon
