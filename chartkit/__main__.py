"""``python -m chartkit``: the same command line as the ``chartkit`` console script."""

from __future__ import annotations

import sys

from chartkit.cli import main

__all__: list[str] = []

if __name__ == "__main__":
    sys.exit(main())
