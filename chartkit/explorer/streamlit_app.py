"""The Streamlit entry ``chartkit explore`` runs: ``streamlit run`` this file."""

from __future__ import annotations

from chartkit.explorer.page import main

__all__: list[str] = []

main()
