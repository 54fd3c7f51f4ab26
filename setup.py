"""Build the optional C reader, ``chartkit._speedups``; pyproject.toml holds everything else.

The extension is optional: where it cannot be compiled (no compiler, no Python headers) the
install goes on without it and chartkit reads rows in pure Python, with the same results.
``CHARTKIT_SPEEDUPS=required`` makes a failed build an error instead (CI sets it).
"""

from __future__ import annotations

import os

from setuptools import Extension, setup

REQUIRED = os.environ.get("CHARTKIT_SPEEDUPS") == "required"

setup(
    ext_modules=[
        Extension(
            "chartkit._speedups",
            sources=["chartkit/_speedups.c"],
            optional=not REQUIRED,
        )
    ]
)
