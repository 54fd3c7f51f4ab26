"""The check stage: the rows against their declaration, one verdict table, the dial.

- ``chartkit.check.judge``: ``check_columns`` → a ``ColumnViolation`` per broken column, in
  memory (a list of dicts read once, in C where built; a pandas frame by its dtypes), or in the
  engine that holds the rows (``chartkit.check._frame_check``: one count query).
- ``chartkit.check.verdicts``: the one verdict table (declared type × value type → ok |
  absent | offends) every path reads.
- ``chartkit.check.integrity``: the dial ``off | warn | enforce`` → ``CheckOutcome``, findings,
  disposition rows; ``chartkit.check.events``: each of them published to a framework's bus.
- ``chartkit.check.report``: an outcome and its findings as escaped HTML (``_repr_html_``).

Each name is imported from its module (or from ``chartkit``); importing this package imports
none of them.
"""

from __future__ import annotations

__all__: list[str] = []
