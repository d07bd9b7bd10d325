"""Config rules: ranges, enumerations and rules over two keys live in the sections' `__post_init__`.

A rule is checked when a section is built and again once a file, overrides and flags are applied; the
error names where the value came from and the key."""

from __future__ import annotations

import pytest

from physr3.config import (
    ConfigValueError,
    ContaminationConfig,
    ConvertConfig,
    DemoConfig,
    GenerationConfig,
    ScalingConfig,
    SFTConfig,
    StudyConfig,
    SynthConfig,
    TopicsConfig,
    TrainConfig,
    VerifierConfig,
    load_config,
)
from physr3.errors import UserError

BROKEN = [
    (SynthConfig, {"n": -1}, "synth.n must be >= 0, got -1"),
    (SynthConfig, {"control_fraction": 1.5}, "synth.control_fraction must be in [0, 1], got 1.5"),
    (SynthConfig, {"test_fraction": -0.1}, "synth.test_fraction must be in [0, 1], got -0.1"),
    (SynthConfig, {"split": "dev"}, "'synth.split' must be one of train, test, all; got 'dev'"),
    (SFTConfig, {"revision_fraction": 1.0}, "sft.revision_fraction must be in [0, 1), got 1.0"),
    (TrainConfig, {"top_p": 0.9}, "train.top_p=0.9: training samples with top_p 1.0 only"),
    (TrainConfig, {"temperature": -1.0}, "train.temperature=-1: expected >= 0"),
    (TrainConfig, {"max_attempt_tokens": 0}, "train.max_attempt_tokens=0: expected an integer >= 1"),
    (GenerationConfig, {"batch_size": 0}, "generation.batch_size=0: expected an integer >= 1"),
    (VerifierConfig, {"on_parse_failure": "ignore"}, "'verifier.on_parse_failure' must be one of min_reward, skip"),
    (StudyConfig, {"variants": ["paper", "bogus"]}, "study.variants: unknown advantage(s) bogus; valid: paper, "),
    (StudyConfig, {"refine_steps": 0}, "study.refine_steps=0: expected >= 1"),
    (StudyConfig, {"stages": ["data", "sft", "tune"]}, "study.stages: unknown value(s) tune; valid: data, sft, "),
    (DemoConfig, {"stages": ["synth", "refine"]}, "demo.stages: unknown value(s) refine; valid: synth, sft, "),
    (ConvertConfig, {"max_retries": -1}, "convert.max_retries must be >= 0, got -1"),
    (TopicsConfig, {"k": 0}, "topics.k must be >= 1, got 0"),
    (ContaminationConfig, {"ngram": 0}, "contamination.ngram must be >= 1, got 0"),
    (ContaminationConfig, {"threshold": 1.5}, "contamination.threshold is a cosine in [-1, 1], got 1.5"),
    (ScalingConfig, {"limit": 0}, "scaling.limit must be >= 1, got 0"),
    (ScalingConfig, {"models": ["embedded", "embedded"]}, "scaling.models: a model is given twice"),
]


@pytest.mark.parametrize("cls,kwargs,message", BROKEN, ids=[f"{c.__name__}.{next(iter(k))}" for c, k, _ in BROKEN])
def test_a_broken_rule_is_refused_when_the_section_is_built(cls, kwargs, message):
    with pytest.raises(ConfigValueError) as info:
        cls(**kwargs)
    assert str(info.value).startswith(message) and info.value.key == next(iter(kwargs))
    cls()  # the defaults keep every rule


def test_the_error_names_the_file_line_and_key(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("run:\n  name: a\nsynth:\n  n: 10\n  control_fraction: 2\n")
    with pytest.raises(UserError) as info:
        load_config(path)
    assert str(info.value) == f"{path}:5: synth.control_fraction must be in [0, 1], got 2.0"


def test_an_override_and_a_flag_are_named_too():
    with pytest.raises(UserError, match=r"^override 'topics.k=0': topics.k must be >= 1, got 0$"):
        load_config(None, ["topics.k=0"])
    with pytest.raises(UserError, match=r"^--limit: scaling.limit must be >= 1, got 0$"):
        load_config(None, [], [("--limit", "scaling.limit", 0)])
    with pytest.raises(UserError, match=r": sft_baseline.revision_fraction must be in \[0, 1\)"):  # not "sft."
        load_config(None, ["sft_baseline.revision_fraction=1"])


def test_rules_see_the_final_values_not_each_step(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("topics:\n  k: 0\n")
    assert load_config(path, ["topics.k=3"]).topics.k == 3  # the file's 0 is overridden before the check
    assert load_config(path, [], [("--k", "topics.k", 5)]).topics.k == 5


def test_a_flag_wins_over_file_and_override(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("scaling:\n  limit: 2\n")
    cfg = load_config(path, ["scaling.limit=3"], [("--limit", "scaling.limit", 4)])
    assert cfg.scaling.limit == 4


def test_a_changed_section_is_caught_where_the_library_checks_again():
    from physr3.train.refine import check_train_config

    cfg = load_config(None)
    cfg.train.top_p = 0.5
    with pytest.raises(UserError, match=r"^train\.top_p=0\.5: "):
        check_train_config(cfg)
