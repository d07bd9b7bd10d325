"""The `physr3` command: check-format output, config printing, one-line errors with exit code 2."""

import json
import subprocess
import sys

from physr3.cli import main
from physr3.solution import render_solution

GOOD = render_solution({t: [f"{t} line"] for t in ("given", "find", "concept", "governing_equation",
                                                   "substitution", "calculation")}, "42 J")


def test_check_format_prints_one_json_line_per_input(tmp_path, capsys):
    path = tmp_path / "s.jsonl"
    rows = [{"id": "ok", "solution": GOOD}, {"id": "bad", "solution": GOOD.replace("Step 3:", "Step 4:")}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert main(["check-format", str(path)]) == 0
    out, err = capsys.readouterr()
    lines = [json.loads(x) for x in out.splitlines()]
    assert lines[0] == {"id": "ok", "compliant": True, "n_steps": 6, "violations": []}
    assert lines[1]["id"] == "bad" and not lines[1]["compliant"]
    assert "1/2 compliant" in err


def test_malformed_line_is_one_line_error_exit_2(tmp_path, capsys):
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps({"id": "a", "solution": GOOD}) + "\n" + json.dumps({"id": "b"}) + "\n")
    assert main(["check-format", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"physr3 check-format: error: {path}:2: field 'solution': required field is missing"


def test_bad_config_value_exit_2_without_traceback():
    proc = subprocess.run([sys.executable, "-m", "physr3.cli", "config", "train.beta=high"],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert "train.beta" in proc.stderr and "expected a number" in proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_debug_shows_traceback():
    proc = subprocess.run([sys.executable, "-m", "physr3.cli", "--debug", "config", "train.beta=high"],
                          capture_output=True, text=True)
    assert proc.returncode != 0 and "Traceback" in proc.stderr


def test_config_help_keys_lists_every_section(capsys):
    assert main(["config", "--help-keys"]) == 0
    out = capsys.readouterr().out
    for section in ("run.", "model.", "train.beta", "reward.outcome_weight"):
        assert section in out


def test_unknown_command_exit_2(capsys):
    try:
        code = main(["frobnicate"])
    except SystemExit as exc:
        code = exc.code
    assert code == 2
