"""The bundled examples, installed with chartkit: tool results, a notebook, two scripts.

The results (``*.json``, a run ``*.jsonl``) and ``notebook.ipynb`` (declare, check, view,
override an axis, save a PNG) are found by name with ``chartkit.example_path``;
``chartkit examples`` lists them and ``chartkit examples --copy DIR`` copies them. The scripts
run from any folder (``chartkit[mcp]`` for the first):

- ``python -m chartkit.examples.mcp_server [--ui]``: an MCP server (stdio) serving each
  bundled result as a declared tool;
- ``python -m chartkit.examples.build_agent_ui FILE -o PAGE.html``: the agent UI page with
  the View payloads of FILE's results embedded.

Importing this package imports neither script.
"""

from __future__ import annotations

__all__: list[str] = []
