"""The RAG baseline (section 4.3): the CoT prompt with the 3 formula-corpus chunks most similar to the question.

Retrieval, as in the paper (`physr3.retrieval.rag`): the formula corpus (`physr3.feedback.knowledge`:
OpenStax *University Physics* key equations and fundamental constants, one entry per line;
`feedback.corpus_dir` overrides it) is split into 500-character chunks with 50 characters of overlap,
embedded, and stored in a local FAISS inner-product index over unit vectors (= cosine similarity),
persisted on disk (`eval.rag_store_dir`) and rebuilt when the corpus, the embedder or the chunking changes
(`physr3.retrieval.faiss_index`). At inference the question (with its options) is the query and the top
`eval.rag_top_k` = 3 chunks by cosine are inserted into the prompt. The embedder is all-MiniLM-L6-v2
(offline) by default; `eval.rag_embedder=openai:text-embedding-ada-002` (with `eval.rag_embedder_base_url`
for another OpenAI-compatible server) is the paper's choice. Deviation: with an OpenAI embedder the query is
embedded by the same endpoint at inference (the paper says no external API is queried at inference; it does
not say how its queries were embedded); MiniLM is fully local.

The prompt (exact text; `{...}` are filled in):

    system: You are an expert physics assistant. Given a question, generate the final solution. Let's think
            step by step.                                              <- the CoT prompt, verbatim
    user:   Reference formulas and constants (retrieved from a physics formula sheet; they may or may not
            apply):
            [1] {chunk 1}

            [2] {chunk 2}

            [3] {chunk 3}

            Question:
            {question, options as "A) ..." lines, the multiple-choice note; with
             eval.cot_format_instruction=true the seven-tag format instruction}

Chunks are inserted best first, stripped of surrounding whitespace. The row of each item records the
retrieved chunks (`trace.retrieved`: rank, cosine score, corpus offsets, text) so retrieval quality can be
inspected next to correctness.
"""

from __future__ import annotations

from typing import Any

from physr3.config import Config
from physr3.eval.conditions import Condition
from physr3.models.types import Completion, Conversation, Engine, SamplingParams
from physr3.problems import Problem
from physr3.prompts import COT_SYSTEM_PROMPT, render_question, solve_question

RAG_CONTEXT_HEADER = (
    "Reference formulas and constants (retrieved from a physics formula sheet; they may or may not apply):"
)
RAG_QUESTION_HEADER = "Question:"

def get_index(cfg: Config):
    """The FAISS chunk index for the configured corpus and embedder (one per process and arguments; on disk it
    is reused while its fingerprint matches)."""
    from physr3.retrieval.rag import get_index as corpus_index

    e = cfg.eval
    return corpus_index(e.rag_store_dir, cfg.feedback.corpus_dir, e.rag_embedder, e.rag_embedder_base_url)


def retrieval_query(problem: Problem) -> str:
    """The question with its options: what is embedded to find the chunks."""
    return render_question(problem)


def rag_messages(problem: Problem, cfg: Config, chunks: list[str]) -> Conversation:
    """The RAG conversation for given retrieved chunk texts (see the module docstring)."""
    context = "\n\n".join(f"[{i}] {c.strip()}" for i, c in enumerate(chunks, 1))  # as retrieval.rag.format_context
    question = solve_question(problem, cfg.eval.cot_format_instruction)  # the CoT prompt's user message
    user = f"{RAG_CONTEXT_HEADER}\n{context}\n\n{RAG_QUESTION_HEADER}\n{question}"
    return [{"role": "system", "content": COT_SYSTEM_PROMPT}, {"role": "user", "content": user}]


def retrieve(problem: Problem, cfg: Config) -> list:
    return get_index(cfg).retrieve(retrieval_query(problem), cfg.eval.rag_top_k)


def rag_conversation(problem: Problem, cfg: Config) -> Conversation:
    return rag_messages(problem, cfg, [h.text for h in retrieve(problem, cfg)])


def run_rag(engine: Engine, problems: list[Problem], cfg: Config,
            params: SamplingParams) -> list[tuple[Completion, dict[str, Any]]]:
    """Retrieve for every problem, generate once per batch, and record the retrieved chunks."""
    hits = [retrieve(p, cfg) for p in problems]
    completions = engine.generate([rag_messages(p, cfg, [h.text for h in hs]) for p, hs in zip(problems, hits)],
                                  params)
    return [(c, {"retrieved": [{"rank": h.rank, "score": round(h.score, 4), "start": h.start, "end": h.end,
                                "text": h.text} for h in hs]}) for c, hs in zip(completions, hits)]


def rag_details(cfg: Config) -> str:
    e = cfg.eval
    from physr3.retrieval.rag import CHUNK_OVERLAP, CHUNK_SIZE

    fmt = "the seven-tag format instruction appended" if e.cot_format_instruction else "no format instruction"

    return (f"Base model, no adapter. Corpus: the formula sheet (OpenStax University Physics key equations and "
            f"fundamental constants) in {CHUNK_SIZE}-character chunks with {CHUNK_OVERLAP} overlap, "
            f"embedded with {e.rag_embedder}, in a local FAISS inner-product index of unit vectors (cosine); the "
            f"top {e.rag_top_k} chunks for the question are inserted into the prompt. System prompt: "
            f"\"{COT_SYSTEM_PROMPT}\" User message: \"{RAG_CONTEXT_HEADER}\" then the chunks as '[i] chunk' "
            f"blocks separated by blank lines, a blank line, \"{RAG_QUESTION_HEADER}\" and the question ({fmt}). "
            f"Decoding: temperature {cfg.generation.temperature}, at most {cfg.generation.max_new_tokens} new "
            f"tokens.")


# Registered in physr3.eval.conditions as the lazy target "physr3.eval.rag:RAG".
RAG = Condition("rag", "Base model, the CoT prompt with the top-3 formula-corpus chunks (FAISS, cosine).", None,
                rag_conversation, rag_details, run_rag)
