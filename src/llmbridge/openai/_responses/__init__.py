"""The OpenAI Responses wing (``client.responses.create``), exported by ``llmbridge.openai``."""
