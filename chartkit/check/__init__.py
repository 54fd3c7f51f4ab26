"""The check stage: the rows against their declaration, one verdict table, the dial.

- ``chartkit.check.judge``: ``check_columns`` → a ``ColumnViolation`` per broken column, in
  memory (a list of dicts read once, in C where built; a pandas frame by its dtypes), or in the
  engine that holds the rows (``chartkit.check._frame_check``: one count query).
- ``chartkit.check.verdicts``: the one verdict table (declared type × value type → ok |
  absent | offends) every path reads.
- ``chartkit.check.integrity``: the dial ``off | warn | enforce`` (``check_result``) and the
  ledgers that add its disposition rows up; ``chartkit.check.events``: each outcome published
  to a framework's bus.
- ``chartkit.check.outcome``: what a check is, as values (``CheckOutcome``, ``Finding``,
  ``DispositionRow``) and as escaped HTML (``_repr_html_``).

Each name is imported from its module (or from ``chartkit``); importing this package imports
none of them.
"""

from __future__ import annotations

__all__: list[str] = []
