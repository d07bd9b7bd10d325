"""Written maths -> plain text: LaTeX, Unicode, Markdown and `× 10^` notation, before any reading.

Two readers consume the result, so there are two output forms built from the same pieces
(`brace_group`, `unwrap_latex`, the superscript table):

- `normalize` (for `physr3.quantity.expr`, which reads whole steps with names and units): relations
  collapse to `=` (`≈`, `\\approx`), Greek letters stay letters (`θ`, `\\lambda` -> λ), subscripts become
  part of the name (`v_{0}` -> `v_0`, `m₁` -> `m_1`), `3.2 × 10^{-19}` becomes the single number `3.2e-19`.
- `latex_to_plain` (for `physr3.quantity.answer`, which reads one value and its unit): `≈` is kept as a
  relation (the value after the last `=`/`≈` is the answer), subscripts are dropped (`v_{0} = 5` -> `v = 5`),
  `°C`/`°F` become pint's `degC`/`degF`, and `× 10^` stays arithmetic (`* 10^(3)`) for the whitelisting
  evaluator.

Both unwrap `\\frac{a}{b}` -> `((a)/(b))`, `\\sqrt{x}` -> `sqrt(x)`, `\\sqrt[n]{x}` -> `((x)^(1/(n)))`,
text wrappers (`\\mathrm{m}`, `\\text{ kg}`, `\\boxed{...}`) -> their content with spaces around it, symbol
decorations (`\\vec{v}`, `\\mathbf{F}`) -> their content alone, and Unicode superscripts (`s⁻²`) -> `^(-2)`.
"""

from __future__ import annotations

import re

SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_SUPERSCRIPT_RUN = re.compile(r"[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+")
_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉ₓᵧ", "0123456789xy")

GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ϵ": "epsilon", "ζ": "zeta",
    "η": "eta", "θ": "theta", "ϑ": "theta", "ι": "iota", "κ": "kappa", "λ": "lambda", "μ": "mu", "ν": "nu",
    "ξ": "xi", "π": "pi", "ρ": "rho", "σ": "sigma", "τ": "tau", "υ": "upsilon", "φ": "phi", "ϕ": "phi",
    "χ": "chi", "ψ": "psi", "ω": "omega", "Γ": "Gamma", "Δ": "Delta", "Θ": "Theta", "Λ": "Lambda",
    "Σ": "Sigma", "Φ": "Phi", "Ψ": "Psi", "Ω": "Omega",
}
GREEK_NAMES = frozenset(GREEK.values()) | {"lam", "eps", "varepsilon", "vartheta", "varphi"}

# Wrappers whose content is text (a unit, an answer): unwrapped with spaces around it.
_TEXT_WRAPPERS = ("boxed", "fbox", "text", "textrm", "textnormal", "mathrm", "mbox", "rm", "emph")
# Decorations of a symbol (\vec{v}_0, \mathbf{F}): unwrapped in place, so a subscript stays attached.
_SYMBOL_WRAPPERS = ("mathit", "mathbf", "mathsf", "operatorname", "textbf", "textit", "boldsymbol", "vec",
                    "bar", "hat", "displaystyle", "mathnormal")
_UNWRAP = re.compile(r"\\(" + "|".join(_TEXT_WRAPPERS + _SYMBOL_WRAPPERS) + r"|[dt]?frac|sqrt)(?![A-Za-z])\s*")


def brace_group(text: str, start: int) -> tuple[str, int] | None:
    """Content of the {...} group opening at `start` (skipping spaces) and the index after it; an unclosed
    group takes the rest of the text."""
    while start < len(text) and text[start] == " ":
        start += 1
    if start >= len(text) or text[start] != "{":
        return None
    depth = 0
    for i in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return text[start + 1:i], i + 1
    return text[start + 1:], len(text)


def find_boxed(text: str) -> list[tuple[int, str]]:
    """(position, content) of every `\\boxed{...}` / `\\fbox{...}`, braces matched."""
    found = []
    for m in re.finditer(r"\\(?:boxed|fbox)\s*", text):
        group = brace_group(text, m.end())
        if group is not None:
            found.append((m.start(), group[0]))
    return found


