"""Every command of the CLI, walked over a fixed set of bad files: exit 2, one line naming the file, no traceback.

The table `CASES` holds, per command in `physr3.cli.COMMANDS`, the ways a user's file reaches it (an
argument list with `{bad}` where the bad file goes). `test_the_table_covers_every_command_and_file_option`
derives the list of commands and of their file-taking options from the CLI itself, so a new command or a
new file option without a row here fails the suite: add a `Case` (or, for an option the walk cannot
reach quickly, a line in `NOT_WALKED` with the reason).

The bad files: `binary` (bytes that are not UTF-8), `directory`, `array` (a JSON array, not an object),
`wrong_types` (a JSON object whose every field has the wrong type), `empty` (zero bytes), `missing` (no
such path) and `huge_line` (one 50 MB line). A case may declare some of them not bad for its argument
(`accepts`, with the documented reason: e.g. an output file that does not exist yet). After every run the
bad file is unchanged: nothing a user already had is lost.

The walk runs in-process through `physr3.cli.main` (fast); a few cases also run as real subprocesses to
prove that no traceback reaches stderr.
"""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from physr3.cli import COMMANDS, main
from physr3.problems import write_jsonl
from support import serve_env

KINDS = ("binary", "directory", "array", "wrong_types", "empty", "missing", "huge_line")
HUGE_BYTES = 50 * 2**20


@dataclass
class Case:
    """One way a file reaches a command: `argv` with `{bad}` (the bad path), `{good}` (a valid problems
    JSONL with ground truth), `{tmp}` (a fresh folder); `accepts` maps bad kinds that are valid for this
    argument to the reason; `in_run` puts the bad file in place as `RUN/<name>` of a fresh run folder."""

    argv: list[str]
    accepts: dict[str, str] = field(default_factory=dict)
    in_run: str | None = None


OUT_ACCEPTS = {"missing": "a new output file", "empty": "an empty output: nothing to resume",
               "wrong_types": "a JSON object line is a row of an earlier run, kept and resumed"}
CODE_ACCEPTS = {"array": "a valid Python expression", "wrong_types": "a valid Python expression (a dict)"}
OVERWRITE_ACCEPTS = {k: "--out is written atomically (replaced)" for k in KINDS if k != "directory"}
FAST = ["run.output_dir={tmp}", "model.name_or_path={tmp}/no-model"]  # a model load would fail, not hang
SCRIPTED = "support.responders:ScriptedResponder.from_file"  # serve's test double reading a rules file

CASES: dict[str, list[Case]] = {
    "demo": [Case(["--config", "{bad}", "--no-progress"])],
    "synth": [Case(["--config", "{bad}", "--n", "1", "--out", "{tmp}/o.jsonl"])],
    "check-format": [Case(["{bad}"])],
    "generate": [Case(["--input", "{bad}", "--out", "{tmp}/o.jsonl", *FAST]),
                 Case(["--input", "{good}", "--out", "{bad}", *FAST], accepts=OUT_ACCEPTS),
                 Case(["--config", "{bad}", "--input", "{good}", "--out", "{tmp}/o.jsonl"])],
    "sft": [Case(["--data", "{bad}", *FAST]),
            Case(["--data", "{good}", "--eval-data", "{bad}", *FAST]),
            Case(["--resume", "{bad}"]),
            Case(["--config", "{bad}", "--data", "{good}"])],
    "train": [Case(["--data", "{bad}", "--no-progress", *FAST]),
              Case(["--resume", "{bad}"]),
              Case(["--config", "{bad}", "--data", "{good}"])],
    "dpo": [Case(["--data", "{bad}", *FAST]),
            Case(["--resume", "{bad}"]),
            Case(["--config", "{bad}", "--data", "{good}"])],
    "verify": [Case(["--input", "{bad}", "--out", "{tmp}/v.jsonl", "--verifier", "symbolic"]),
               Case(["--input", "{good}", "--out", "{bad}", "--verifier", "symbolic"], accepts=OUT_ACCEPTS),
               Case(["--input", "{good}", "--out", "{tmp}/v.jsonl", "--verifier", "llm", "--cache", "{bad}",
                     "--judge-base-url", "http://127.0.0.1:9/v1"],
                    accepts={"missing": "a new cache", "empty": "SQLite reads an empty file as an empty database"}),
               Case(["--config", "{bad}", "--input", "{good}", "--out", "{tmp}/v.jsonl"])],
    "serve": [Case(["--responder", SCRIPTED, "--responder-arg", "{bad}", "--port", "0"]),
              Case(["--config", "{bad}", "--responder", "support.responders:EchoResponder", "--port", "0"])],
    "benchmarks": [Case(["--path", "synth-test={bad}"]), Case(["--path", "jeebench={bad}"]),
                   Case(["--path", "scieval={bad}"])],
    "score-answers": [Case(["{bad}"])],
    "feedback": [Case(["--input", "{bad}", "--out", "{tmp}/f.jsonl"]),
                 Case(["--input", "{good}", "--out", "{bad}"], accepts=OVERWRITE_ACCEPTS),
                 Case(["--config", "{bad}", "--input", "{good}", "--out", "{tmp}/f.jsonl"])],
    "sandbox": [Case(["{bad}"], accepts=CODE_ACCEPTS)],
    "eval": [Case(["--benchmark", "synth-test={bad}", "--no-progress", *FAST]),
             Case(["--benchmark", "physicsqa={bad}", "--no-progress", *FAST]),
             Case(["--benchmark", "jeebench={bad}", "--no-progress", *FAST]),
             Case(["--config", "{bad}", "--benchmark", "synth-test={good}", "--no-progress"])],
    "report": [Case(["{bad}", "--out", "{tmp}/report"]),
               Case(["{run}", "--out", "{tmp}/report"], in_run="summary.json")],
    "study": [Case(["--config", "{bad}", "--no-progress"])],
    "agreement": [Case(["{bad}", "{bad}"])],
    "convert": [Case(["--input", "{bad}", "--out", "{tmp}/c.jsonl", "--teacher-base-url", "http://127.0.0.1:9/v1",
                      "--no-progress"]),
                Case(["--config", "{bad}", "--input", "{good}", "--out", "{tmp}/c.jsonl"])],
    "topics": [Case(["--out", "{tmp}/topics", "{bad}", "--no-progress"]),
               Case(["--config", "{bad}", "--out", "{tmp}/topics", "scieval", "--no-progress"])],
    "contamination": [Case(["--train", "{bad}", "--benchmark", "scieval", "--no-semantic", "--no-progress"]),
                      Case(["--train", "{good}", "--benchmark", "synth-test={bad}", "--no-semantic",
                            "--no-progress"]),
                      Case(["--config", "{bad}", "--train", "{good}", "--benchmark", "scieval", "--no-semantic"])],
    "scaling": [Case(["--model", "embedded", "--benchmark", "synth-test={bad}", "--out", "{tmp}/s",
                      "--no-progress"]),
                Case(["--config", "{bad}", "--model", "embedded", "--benchmark", "scieval", "--out", "{tmp}/s"])],
    "config": [Case(["--config", "{bad}"])],
}

