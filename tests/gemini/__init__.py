"""Tests of the Gemini test kit and wire rules (the Gemini wing itself comes later)."""
