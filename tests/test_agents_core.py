"""chartkit.agents: the shared dial, and the adapters' imports (no framework until asked)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from chartkit.agents import ToolDial, trace_attributes
from chartkit.check import events
from chartkit.errors import ChartkitError, ResultColumnsError

FRAMEWORKS = ("pydantic_ai", "agents", "langchain", "langchain_core", "langgraph", "openai")
ADAPTERS = [
    ("chartkit.agents.pydantic_ai", "pydantic_ai", "pip install 'chartkit[pydantic-ai]'"),
    ("chartkit.agents.openai_agents", "agents", "pip install 'chartkit[openai-agents]'"),
    ("chartkit.agents.langchain", "langchain_core", "pip install 'chartkit[langchain]'"),
]


def test_importing_chartkit_and_chartkit_agents_imports_no_framework() -> None:
    code = (
        "import sys, chartkit, chartkit.agents\n"
        f"print(sorted(m for m in {FRAMEWORKS!r} if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(("module", "framework", "install"), ADAPTERS)
def test_a_missing_extra_raises_with_the_install_line(
    module: str, framework: str, install: str
) -> None:
    code = (
        f"import sys; sys.modules[{framework!r}] = None\n"
        "from chartkit.errors import MissingExtraError\n"
        f"try:\n    import {module}\n"
        "except MissingExtraError as exc:\n    print(exc)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert install in done.stdout, done.stdout + done.stderr


def test_the_dial_files_the_outcome_in_its_ledger_and_answers_this_results_events() -> None:
    dial = ToolDial("warn", {"t": {"lun": "number"}})
    with events.subscribe() as sub:
        judged = dial.apply("t", [{"lun": ""}], call_id="c-1", run_id="run-1")
        dial.apply("t", [{"lun": 0}], run_id="run-2")
    assert judged.outcome.delivered == [{"lun": ""}] and judged.outcome.status == "ok"
    assert list(judged.events) == sub.drain()[:2]
    assert [(r.checked, r.findings) for r in dial.ledger.rows()] == [(2, 1), (2, 0)]
    assert [(r.checked, r.findings) for r in dial.ledger_for("run-1").rows()] == [(1, 1), (1, 0)]
    assert [r.checked for r in dial.ledger_for("never").rows()] == [0, 0]
    assert trace_attributes(judged.outcome)["chartkit.check.findings"] == 1


def test_the_dial_refuses_a_word_it_does_not_know_and_a_bad_declaration_naming_the_tool() -> None:
    with pytest.raises(ChartkitError, match="mode 'strict' is not one of off, warn, enforce"):
        ToolDial("strict")  # type: ignore[arg-type]
    with pytest.raises(ResultColumnsError, match="tool 't' declares column 'lun'"):
        ToolDial("warn", {"t": {"lun": "integer"}})
    with pytest.raises(ChartkitError, match="result_columns maps each tool's name"):
        ToolDial("warn", [("t", {})])  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["chartkit.agents._dial", "chartkit.agents.pydantic_ai"])
def test_the_docstring_examples_run(name: str) -> None:
    import doctest
    import importlib

    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=False)
    assert result.attempted > 0 and result.failed == 0
