"""Revision warm-up (optional Stage 1b, beyond the paper): teach the model to read feedback before RL.

Stage 1 trains solving from x only, so the revision prompt of Algorithm 1 (x, y1, p1: about three times a
solution) is out of the SFT model's distribution; the demo measured revisions no better than first attempts.
With `sft.revision_fraction = f > 0`, Stage 1 also trains on revision examples

    prompt     = build_revision_conversation(x, y1, p1)   (the exact prompt the refine loop samples y2 from)
    completion = y*                                        (the ground-truth seven-tag solution)

where y1 is the problem's ground truth with one injected error (`physr3.synth.inject`: MC, CM or CE), and p1
is the feedback the real router produces for the verdict the configured verifier gives y1 — the same
channels (re-read, retrieved formulas, executed code) the refine loop uses, so no prompt is special-cased.
`f` is the share of revision examples in the final mix: n_rev = round(n · f / (1 − f)) for n solve examples;
problems are cycled with a fresh injection seed per cycle when n_rev > n. Problems without a step-level ground
truth (not generated) or where no error can be injected are skipped and counted. The paper's models already
follow revision instructions: `configs/paper.yaml` keeps f = 0.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from physr3.config import Config
from physr3.errors import UserError
from physr3.problems import Problem
from physr3.prompts import build_revision_conversation


def revision_count(n_solve: int, fraction: float) -> int:
    """How many revision examples make them `fraction` of a mix with `n_solve` solve examples."""
    if not 0.0 <= fraction < 1.0:
        raise UserError(f"sft.revision_fraction must be in [0, 1), got {fraction}")
    return round(n_solve * fraction / (1.0 - fraction))


def revision_records(problems: list[Problem], cfg: Config, fraction: float, seed: int,
                     verifier=None, feedback_fn=None) -> tuple[list[dict[str, Any]], Counter]:
    """SFT rows (prompt-completion, conversational) of revision examples, and counts of what was built.

    `verifier` and `feedback_fn` default to the config's (`verifier.kind`, `physr3.feedback.router`);
    tests pass the same real objects built once.
    """
    from physr3.synth.inject import inject_error

    stats: Counter = Counter()
    want = revision_count(len(problems), fraction)
    usable = [p for p in problems if p.ground_truth and p.solution]
    stats["no_ground_truth"] = len(problems) - len(usable)
    if want == 0 or not usable:
        return [], stats
    if verifier is None:
        from physr3.verify.registry import build_verifier

        verifier = build_verifier(cfg.verifier.kind, cfg)
    if feedback_fn is None:
        from physr3.feedback.router import FeedbackRouter

        feedback_fn = FeedbackRouter(cfg.feedback)
    fmt = cfg.generation.format_instruction
    picks: list[tuple[Problem, Any]] = []
    cycle = 0
    while len(picks) < want:
        before = len(picks)
        for p in usable[: want - len(picks)]:
            inj = inject_error(p, random.Random(f"physr3.revision:{seed}:{cycle}:{p.id}"))
            if inj is None:
                stats["no_injection"] += 1
                continue
            picks.append((p, inj))
        if len(picks) == before:  # nothing injectable: stop rather than loop
            break
        cycle += 1
    verdicts = verifier.verify_batch([(p, inj.solution) for p, inj in picks])
    rows = []
    for (p, inj), verdict in zip(picks, verdicts):
        feedback = feedback_fn(p, inj.solution, verdict)
        stats[f"injected_{inj.error_type}"] += 1
        stats[f"feedback_{getattr(feedback, 'channel', 'none')}"] += 1
        rows.append({"prompt": build_revision_conversation(p, inj.solution, feedback.text, fmt),
                     "completion": [{"role": "assistant", "content": p.solution}]})
    stats["revision_examples"] = len(rows)
    return rows, stats
