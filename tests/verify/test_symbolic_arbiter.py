"""The learned step arbiter (issue #12, session 15; `physr3.verify.symbolic_arbiter`).

Hand-written solutions of a generated problem (capacitor_charge seed 0: C = 353 uF, V = 41.5 V, target Q = 0.0146
C), not copies of labelled items: the features a given/find step is read by, the combination rule both ways with
a stub model whose answer the test sets (a blamed right given dropped, a passed wrong given blamed), the verifier's
`accepted` steps, the shipped weights (loadable, their provenance the current training sets' sha256: stale
weights fail here), the training script on a small subset, and the config switch through the registry and the
hybrid.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from physr3.config import load_config
from physr3.llm.client import ChatClient
from physr3.synth.registry import get_family
from physr3.verify.hybrid import keeps_symbolic
from physr3.verify.registry import build_verifier
from physr3.verify.symbolic import SymbolicVerifier, with_arbiter
from physr3.verify.symbolic_arbiter import (
    WEIGHTS,
    ArbiterModel,
    ArbitratedVerifier,
    ItemReader,
    fit,
    fit_split,
    load_model,
    read_values,
    step_features,
    walked_steps,
)
from support.step_edits import replace_step

ROOT = Path(__file__).resolve().parents[2]


def _trainer():
    """benchmarks/train_step_arbiter.py as a module (benchmarks/ is no package)."""
    spec = importlib.util.spec_from_file_location("train_step_arbiter", ROOT / "benchmarks" / "train_step_arbiter.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def problem():
    return get_family("capacitor_charge").generate(0)


@pytest.fixture(scope="module")
def symbolic() -> SymbolicVerifier:
    return SymbolicVerifier(unchecked="error", answer_overrules=True)


def edited(problem, edits: dict[int, str]) -> str:
    solution = problem.solution
    for number, text in edits.items():
        solution = replace_step(solution, number, text)
    return solution


def features_of(problem, symbolic, solution: str, position: int) -> dict[str, float]:
    steps = walked_steps(solution)
    reader = ItemReader(symbolic.ground_truth(problem), problem)
    return step_features(reader, steps, position - 1, symbolic.verify(problem, solution))


def stub(feature: str, t_hi: float = 0.9, t_lo: float = 0.1) -> ArbiterModel:
    """p(wrong) ~ 1 where `feature` is set, ~ 0 elsewhere."""
    return ArbiterModel([feature], np.zeros(1), np.ones(1), np.array([20.0]), -10.0, t_hi, t_lo)


def test_values_are_read_with_their_units():
    (value, unit), = read_values("m = 4.21 kg (mass of the block)")
    assert value == 4.21 and unit.pint == "kg"
    assert [v for v, _ in read_values("q = 1.6 x 10^-19 C, n = 3")] == [1.6e-19, 3.0]
    assert read_values("T, the tension (in N)") == []


def test_a_right_given_is_owned_by_its_quantity_under_its_own_letter(problem, symbolic):
    f = features_of(problem, symbolic, problem.solution, 1)  # C = 353 uF (capacitance)
    assert f["owner_given"] == 1 and f.get("kind_clash", 0) == 0 and f["letter_other"] == 0
    assert f["state_passed"] == 1 and f.get("owner_new", 0) == 0


def test_a_value_under_another_letter_of_another_kind_and_a_new_value_are_told_apart(problem, symbolic):
    solution = edited(problem, {1: "V = 353 V (voltage)", 2: "m = 7.7 kg (mass of the plates)"})
    swapped = features_of(problem, symbolic, solution, 1)
    assert swapped["owner_given"] == 1 and swapped["kind_clash"] == 1 and swapped["letter_other"] == 1
    new = features_of(problem, symbolic, solution, 2)
    assert new["owner_new"] == 1 and new.get("owner_given", 0) == 0


def test_the_answer_written_among_the_givens_is_owned_by_the_target(problem, symbolic):
    solution = edited(problem, {2: "Q = 0.0146 C (charge)"})
    f = features_of(problem, symbolic, solution, 2)
    assert f["owner_target"] == 1 and f["letter_target"] == 1


def test_the_verdicts_place_is_a_feature(problem, symbolic):
    solution = edited(problem, {2: "V = 14.5 V (voltage across the capacitor)"})  # a misread value: MC at 2
    assert symbolic.verify(problem, solution).error_step == 2
    at = features_of(problem, symbolic, solution, 2)
    assert at["state_failed"] == 1 and at["failed_MC"] == 1 and any(k.startswith("check=") for k in at)
    assert features_of(problem, symbolic, solution, 1)["state_passed"] == 1


def test_accepted_steps_let_the_walk_go_on_and_none_change_nothing(problem, symbolic):
    solution = edited(problem, {2: "V = 14.5 V (voltage across the capacitor)"})
    plain = symbolic.verify(problem, solution)
    assert symbolic.verify(problem, solution, accepted=frozenset()).error_step == plain.error_step == 2
    assert symbolic.verify(problem, solution, accepted=frozenset({2})).error_step != 2


def test_a_blamed_right_given_is_dropped(problem, symbolic):
    solution = edited(problem, {2: "V = 14.5 V (voltage across the capacitor)"})
    never = stub("owner_option")  # p ~ 0 on every step here (no option value): the MC finding at 2 is dropped
    v = ArbitratedVerifier(symbolic, never).verify(problem, solution)
    assert v.error_step != 2 and v.details["arbiter"]["accepted"] == [2], v.explanation
    assert ArbitratedVerifier(symbolic, stub("owner_option", t_lo=-1.0)).verify(problem, solution).error_step == 2


def test_a_passed_wrong_given_is_blamed(problem, symbolic):
    solution = edited(problem, {2: "V = 41.5 (voltage across the capacitor)"})  # a bare number: the rules pass it
    assert symbolic.verify(problem, solution).error_step == 0
    v = ArbitratedVerifier(symbolic, stub("unit_missing")).verify(problem, solution)
    assert (v.error_step, v.error_type, v.details["check"]) == (2, "MC", "arbiter"), v.explanation
    assert not keeps_symbolic(v)  # the hybrid asks the judge about a learned reading
    assert ArbitratedVerifier(symbolic, stub("unit_missing", t_hi=1.01)).verify(problem, solution).error_step == 0


def test_the_right_solution_passes_with_the_shipped_weights(problem, symbolic):
    v = ArbitratedVerifier(symbolic).verify(problem, problem.solution)
    assert v.error_step == 0, v.explanation


def test_the_shipped_weights_load_and_name_the_current_training_sets():
    set_path = _trainer().set_path
    model = load_model()
    assert 0 < len(model.features) == len(model.coef) == len(model.mean) == len(model.std)
    assert WEIGHTS.stat().st_size <= 1_000_000
    sets = model.provenance["sets"]
    assert len(sets) >= 15
    for name, digest in sets.items():
        assert hashlib.sha256(set_path(name).read_bytes()).hexdigest() == digest, (
            f"{name} changed since the weights were trained: rerun benchmarks/train_step_arbiter.py")
    for key in ("git_commit", "seed", "command", "variant"):
        assert key in model.provenance


def test_the_fit_separates_a_feature_that_decides():
    rows = [{"a": float(i % 2), "b": 0.5} for i in range(40)]
    model = fit(rows, [i % 2 for i in range(40)], min_count=1)
    p = model.prob([{"a": 1.0}, {"a": 0.0}])
    assert p[0] > 0.9 > 0.1 > p[1]
    assert "b" in model.features  # constant: kept, with std 1 so it does not divide by zero


def test_the_split_model_reads_the_failed_step_with_its_own_regression():
    rows = [{"a": float(i % 2), "state_failed": float(i >= 40)} for i in range(80)]
    labels = [i % 2 if i < 40 else 1 - i % 2 for i in range(80)]  # "a" means wrong on passed steps, right at failed ones
    model = ArbiterModel.from_json(json.loads(json.dumps(fit_split(rows, labels, min_count=1).to_json())))
    p = model.prob([{"a": 1.0}, {"a": 1.0, "state_failed": 1.0}])
    assert p[0] > 0.9 and p[1] < 0.1


def test_the_training_script_writes_a_loadable_file(tmp_path):
    main = _trainer().main
    out = tmp_path / "w.json"
    assert main(["--sets", "correct_reworded,dev", "--no-cv", "--t-hi", "0.8", "--t-lo", "0.1",
                 "--out", str(out)]) == 0
    model = ArbiterModel.from_json(json.loads(out.read_text()))
    assert model.t_hi == 0.8 and set(model.provenance["sets"]) == {"correct_reworded", "dev"}
    assert len(model.prob([{}])) == 1


def test_the_config_switch_wraps_the_symbolic_verifier_and_the_hybrid_keeps_working(problem):
    on = load_config(None, ["verifier.symbolic_arbiter=on"])
    off = load_config(None, ["verifier.symbolic_arbiter=off"])
    assert isinstance(build_verifier("symbolic", on), ArbitratedVerifier)
    assert isinstance(build_verifier("symbolic", off), SymbolicVerifier)
    with pytest.raises(ValueError):
        with_arbiter(SymbolicVerifier(), "maybe")
    client = ChatClient(model="judge", base_url="http://127.0.0.1:9/v1", api_key="unused", cache=None)
    for cfg, kind in ((on, ArbitratedVerifier), (off, SymbolicVerifier)):
        cfg.verifier.kind = "hybrid"
        hybrid = build_verifier("hybrid", cfg, client=client)
        assert isinstance(hybrid.symbolic, kind)
        wrong = replace_step(problem.solution, 2, "V = 14.5 V (voltage across the capacitor)")
        v = hybrid.verify(problem, wrong)  # a hard finding: kept, the judge not asked
        assert (v.error_step, v.details["hybrid"]) == (2, "symbolic"), v.explanation
