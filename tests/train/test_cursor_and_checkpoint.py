"""Data cursor determinism and atomic checkpoints that resume exactly."""

import json

import torch
from transformers import LlamaConfig, LlamaForCausalLM

from physr3.config import LoraConfig
from physr3.train import checkpoint as ckpt
from physr3.train.adapters import policy_and_reference, trainable_parameters
from physr3.train.refine_trainer import DataCursor


def test_cursor_visits_every_item_once_per_epoch_and_resumes():
    cursor = DataCursor(7, seed=3)
    first = cursor.take(5)
    state = cursor.state()
    rest = cursor.take(9)
    assert sorted(first + rest[:2]) == list(range(7)) and sorted(rest[2:]) == sorted(set(rest[2:]))
    resumed = DataCursor(7, seed=3, **state)
    assert resumed.take(9) == rest


def _model():
    torch.manual_seed(0)
    base = LlamaForCausalLM(LlamaConfig(vocab_size=50, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                                        num_attention_heads=4, num_key_value_heads=2))
    return policy_and_reference(base, None, LoraConfig())


def test_checkpoint_round_trip_restores_weights_optimizer_and_rng(tmp_path):
    model = _model()
    params = trainable_parameters(model)
    opt = torch.optim.AdamW(params, lr=1e-2)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda _: 1.0)
    x = torch.randint(0, 50, (1, 6))
    model(x).logits.sum().backward()
    opt.step()
    ckpt.save_checkpoint(tmp_path, 1, model, opt, sched, {"step": 1, "epoch": 0, "position": 5})
    expected_draw = torch.rand(3)

    fresh = _model()
    fresh_opt = torch.optim.AdamW(trainable_parameters(fresh), lr=1e-2)
    fresh_sched = torch.optim.lr_scheduler.LambdaLR(fresh_opt, lambda _: 1.0)
    path = ckpt.latest_checkpoint(tmp_path)
    ckpt.load_policy_weights(fresh, path)
    state = ckpt.load_trainer_state(path, fresh_opt, fresh_sched)
    assert state == {"step": 1, "epoch": 0, "position": 5}
    assert torch.equal(torch.rand(3), expected_draw)
    with torch.no_grad():
        assert torch.allclose(fresh(x).logits, model(x).logits)
    assert fresh_opt.state_dict()["state"].keys() == opt.state_dict()["state"].keys()


def test_only_complete_checkpoints_count_and_old_ones_are_pruned(tmp_path):
    model = _model()
    opt = torch.optim.AdamW(trainable_parameters(model))
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda _: 1.0)
    for step in (1, 2, 3):
        ckpt.save_checkpoint(tmp_path, step, model, opt, sched, {"step": step, "epoch": 0, "position": step})
    (tmp_path / "checkpoints" / ".tmp-step-000004").mkdir()  # a save killed half-way
    names = sorted(p.name for p in (tmp_path / "checkpoints").glob("step-*"))
    assert names == ["step-000002", "step-000003"]
    assert ckpt.latest_checkpoint(tmp_path).name == "step-000003"


def test_truncate_jsonl_drops_redone_steps_and_torn_lines(tmp_path):
    path = tmp_path / "metrics.jsonl"
    path.write_text("".join(json.dumps({"step": s}) + "\n" for s in (1, 2, 3)) + '{"step": 4, "lo')
    ckpt.truncate_jsonl(path, 2)
    assert [json.loads(x)["step"] for x in path.read_text().splitlines()] == [1, 2]
