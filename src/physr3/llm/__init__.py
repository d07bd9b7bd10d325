"""LLM access over HTTP: an OpenAI-compatible client (judge, teacher), its reply cache, and `physr3 serve`.

Import the submodules directly (`physr3.llm.client`, `physr3.llm.cache`, `physr3.llm.serve`); none of
them imports torch.
"""
