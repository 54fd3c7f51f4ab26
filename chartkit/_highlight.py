"""One highlighter for the cells the check rejects: the notebook's table, the explorer's rows.

Which cells offend is the check's own verdict (``chartkit.check.judge.offending_mask``), so a
highlight can never disagree with a finding; how an offending cell looks is ``HIGHLIGHT``,
one style for every surface. ``offending_cells`` reads rows (dicts, where a row without the
key offends like a null unless the column is nullable), ``frame_offending_cells`` a frame's
columns; ``highlighted`` styles a frame by either's marks, and ``offender_counts`` counts them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd
    from pandas.io.formats.style import Styler

__all__ = [
    "HIGHLIGHT",
    "frame_offending_cells",
    "highlighted",
    "offender_counts",
    "offending_cells",
    "offending_rows",
]

HIGHLIGHT = "background-color: #ffd5d5; color: #8b0000; font-weight: 600"
"""How a cell the check rejects is marked, wherever rows are shown."""


def offending_cells(
    rows: Sequence[Mapping[str, Any]], declaration: Mapping[str, Any] | None, columns: Sequence[str]
) -> dict[str, list[bool]]:
    """Per declared column in ``columns``, which of ``rows`` hold a value the check rejects.

    A row without the key offends unless the column is nullable, like a null.

    >>> offending_cells([{"lun": ""}, {"lun": 3}], {"lun": "number"}, ["lun"])
    {'lun': [True, False]}
    """
    if not declaration:
        return {}
    import pandas as pd

    from chartkit.check.judge import offending_mask
    from chartkit.columns import normalize_result_columns

    declared = normalize_result_columns(declaration)
    out: dict[str, list[bool]] = {}
    for name in columns:
        decl = declared.get(name)
        if decl is None:
            continue
        values = pd.Series([row.get(name) for row in rows], dtype=object)
        out[name] = offending_mask(values, decl).tolist()
    return out


def offending_rows(
    rows: Sequence[Mapping[str, Any]], declaration: Mapping[str, Any] | None, columns: Sequence[str]
) -> list[int]:
    """Indexes of the rows with at least one offending cell in ``columns``.

    >>> offending_rows([{"lun": 1}, {"lun": ""}], {"lun": "number"}, ["lun"])
    [1]
    """
    marks = offending_cells(rows, declaration, columns)
    if not marks:
        return []
    return [i for i, row in enumerate(zip(*marks.values(), strict=True)) if any(row)]


def frame_offending_cells(
    frame: pd.DataFrame, declaration: Mapping[str, Any] | None
) -> dict[str, list[bool]]:
    """Per declared column of ``frame``, which of its rows hold a value the check rejects.

    >>> import pandas as pd
    >>> frame_offending_cells(pd.DataFrame({"lun": ["", 3], "h": ["a", "b"]}), {"lun": "number"})
    {'lun': [True, False]}
    """
    if not declaration:
        return {}
    import pandas as pd

    from chartkit.check.judge import offending_mask
    from chartkit.columns import normalize_result_columns

    declared = normalize_result_columns(declaration)
    out: dict[str, list[bool]] = {}
    for name in frame.columns:
        decl = declared.get(name)
        if decl is not None:
            values = pd.Series(frame[name].tolist(), dtype=object)
            out[name] = offending_mask(values, decl).tolist()
    return out


def offender_counts(marks: Mapping[str, Sequence[bool]]) -> dict[str, int]:
    """How many cells each column's marks flag, for the columns that have any.

    >>> offender_counts({"lun": [True, False, True], "h": [False]})
    {'lun': 2}
    """
    counts = {name: sum(map(bool, flags)) for name, flags in marks.items()}
    return {name: n for name, n in counts.items() if n}


def highlighted(frame: pd.DataFrame, marks: Mapping[str, Sequence[bool]]) -> Styler:
    """``frame`` styled: each cell its column's marks flag gets ``HIGHLIGHT``.

    ``marks`` is keyed by ``frame``'s column names, one flag per row in order; a column of
    ``frame`` without marks, or a mark for a column ``frame`` lacks, is left plain.
    """
    import pandas as pd

    css = pd.DataFrame("", index=frame.index, columns=frame.columns)
    for position, name in enumerate(frame.columns):
        flags = marks.get(name)
        if flags is not None:
            css.iloc[:, position] = [HIGHLIGHT if f else "" for f in flags]
    return frame.style.apply(lambda _: css, axis=None)
