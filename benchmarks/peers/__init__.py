"""``make bench-peers``: llmbridge beside LangChain, Pydantic AI and LiteLLM, same inputs, one run.

The peers are installed only in ``.venv-peers`` (``requirements.txt`` here, exact versions);
a peer that is not installed is left out of the table, so the harness also runs in the main
virtualenv with llmbridge and the floor alone (the smoke test does).
"""
