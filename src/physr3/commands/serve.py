"""`physr3 serve`: an OpenAI-compatible HTTP server over a local model (the embedded SmolLM2 by default).

    physr3 serve --port 8000                                  # embedded model on 127.0.0.1:8000
    physr3 serve --model runs/try1/policy --port 8001         # a local HF folder (or model.adapter=...)
    PYTHONPATH=tests physr3 serve --port 0 --responder support.responders:DiffJudgeResponder --delay-s 1
                                                              # a test double from tests/support, no model

Clients use base URL `http://HOST:PORT/v1` (e.g. `verifier.judge_base_url`). The first line printed is
`physr3 serve: serving MODEL on URL`, so a script starting it with `--port 0` can read the bound port.
`--responder MODULE:ATTR [--responder-arg ARG]` serves any responder class or factory instead of the model
(tests and benchmarks load their test doubles from `tests/support/responders.py` this way) and `--delay-s`
exists for benchmarks; `model` (the default) serves the configured model. Malformed requests get a 4xx
in OpenAI's error shape; bodies over `--max-body-bytes` a 413; prompts longer than the model's context
window a 400 before any model work (see `physr3.llm.serve`).
"""

from __future__ import annotations

import argparse

from physr3.commands._common import add_config_arguments, config_from_args
from physr3.llm.serve import MAX_BODY_BYTES, EngineResponder, OpenAIServer, load_responder


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_arguments(parser)
    parser.add_argument("--model", help="Model to serve (sets model.name_or_path): HF id, local folder or 'embedded'.")
    parser.add_argument("--host", default="127.0.0.1", help="Interface to bind (default 127.0.0.1: this machine only).")
    parser.add_argument("--port", type=int, default=8000, help="Port (0 = any free port; the URL is printed).")
    parser.add_argument("--served-model-name", help="Name reported by /v1/models and in replies.")
    parser.add_argument("--responder", default="model",
                        help="model (default), or MODULE:ATTR: a responder class or factory to serve instead "
                             "(tests: support.responders:EchoResponder with tests/ on PYTHONPATH).")
    parser.add_argument("--responder-arg", help="The one argument given to a MODULE:ATTR responder factory "
                                                "(e.g. a rules file for ScriptedResponder.from_file).")
    parser.add_argument("--delay-s", type=float, default=0.0,
                        help="Sleep this long in every chat request (benchmarks: a slow remote judge).")
    parser.add_argument("--verbose", action="store_true", help="Log every request to stderr.")
    parser.add_argument("--max-body-bytes", type=int, default=MAX_BODY_BYTES,
                        help="Refuse request bodies larger than this with 413 (default 1 MiB).")


def main(args: argparse.Namespace) -> int:
    cfg = config_from_args(args, "serve")
    if args.max_body_bytes < 1:
        from physr3.errors import UserError

        raise UserError(f"--max-body-bytes must be >= 1, got {args.max_body_bytes}")
    if args.responder == "model":
        from physr3.models.engine import build_engine

        if cfg.generation.engine == "auto":
            # The server streams token by token and refuses over-long prompts from the model's context window:
            # both need the transformers engine (OpenVINO's pipeline returns whole sequences). Ask for
            # generation.engine=openvino explicitly to serve through it (replies then stream in word chunks).
            cfg.generation.engine = "transformers"

        responder = EngineResponder(build_engine(cfg), default_max_tokens=cfg.generation.max_new_tokens,
                                    max_batch=cfg.generation.batch_size)
        name = args.served_model_name or cfg.model.name_or_path
    else:
        responder = load_responder(args.responder, args.responder_arg)
        name = args.served_model_name or f"physr3-{args.responder.rsplit(':', 1)[-1]}"
    try:
        server = OpenAIServer(responder, host=args.host, port=args.port, model_name=name, delay_s=args.delay_s,
                              default_max_tokens=cfg.generation.max_new_tokens, verbose=args.verbose,
                              max_body_bytes=args.max_body_bytes)
    except OSError as exc:
        from physr3.errors import UserError

        raise UserError(f"cannot bind {args.host}:{args.port}: {exc.strerror or exc}") from None
    print(f"physr3 serve: serving {name} on {server.url}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    print("physr3 serve: stopped", flush=True)
    return 0
