"""A one-line progress bar for long command-line runs: on a terminal's stderr, silent elsewhere."""

from __future__ import annotations

import time
from typing import TextIO

__all__ = ["Progress"]


class Progress:
    """Draws ``label [#####.....] done/total`` on ``stream`` when it is a terminal.

    Draws nothing until ``delay`` seconds have passed (a quick run shows no bar), then redraws
    at most every ``interval`` seconds and always at the last step; ``close`` wipes the line so
    what is printed next starts clean. Off a terminal (a pipe, a file, a test's captured
    stream) it writes nothing at all.

    >>> import io
    >>> bar = Progress(3, label="checking", stream=io.StringIO())
    >>> bar.enabled
    False
    """

    def __init__(
        self,
        total: int,
        *,
        label: str,
        stream: TextIO,
        min_total: int = 2,
        width: int = 30,
        delay: float = 0.0,
        interval: float = 0.1,
    ) -> None:
        self.total = total
        self.label = label
        self.stream = stream
        self.width = width
        self.interval = interval
        self.done = 0
        isatty = getattr(stream, "isatty", None)
        self.enabled = bool(total >= min_total and callable(isatty) and isatty())
        self._start = time.monotonic() + delay
        self._drawn_at: float | None = None
        self._shown = 0

    def advance(self, steps: int = 1) -> None:
        """Count ``steps`` more done, redrawing when due."""
        self.done = min(self.done + steps, self.total)
        if not self.enabled:
            return
        now = time.monotonic()
        if now < self._start:
            return
        due = self._drawn_at is None or now - self._drawn_at >= self.interval
        if due or self.done == self.total:
            self._draw()
            self._drawn_at = now

    def _draw(self) -> None:
        filled = self.width * self.done // self.total if self.total else self.width
        line = (
            f"{self.label} [{'#' * filled}{'.' * (self.width - filled)}] {self.done}/{self.total}"
        )
        self.stream.write("\r" + line.ljust(self._shown))
        self.stream.flush()
        self._shown = len(line)

    def close(self) -> None:
        """Wipe the bar's line (a no-op when nothing was drawn)."""
        if self.enabled and self._shown:
            self.stream.write("\r" + " " * self._shown + "\r")
            self.stream.flush()
            self._shown = 0
