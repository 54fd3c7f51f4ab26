"""Build the optional C reader, ``chartkit._speedups``; pyproject.toml holds everything else.

The extension is optional: where it cannot be compiled (no compiler, no Python headers) the
install goes on without it and chartkit reads rows in pure Python, with the same results — and
says so, here in the build's output and at run time (``chartkit --version``,
``chartkit.speedups_enabled()``). ``CHARTKIT_SPEEDUPS=required`` makes a failed build an error
instead (CI sets it).
"""

from __future__ import annotations

import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

REQUIRED = os.environ.get("CHARTKIT_SPEEDUPS") == "required"

WARNING = """
********************************************************************************
chartkit: the compiled reader (chartkit._speedups) was NOT built: {error}
chartkit is installed and gives the same answers, reading rows in pure Python
(about 3x slower on large lists of rows). To build it, install a C compiler and
the Python headers (Debian: apt-get install gcc python3-dev) and reinstall.
`chartkit --version` says whether it is in use.
********************************************************************************
"""


class _BuildExt(build_ext):
    """Builds the reader; a failure to compile is said in a visible block, not one line."""

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:  # the compiler's own error types vary by platform
            if REQUIRED:
                raise
            sys.stderr.write(WARNING.format(error=str(exc).strip() or type(exc).__name__))

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler at all: the platform error comes from here
            if REQUIRED:
                raise
            sys.stderr.write(WARNING.format(error=str(exc).strip() or type(exc).__name__))


setup(
    cmdclass={"build_ext": _BuildExt},
    ext_modules=[
        Extension(
            "chartkit._speedups",
            sources=["chartkit/_speedups.c"],
            optional=not REQUIRED,
        )
    ],
)