# File-taking options (by argparse dest) that the walk must reach; an option of a command that is neither
# walked above nor listed in NOT_WALKED fails test_the_table_covers_every_command_and_file_option.
FILE_DESTS = {"file", "input", "out", "data", "eval_data", "config", "path", "benchmark", "runs", "cache",
              "responder", "responder_arg", "resume", "sft_adapter", "model"}
NOT_WALKED = {
    ("synth", "out"): "an output written atomically (replaced), never read",
    ("report", "out"): "an output folder",
    ("topics", "out"): "an output folder",
    ("scaling", "out"): "an output folder",
    ("contamination", "out"): "an output written at the end, never read",
    ("convert", "out"): "appended like generate's --out (tests/corpus/test_convert.py resumes from it)",
    ("convert", "cache"): "the judge's SQLite cache (walked under verify --cache)",
    ("scaling", "model"): "a model folder or hub id, read by the model loader (tests/eval/test_scaling.py)",
    ("dpo", "sft_adapter"): "a PEFT folder, read when the model loads (tests/train)",
    ("train", "sft_adapter"): "a PEFT folder, read when the model loads (tests/train)",
    ("serve", "model"): "a model folder or hub id, read by the model loader (tests/models/test_loading.py)",
}


def _option_strings(parser: argparse.ArgumentParser) -> dict[str, str]:
    """dest -> how it is written on the command line ('--input', or the dest of a positional)."""
    return {a.dest: (a.option_strings[0] if a.option_strings else a.dest) for a in parser._actions}


def _parser(name: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=f"physr3 {name}")
    importlib.import_module(f"physr3.commands.{COMMANDS[name][0]}").add_arguments(parser)
    return parser


def test_the_table_covers_every_command_and_file_option():
    assert set(CASES) == set(COMMANDS), "add a Case for each new command (and drop removed ones)"
    for name in COMMANDS:
        for dest, flag in _option_strings(_parser(name)).items():
            if dest not in FILE_DESTS or (name, dest) in NOT_WALKED:
                continue
            walked = any(flag in case.argv or (not flag.startswith("-") and case.argv[0] in ("{bad}", "{run}"))
                         for case in CASES[name])
            assert walked, f"physr3 {name} {flag}: a file option with no Case in the walk (or NOT_WALKED reason)"


