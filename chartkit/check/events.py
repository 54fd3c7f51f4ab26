"""The check's two events, for an agent framework's own bus: each finding, each disposition.

Every ``check_result`` call publishes, in this order, one ``integrity.context_error`` event per
finding it filed (none when the dial is off, the tool declares nothing, or the rows are clean)
and then one ``integrity.disposition`` event carrying that result's disposition rows — always,
because a check that was never armed is a not-applicable row, never a silent absence.

Subscribe with a callback (called synchronously, in the thread that ran the check, after the
outcome is complete) or without one, and read the events buffered since with ``drain()`` or by
iterating the subscription. Logging stays: each finding is still one WARNING on the logger
``chartkit.integrity``. A subscriber that raises is logged (ERROR, on ``chartkit.events``) and
skipped; it cannot change what the check delivers, nor stop the other subscribers.

>>> from chartkit import ToolResult, check_result
>>> with subscribe() as sub:
...     _ = check_result(ToolResult("t", [{"lun": ""}], result_columns={"lun": "number"}),
...                      mode="warn")
>>> [(e.name, e.tool) for e in sub.drain()]
[('integrity.context_error', 't'), ('integrity.disposition', 't')]
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING, Any, Final, Literal, get_args

from chartkit.errors import ChartkitError

if TYPE_CHECKING:
    from chartkit.check.outcome import CheckOutcome, DispositionRow, Finding
    from chartkit.result import ToolResult

__all__ = [
    "CONTEXT_ERROR",
    "DISPOSITION",
    "EVENT_NAMES",
    "EventName",
    "IntegrityEvent",
    "Subscription",
    "publish",
    "subscribe",
]

EventName = Literal["integrity.context_error", "integrity.disposition"]
EVENT_NAMES: tuple[EventName, ...] = get_args(EventName)
CONTEXT_ERROR: Final = "integrity.context_error"
"""A finding was filed: ``payload`` is the finding's JSON (``Finding.to_dict()``)."""
DISPOSITION: Final = "integrity.disposition"
"""A result was judged (or could not be): ``payload["rows"]`` are its disposition rows."""

DEFAULT_BUFFER = 10_000
"""Events a subscription without a callback keeps before it drops the oldest."""

logger = logging.getLogger("chartkit.events")


@dataclass(frozen=True, slots=True)
class IntegrityEvent:
    """One published event: its name, the result it is about, and a JSON-ready payload.

    ``finding`` is set on ``integrity.context_error``; ``disposition`` (the result's rows, one
    per check) on ``integrity.disposition``. ``payload`` is what a bus would carry:
    the finding's ``to_dict()``, or ``{"tool", "callId", "mode", "status", "rows": [...]}``.
    """

    name: EventName
    tool: str
    call_id: str | None
    payload: dict[str, Any]
    finding: Finding | None = None
    disposition: tuple[DispositionRow, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """``{"name": ..., "payload": ...}``: JSON-ready, for a bus that speaks JSON."""
        return {"name": self.name, "payload": self.payload}


Callback = Callable[[IntegrityEvent], object]


class Subscription:
    """A live subscription; ``close()`` (or leaving its ``with`` block) ends it.

    With a callback, each event is handed to it as it is published. Without one, events are
    kept (the newest ``buffer`` of them; ``dropped`` counts the rest) until ``drain()`` or
    iteration takes them.
    """

    def __init__(self, callback: Callback | None, names: frozenset[EventName], buffer: int) -> None:
        self._callback = callback
        self.names = names
        self._pending: deque[IntegrityEvent] = deque()
        self._buffer = buffer
        self._lock = threading.Lock()
        self.dropped = 0
        self.closed = False

    def _deliver(self, event: IntegrityEvent) -> None:
        if self.closed or event.name not in self.names:
            return
        if self._callback is not None:
            self._callback(event)
            return
        with self._lock:
            if len(self._pending) >= self._buffer:
                self._pending.popleft()
                self.dropped += 1
            self._pending.append(event)

    def drain(self) -> list[IntegrityEvent]:
        """The events kept since the last drain, oldest first; the buffer is emptied."""
        with self._lock:
            taken = list(self._pending)
            self._pending.clear()
        return taken

    def __iter__(self) -> Iterator[IntegrityEvent]:
        """Iterate the events kept so far (a drain); it ends when none are left."""
        return iter(self.drain())

    def close(self) -> None:
        """Stop receiving events; events already kept stay readable with ``drain()``."""
        with _lock:
            if self in _subscribers:
                _subscribers.remove(self)
        self.closed = True

    def __enter__(self) -> Subscription:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


_subscribers: list[Subscription] = []
_lock = threading.Lock()


def subscribe(
    callback: Callback | None = None,
    *,
    events: Collection[EventName] = EVENT_NAMES,
    buffer: int = DEFAULT_BUFFER,
) -> Subscription:
    """Receive the check's events: through ``callback``, or kept for ``drain()``.

    ``events`` narrows the names received (default: both). The subscription is process-wide
    and lasts until ``close()``; use it as a context manager to scope it.

    >>> seen = []
    >>> with subscribe(seen.append, events=["integrity.disposition"]):
    ...     pass
    >>> subscribe(events=["integrity.finding"])
    Traceback (most recent call last):
    ...
    chartkit.errors.ChartkitError: event 'integrity.finding' is not one of \
integrity.context_error, integrity.disposition
    """
    names = frozenset(events)
    unknown = sorted(names - set(EVENT_NAMES))
    if unknown:
        raise ChartkitError(f"event {unknown[0]!r} is not one of {', '.join(EVENT_NAMES)}")
    if callback is not None and not callable(callback):
        raise ChartkitError(
            f"callback must be callable (it is handed each IntegrityEvent), got "
            f"{type(callback).__name__}"
        )
    if isinstance(buffer, bool) or not isinstance(buffer, int) or buffer < 1:
        raise ChartkitError(f"buffer must be a positive int, got {buffer!r}")
    subscription = Subscription(callback, names, buffer)
    with _lock:
        _subscribers.append(subscription)
    return subscription


def publish(result: ToolResult, outcome: CheckOutcome) -> CheckOutcome:
    """Publish ``outcome``'s events to every subscriber, and answer ``outcome`` unchanged.

    ``check_result`` calls this for every result it judges; nothing else needs to.
    """
    with _lock:
        subscribers = tuple(_subscribers)
    if not subscribers:
        return outcome
    events = [
        IntegrityEvent(CONTEXT_ERROR, result.tool, result.call_id, payload=f.to_dict(), finding=f)
        for f in outcome.findings
    ]
    events.append(
        IntegrityEvent(
            DISPOSITION,
            result.tool,
            result.call_id,
            payload={
                "tool": result.tool,
                "callId": result.call_id,
                "mode": outcome.mode,
                "status": outcome.status,
                "rows": [row.to_dict() for row in outcome.disposition],
            },
            disposition=outcome.disposition,
        )
    )
    for event in events:
        for subscription in subscribers:
            try:
                subscription._deliver(event)
            except Exception:
                logger.exception(
                    "a subscriber to %s raised; it was skipped, and the check's outcome is "
                    "unchanged",
                    event.name,
                )
    return outcome