def unwrap_latex(text: str) -> str:
    r"""\frac{a}{b} -> ((a)/(b)); \sqrt{x} -> sqrt(x); \sqrt[n]{x} -> ((x)^(1/(n))); \mathrm{x} -> x.

    Nested commands are unwrapped from the left; a command without its brace group (`\rm m`, `\frac12`)
    is dropped and the rest kept."""
    for _ in range(60):
        m = _UNWRAP.search(text)
        if not m:
            break
        name, end = m.group(1), m.end()
        root = None
        if name == "sqrt" and end < len(text) and text[end] == "[":
            close = text.find("]", end)
            if close > 0:
                root, end = text[end + 1:close], close + 1
        first = brace_group(text, end)
        if first is None:
            text = text[:m.start()] + " " + (name if name == "sqrt" else "") + text[end:]
            continue
        inner, end = first
        if name.endswith("frac"):
            second = brace_group(text, end)
            repl = f"(({inner})/({second[0]}))" if second else f"({inner})"
            end = second[1] if second else end
        elif name == "sqrt":
            repl = f"(({inner})^(1/({root})))" if root else f"sqrt({inner})"
        else:
            repl = f" {inner} " if name in _TEXT_WRAPPERS else inner
        text = text[:m.start()] + repl + text[end:]
    return text


def superscripts_to_powers(text: str) -> str:
    """`s⁻²` -> `s^(-2)`."""
    return _SUPERSCRIPT_RUN.sub(lambda m: "^(" + m.group(0).translate(SUPERSCRIPTS) + ")", text)


# ---------------------------------------------------------------------------------------------- expressions
_LATEX_SIMPLE = {r"\times": "*", r"\cdot": "*", r"\div": "/", r"\approx": "=", r"\simeq": "=", r"\sim": "=",
                 r"\equiv": "=", r"\left": "", r"\right": "", r"\,": " ", r"\;": " ", r"\:": " ", r"\!": "",
                 r"\ ": " ", r"\quad": " ", r"\qquad": " ", r"\degree": "°", r"\%": "%", r"\Omega": "Ω",
                 r"\ohm": "Ω", r"\mu": "μ", r"\lambda": "λ", r"\pi": "π"}
_UNICODE = {"−": "-", "–": "-", "—": "-", "×": "*", "·": "*", "⋅": "*", "∙": "*", "÷": "/", "≈": "=",
            "≃": "=", "≅": "=", "∼": "=", "√": "sqrt", "µ": "μ", "\u00a0": " ", "\u2009": " ", "\u202f": " ",
            "⁄": "/", "∕": "/", "’": "'", "[": "(", "]": ")"}


