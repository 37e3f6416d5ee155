"""The OpenAI Responses wing: its request, reply, stream and connector rooms.

Private: the public names are exported from ``llmbridge.openai``.
"""
