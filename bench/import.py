"""``import chartkit`` plus a 1,000-row check: the CPU a short-lived process pays (issue 19 item 5).

Each run is a fresh interpreter that imports chartkit and checks 1,000 rows × 4 columns (a list
of dicts, one column offending) — what a CLI call, a hook or an agent's tool wrapper pays
before its first answer. Prints the median and the range of the child's CPU time (user +
system, from ``resource``) over ``--runs`` runs, against the goal of 0.5 s, and which heavy
libraries the child had imported by then. A bare ``python -c pass`` is measured the same way
(the floor no library can go under). Run it on a quiet machine: CPU time is less noisy than
wall time, but not immune to a crowded one.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys

GOAL_S = 0.5
CHILD = r"""
import json, sys
import chartkit
from chartkit import check_columns
rows = [{"lun": i if i % 100 else "", "host": f"vdi-{i % 7}", "gb": i * 0.5,
         "seen": "2024-01-05T10:30:00Z"} for i in range(1000)]
found = check_columns(rows, {"lun": "number", "host": "string", "gb": "number", "seen": "date"})
assert [v.column for v in found] == ["lun"], found
heavy = ("numpy", "pandas", "pyarrow", "altair", "narwhals", "pydantic")
print(json.dumps(sorted(m for m in heavy if m in sys.modules)))
"""


def child_cpu(code: str) -> tuple[float, str]:
    """CPU seconds (user + system) of one fresh interpreter running ``code``, and its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    spent = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return spent, done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    floor = statistics.median(child_cpu("pass")[0] for _ in range(args.runs))
    runs = [child_cpu(CHILD) for _ in range(args.runs)]
    cpu = sorted(spent for spent, _ in runs)
    heavy = json.loads(runs[-1][1])
    median = statistics.median(cpu)
    verdict = "met" if median <= GOAL_S else "NOT met"
    print(f"python -c pass: {floor:.3f} s of CPU (median of {args.runs})")
    print(
        f"import chartkit + check of 1,000 rows x 4 columns: {median:.3f} s of CPU "
        f"(median of {args.runs}; {cpu[0]:.3f}-{cpu[-1]:.3f}); goal {GOAL_S} s: {verdict}"
    )
    print(f"heavy libraries imported by then: {', '.join(heavy) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
