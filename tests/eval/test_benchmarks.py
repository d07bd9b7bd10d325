"""Benchmark loaders over the shipped data: counts, types, options, duplicate flags, registry, CLI."""

import json
import subprocess
import sys

import pytest

from physr3.cli import main
from physr3.errors import UserError
from physr3.eval.answers import score_problem
from physr3.eval.benchmarks import (
    BENCHMARKS,
    data_dir,
    drop_duplicates,
    load_benchmark,
    register_benchmark,
    split_jee_options,
    type_counts,
)
from physr3.problems import write_jsonl
from physr3.prompts import render_question


@pytest.fixture(scope="module")
def loaded():
    return {name: load_benchmark(name) for name in ("jeebench", "mmlu-hs", "mmlu-college", "scieval")}


def test_data_folder_is_in_the_repository_with_sources():
    root = data_dir()
    assert (root / "README.md").is_file()
    for folder in ("jeebench", "mmlu_physics", "scieval", "formulas_openstax", "openstax_worked_examples"):
        assert (root / folder / "SOURCE.md").is_file(), folder


def test_jeebench_physics_counts_and_types(loaded):
    problems = loaded["jeebench"]
    assert len(problems) == 123
    assert type_counts(problems) == {"mcq": 27, "mcq_multi": 41, "integer": 22, "numeric": 33}
    assert len({p.id for p in problems}) == 123


def test_jeebench_options_parsed_for_every_multiple_choice_item(loaded):
    mc = [p for p in loaded["jeebench"] if p.answer_type in ("mcq", "mcq_multi")]
    assert all(p.options and len(p.options) == 4 and all(o.strip() for o in p.options) for p in mc)
    first = next(p for p in mc if p.id == "jeebench/2016-p1-q1")
    assert first.options[1] == "$6.4 \\times 10^{-34}$" and first.answer == "B"
    assert "(A)" not in first.question and render_question(first).endswith("D) $6.8 \\times 10^{-34}$")


def test_split_jee_options_bracket_and_math_markers():
    text = "Stem\n\n$[\\mathrm{A}] \\quad \\lambda_{d} / \\lambda$\n\n[B] x\n\n[C] y\n\n[D] z"
    assert split_jee_options(text) == ("Stem", ["$\\lambda_{d} / \\lambda$", "x", "y", "z"])
    assert split_jee_options("Which one? (A) only inline") is None


def test_mmlu_counts_all_splits_and_duplicates_flagged(loaded):
    hs, college = loaded["mmlu-hs"], loaded["mmlu-college"]
    assert len(hs) == 151 + 17 + 5 == 173
    assert len(college) == 102 + 11 + 5 == 118
    assert [sum(p.extra["split"] == s for p in college) for s in ("test", "val", "dev")] == [102, 11, 5]
    assert sum("duplicate_of" in p.extra for p in college) == 19
    assert len(drop_duplicates(college)) == 99
    assert sum("duplicate_of" in p.extra for p in hs) == 0
    assert sum("same_stem_as" in p.extra for p in hs) == 2
    dup = next(p for p in college if "duplicate_of" in p.extra)
    original = next(p for p in college if p.id == dup.extra["duplicate_of"])
    assert (original.question, original.options, original.answer) == (dup.question, dup.options, dup.answer)


def test_scieval_physics_valid(loaded):
    problems = loaded["scieval"]
    assert len(problems) == 164 and type_counts(problems) == {"mcq": 164}
    assert all(len(p.options) == 4 and p.answer in "ABCD" and len(p.answer) == 1 for p in problems)
    assert not any("Answer:" in p.question for p in problems)
    assert sum(p.domain == "Mechanics" for p in problems) > 80


def test_every_shipped_gold_answer_scores_as_correct_against_itself(loaded):
    for name, problems in loaded.items():
        for p in problems:
            assert score_problem(p, p.answer).correct, (name, p.id, p.answer)


def test_registry_refuses_duplicates_and_lists_names_on_unknown():
    with pytest.raises(ValueError, match="already registered"):
        register_benchmark("jeebench")(lambda path=None: [])
    with pytest.raises(UserError) as exc:
        load_benchmark("jeebenchh")
    assert all(name in str(exc.value) for name in BENCHMARKS)


def test_physicsqa_needs_a_file(monkeypatch, tmp_path):
    monkeypatch.delenv("PHYSR3_PHYSICSQA", raising=False)
    with pytest.raises(UserError, match="PHYSR3_PHYSICSQA"):
        load_benchmark("physicsqa")
    with pytest.raises(UserError, match="file not found"):
        load_benchmark("physicsqa", path=tmp_path / "missing.jsonl")


def test_user_sets_from_path_spec_and_env(monkeypatch, tmp_path):
    path = tmp_path / "pqa.jsonl"
    write_jsonl(path, [{"id": "1", "question": "A 2 kg mass ...", "answer": "5 m/s^2"},
                       {"id": "2", "question": "Which?", "answer": "B", "answer_type": "mcq",
                        "options": ["a", "b", "c", "d"]}])
    problems = load_benchmark(f"physicsqa={path}")
    assert [p.answer_type for p in problems] == ["numeric_unit", "mcq"] and problems[0].source == "physicsqa"
    monkeypatch.setenv("PHYSR3_SYNTH_TEST", str(path))
    assert len(load_benchmark("synth-test")) == 2
    assert len(load_benchmark(str(path))) == 2


def test_user_set_with_a_bad_line_names_file_line_field(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"id": "1", "question": "q", "answer": "1 m"}\n{"id": "2", "answer": "1 m"}\n')
    with pytest.raises(UserError, match=r"bad.jsonl:2: field 'question'"):
        load_benchmark("physicsqa", path=path)


def test_benchmarks_command_lists_counts_and_types(capsys, monkeypatch):
    monkeypatch.delenv("PHYSR3_PHYSICSQA", raising=False)
    monkeypatch.delenv("PHYSR3_SYNTH_TEST", raising=False)
    assert main(["benchmarks", "--json"]) == 0
    rows = {r["name"]: r for r in map(json.loads, capsys.readouterr().out.splitlines())}
    assert rows["jeebench"]["items"] == 123 and rows["jeebench"]["types"]["mcq_multi"] == 41
    assert rows["mmlu-college"]["duplicates_flagged"] == 19
    assert rows["scieval"]["items"] == 164 and rows["physicsqa"]["items"] is None


def test_benchmarks_command_table_via_subprocess(tmp_path):
    path = tmp_path / "pqa.jsonl"
    write_jsonl(path, [{"id": "1", "question": "q", "answer": "1 m"}])
    proc = subprocess.run([sys.executable, "-m", "physr3.cli", "benchmarks", "--path", f"physicsqa={path}"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    lines = {line.split()[0]: line for line in proc.stdout.splitlines() if line.strip()}
    assert "mcq 27, mcq_multi 41, integer 22, numeric 33" in lines["jeebench"]
    assert lines["physicsqa"].split()[1] == "1" and "not configured" in lines["synth-test"]