def normalize(text: str, max_chars: int = 1200) -> str:
    """LaTeX, Unicode and Markdown maths -> the plain syntax `physr3.quantity.expr` tokenizes."""
    text = text[:max_chars]
    text = re.sub(r"\\[()\[\]]", " ", text).replace("$", " ").replace("`", " ")
    text = re.sub(r"(?<=[\w)])\*\*(?=[\w(])", "^", text).replace("**", " ")  # v0**2 is a power, **x** bold
    text = re.sub(r"\^\s*(?:\{\s*\\circ\s*\}|\\circ)", "°", text)
    text = unwrap_latex(text)
    for macro, repl in sorted(_LATEX_SIMPLE.items(), key=lambda kv: -len(kv[0])):
        text = text.replace(macro, repl)
    text = re.sub(r"\\(arc(?:sin|cos|tan)|sin|cos|tan|ln|log|exp)(?![A-Za-z])", r" \1 ", text)
    text = re.sub(r"\\([A-Za-z]+)", lambda m: m.group(1) if m.group(1) in GREEK_NAMES else " ", text)
    text = re.sub(r"_\s*\{([^{}]*)\}", lambda m: "_" + re.sub(r"[\s\\]", "", m.group(1)), text)
    text = re.sub(r"\^\s*\{([^{}]*)\}", r"^(\1)", text)
    for a, b in _UNICODE.items():
        text = text.replace(a, b)
    text = superscripts_to_powers(text)
    text = re.sub(r"[₀₁₂₃₄₅₆₇₈₉ₓᵧ]+", lambda m: "_" + m.group(0).translate(_SUBSCRIPTS), text)
    text = re.sub(r"([\d)]\s*)μ\s+(?=[A-Za-zΩ])", r"\1μ", text)  # 2.0 \mu F -> 2.0 μF
    text = re.sub(r"(?<=[\d)])\s*x\s*(?=[\d(])", " * ", text)  # 3.69 x 13.03
    text = re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", text)  # 1,000 J
    text = re.sub(r"(?<=[\d\s])ms\s*\^\s*\(?\s*-", "m s^-", text)  # 7.71 ms^-1 is m/s, not 1/millisecond
    # m/s2 -> m/s^2, but not after an indexed symbol: `m1*v1/m2` divides by the mass m2, not a square metre
    text = re.sub(r"(?<![A-Za-z]\d)(?<![A-Za-z]\d\s)/\s*(s|m|cm|mm|km)([23])\b", r"/\1^\2", text)
    text = text.replace("{", "(").replace("}", ")")
    # scientific notation: 3.2 * 10^(-19), 3.2 x 10^-19, 3.2e-19
    text = re.sub(r"(\d(?:\.\d*)?)\s*[*x]\s*10\s*\^\s*\(?\s*([-+]?)\s*(\d+)\s*\)?", r"\1e\2\3 ", text)
    return re.sub(r"\s+", " ", text).strip()


# ---------------------------------------------------------------------------------------------- answers
_ANSWER_MACROS = {
    r"\times": " * ", r"\cdot": " * ", r"\mu": "µ", r"\Omega": "Ω", r"\ohm": "Ω", r"\%": "%",
    r"\pi": " pi ", r"\AA": "Å", r"\angstrom": "Å", r"\degree": "°", r"\approx": "≈", r"\simeq": "≈",
    r"\sim": "≈", r"\circ": "°", r"\quad": " ", r"\qquad": " ", r"\left": "", r"\right": "",
    r"\,": " ", r"\;": " ", r"\:": " ", r"\!": "", r"\ ": " ", r"\$": "",
}


def latex_to_plain(text: str) -> str:
    """LaTeX / Unicode / Markdown answer text -> plain text that the value and unit readers accept."""
    text = text.replace("\u00a0", " ").replace("\u2009", " ").replace("\u202f", " ")
    text = re.sub(r"\\[()\[\]]", " ", text)  # \( \) \[ \] math delimiters
    text = text.replace("$", " ").replace("**", " ").replace("`", " ")
    text = re.sub(r"\^\s*\{?\s*\\circ\s*\}?", "°", text)
    text = unwrap_latex(text)
    for macro, repl in sorted(_ANSWER_MACROS.items(), key=lambda kv: -len(kv[0])):
        text = text.replace(macro, repl)
    text = re.sub(r"_\{[^{}]*\}|_\\?[A-Za-z0-9]", "", text)  # subscripts: v_{0} = 5 -> v = 5
    text = re.sub(r"\^\s*\{([^{}]*)\}", r"^(\1)", text)
    text = re.sub(r"\\[A-Za-z]+", " ", text)  # any other command
    text = text.replace("{", " ").replace("}", " ").replace("~", " ")
    text = superscripts_to_powers(text)
    text = text.translate(str.maketrans({"−": "-", "–": "-", "·": "*", "⋅": "*", "∙": "*", "×": "*",
                                         "⁄": "/", "∕": "/", "μ": "µ", "≃": "≈", "∼": "≈"}))
    text = re.sub(r"µ\s+(?=[A-Za-z])", "µ", text)  # \mu C -> µC
    text = re.sub(r"(\d)\s*[xX]\s*(?=10\s*\^)", r"\1*", text)  # 5x10^3
    text = re.sub(r"°\s*C\b", " degC ", text)
    text = re.sub(r"°\s*F\b", " degF ", text)
    text = text.replace("°", " degree ")
    return re.sub(r"\s+", " ", text).strip()
