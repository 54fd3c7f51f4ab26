"""Adapters that put the check inside real agent loops, one optional extra each.

Importing ``chartkit.agents`` imports no framework; each adapter module imports its own, and a
missing one raises ``MissingExtraError`` with the install line:

- ``chartkit.agents.pydantic_ai``   — ``pip install 'chartkit[pydantic-ai]'``
- ``chartkit.agents.openai_agents`` — ``pip install 'chartkit[openai-agents]'``
- ``chartkit.agents.langchain``     — ``pip install 'chartkit[langchain]'``

All three share ``ToolDial``: the dial applied to one tool return, before the model reads it.
"""

from __future__ import annotations

from chartkit.agents._dial import Judgement, ToolDial, trace_attributes

__all__ = ["Judgement", "ToolDial", "trace_attributes"]
