"""Edit steps of a generated ground-truth solution into what a model wrote, for the symbolic verifier's tests:
one home for the helpers the verify tests share."""

from __future__ import annotations

from physr3.synth.registry import get_family


def replace_step(solution: str, number: int, text: str) -> str:
    """`solution` with the line `Step {number}: ...` replaced by `Step {number}: {text}`."""
    lines = solution.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith(f"Step {number}:"))
    lines[i] = f"Step {number}: {text}"
    return "\n".join(lines)


def edited_verdict(verifier, family: str, edits: dict[int, str]):
    """The verdict on `family`'s seed-0 problem whose ground-truth solution has the steps in `edits` replaced."""
    problem = get_family(family).generate(0)
    text = problem.solution
    for number, step in edits.items():
        text = replace_step(text, number, step)
    return verifier.verify(problem, text)


def with_givens(family: str, givens: list[str]):
    """`family`'s seed-0 problem and its ground-truth solution with the <given> section replaced by `givens`, the
    later steps renumbered after them."""
    problem = get_family(family).generate(0)
    lines = problem.solution.splitlines()
    start, end = lines.index("<given>"), lines.index("</given>")
    out, k = [f"Step {n}: {t}" for n, t in enumerate(givens, 1)], len(givens)
    for line in lines[end:]:
        if line.startswith("Step "):
            k += 1
            line = f"Step {k}: {line.split(':', 1)[1].strip()}"
        out.append(line)
    return problem, "\n".join(lines[:start + 1] + out)


def blamed_with_givens(verifier, family: str, givens: list[str]) -> tuple[int, str, str | None]:
    """(step, type, check) of the verdict on `with_givens(family, givens)`."""
    v = verifier.verify(*with_givens(family, givens))
    return v.error_step, v.error_type, v.details.get("check")