@pytest.fixture(scope="module")
def bad_files(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("bad")
    files = {k: root / f"{k}.jsonl" for k in KINDS}
    files["binary"].write_bytes(b"\xff\xfe" + bytes(range(256)) * 64)  # a UTF-16 mark, then every byte
    files["directory"].mkdir()
    files["array"].write_text('[{"id": "a"}, 2, 3]\n')
    files["wrong_types"].write_text(
        '{"id": [1], "question": 5, "answer": {"v": 1}, "solution": 7, "gold": [], "pred": 3, "type": 1, '
        '"answer_type": 2, "error_step": "x", "chosen": 5, "rejected": 6, "reply": 3, "cot": 4, '
        '"subject": "phy", "category": "physics", "run": {"name": 1}}\n')
    files["empty"].write_bytes(b"")
    with open(files["huge_line"], "wb") as fh:  # one valid JSON object on one 50 MB line, no newline
        fh.write(b'{"id": "big", "question": "')
        fh.write(b"x" * HUGE_BYTES)
        fh.write(b'", "answer": "1"}')
    return files


@pytest.fixture(scope="module")
def good_file(tmp_path_factory) -> Path:
    from physr3.synth.generate import generate_problems
    from physr3.synth.inject import problem_row

    path = tmp_path_factory.mktemp("good") / "problems.jsonl"
    rows = [problem_row(p) for p in generate_problems(2, 0)]
    write_jsonl(path, [{**row, "ground_truth_solution": row["solution"]} for row in rows])  # for the LLM judge
    return path


def _walk_params():
    for name, cases in CASES.items():
        for i, case in enumerate(cases):
            for kind in KINDS:
                if kind not in case.accepts:
                    yield pytest.param(name, i, kind, id=f"{name}-{i}-{kind}")


def _place(case: Case, bad: Path, tmp: Path) -> tuple[list[str], Path]:
    """The argv of a case for one bad file, and the path its error message must name."""
    subs = {"{bad}": str(bad), "{tmp}": str(tmp)}
    named = bad
    if case.in_run:
        run = tmp / "run"
        run.mkdir()
        if bad.exists():
            (run / case.in_run).symlink_to(bad)
        subs["{run}"] = str(run)
        named = run
    argv = []
    for arg in case.argv:
        for key, value in subs.items():
            arg = arg.replace(key, value)
        argv.append(arg)
    return argv, named


def _fingerprint(path: Path) -> tuple | None:
    if not path.exists():
        return None
    st = path.stat()
    return (st.st_size, st.st_mtime_ns, path.is_dir())


@pytest.mark.parametrize("name,index,kind", list(_walk_params()))
def test_every_command_refuses_every_bad_file(name, index, kind, bad_files, good_file, tmp_path, capsys,
                                              monkeypatch):
    monkeypatch.setenv("PHYSR3_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PHYSR3_SYNTH_TEST", raising=False)
    monkeypatch.delenv("PHYSR3_PHYSICSQA", raising=False)
    case = CASES[name][index]
    bad = bad_files[kind]
    before = _fingerprint(bad)
    argv, named = _place(case, bad, tmp_path)
    argv = [a.replace("{good}", str(good_file)) for a in argv]
    try:
        code = main([name, *argv])
    except SystemExit as exc:  # argparse
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2, f"physr3 {name} {' '.join(argv)}: exit {code}, stderr {err[-500:]!r}"
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"physr3 {name}: error: "), err[-2000:]
    assert str(named) in lines[0], f"the message does not name {named}: {lines[0]}"
    assert "Traceback" not in err and len(lines[0]) < 1000
    assert _fingerprint(bad) == before, "the bad file was modified"


SUBPROCESS_CASES = [
    (["check-format", "{binary}"], "binary"),
    (["verify", "--input", "{directory}", "--out", "{tmp}/v.jsonl"], "directory"),
    (["train", "--data", "{huge_line}", "run.output_dir={tmp}"], "huge_line"),
    (["serve", "--responder", SCRIPTED, "--responder-arg", "{array}", "--port", "0"], "array"),
    (["sandbox", "{empty}"], "empty"),
]


@pytest.mark.parametrize("argv,kind", SUBPROCESS_CASES, ids=[a[0] for a, _ in SUBPROCESS_CASES])
def test_no_traceback_reaches_stderr_of_a_real_process(argv, kind, bad_files, tmp_path):
    argv = [a.format(tmp=tmp_path, **{k: str(v) for k, v in bad_files.items()}) for a in argv]
    env = serve_env(dict(os.environ, PHYSR3_CACHE_DIR=str(tmp_path / "cache")))  # tests/ on PYTHONPATH
    proc = subprocess.run([sys.executable, "-m", "physr3.cli", *argv], capture_output=True, text=True,
                          env=env, timeout=300)
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr[-2000:]
    assert str(bad_files[kind]) in proc.stderr


def test_a_file_system_refusal_is_one_line_too(tmp_path, capsys):
    run = tmp_path / "run"
    run.mkdir()
    (run / "summary.json").write_text('{"cot": {"b": {"n": 2, "mean_score": 0.5, "accuracy": 0.5, "error_types": {}}}}')
    blocker = tmp_path / "a_file"
    blocker.write_text("keep me")
    assert main(["report", str(run), "--out", str(blocker / "report")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(blocker) in err and "Traceback" not in err
    assert blocker.read_text() == "keep me"
