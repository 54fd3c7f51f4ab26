"""The explorer: a Streamlit app to look at tool results the way chartkit judges them.

Ships with the package (``pip install 'chartkit[app]'``, then ``chartkit explore``). The page is
``chartkit.explorer.page`` (it imports Streamlit); its logic — sources, parsing, the run ledger,
highlights, the declaration editor — is plain Python in ``chartkit.explorer._logic``. Importing
this package imports neither.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["SCRIPT"]

SCRIPT = Path(__file__).resolve().parent / "streamlit_app.py"
"""The file ``streamlit run`` is given: a one-line entry that calls ``page.main()``."""
