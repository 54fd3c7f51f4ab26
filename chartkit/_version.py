"""chartkit's version: the package re-exports it, the CLI prints it (pyproject.toml says the same;
tests/test_public_api.py holds them equal)."""

from __future__ import annotations

__all__ = ["__version__"]

__version__ = "0.1.0"
