"""chartkit explorer: see a tool result the way chartkit judges it.

The thin Streamlit entry ``make explore`` runs (``streamlit run app/explorer.py``); the page
and its logic ship in the package, ``chartkit.explorer``, so ``chartkit explore`` works from
a plain ``pip install 'chartkit[app]'`` too.
"""

from __future__ import annotations

from chartkit.explorer.page import main

main()
