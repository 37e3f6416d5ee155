"""Tests of llmbridge.openai."""
