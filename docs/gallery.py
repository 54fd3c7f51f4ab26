"""Write the gallery: ``make gallery`` (or ``python docs/gallery.py``).

For each bundled example (``chartkit/examples/*.json``), the chart chartkit opens on and every
alternative the declared types allow, each rendered offline to a PNG in ``docs/gallery/``, and
``docs/gallery.md`` listing them with their reasons, refusals and notes — so a reader sees what
chartkit draws, and why, without running anything. Then the benchmark of real data
(``bench/datasets/``: the datasets ``vega_datasets`` ships offline): each dataset's default, its
picture, what the Vega-Lite or Altair gallery draws for the same data, and whether the default
is acceptable by ``bench/datasets/criteria.py`` (and if not, why). Nothing in it is written by
hand.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path
from typing import Any

from chartkit import View, view
from chartkit.explorer._logic import examples

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.datasets import DATASETS, dataset, judged  # noqa: E402

SCALE = 1.0  # PNG pixels per spec pixel: one-to-one keeps the repository light


def _md(text: str) -> str:
    """Text as Markdown shows it literally: no tags, no emphasis, no links."""
    out = text.replace("\\", "\\\\")
    for ch in "`*_[]<>|#":
        out = out.replace(ch, f"\\{ch}")
    return out


def _picks(picks: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in picks.items())


def _section(name: str, data: dict[str, Any], folder: Path) -> list[str]:
    rows, decl, tool = data["rows"], data.get("resultColumns"), data["tool"]
    shown = view(rows, decl, tool=tool)
    lines = [f"## {name}", "", _md(data.get("description", "")), ""]
    lines += _drawn(shown, f"{name}.png", folder, "Opens on")
    for i, alternative in enumerate(shown.alternatives):
        chosen = view(rows, decl, tool=tool, choose=i)
        call = f"view(..., choose={i})  # {_picks(alternative.picks())}"
        lines += [f"### Alternative {i}: {alternative.chart}", "", f"`{call}`", ""]
        lines += [f"**Why**: {_md(alternative.reason)}", ""]
        lines += _drawn(chosen, f"{name}-{i}.png", folder, "Drawn")
    return lines


def _drawn(shown: View, png: str, folder: Path, lead: str) -> list[str]:
    lines = [f"**{lead}** ({shown.kind}): {_md(shown.reason)}", ""]
    lines += [f"- refused {r.channel}: {_md(r.reason)}" for r in shown.refusals]
    lines += [f"- note: {_md(n)}" for n in shown.notes]
    if shown.refusals or shown.notes:
        lines.append("")
    if shown.spec is not None:
        _write_png(folder / png, shown.to_png(scale=SCALE))
        lines += [f"![{_md(shown.reason)}](gallery/{png})", ""]
    return lines


def _declared(result_columns: dict[str, Any]) -> str:
    parts = []
    for name, declared in result_columns.items():
        kind = declared if isinstance(declared, str) else declared["type"]
        nullable = isinstance(declared, dict) and declared.get("nullable")
        parts.append(f"{name} {kind}{' (nullable)' if nullable else ''}")
    return ", ".join(parts)


def _datasets(folder: Path) -> list[str]:
    """The benchmark of real data: each dataset's default, its picture and its verdict."""
    verdicts = {name: judged(name) for name in DATASETS}
    good = sum(v.acceptable for _, v in verdicts.values())
    lines = [
        "## Real data: the datasets vega\\_datasets and statsmodels ship",
        "",
        "The benchmark of issues 20 and 40 (`bench/datasets/`, `bench/gallery.py`): each "
        "dataset `vega_datasets` and `statsmodels` ship offline, as its tool returns it, with "
        "the declaration its author would write; what the Vega-Lite or Altair gallery (or, "
        "with no gallery chart, an analyst) draws for the same data; chartkit's default; and "
        "whether that default is acceptable by the properties in `bench/datasets/criteria.py` "
        "(a scatter for two measures and no date, a line split only by an entity, axes not "
        "forced to zero, log scales as points, a time axis that fits the width, the default "
        "independent of the rows' key order; a grid on x and the response on y, coordinates "
        "as a map, no continuous axis of three values or fewer, counts summed, both factors "
        "drawn, like measures together, a line per entity over a grid, lines broken at "
        "missing time points, …). "
        f"**{good} of {len(verdicts)} defaults are acceptable.**",
        "",
        "| dataset | rows | chartkit's default | acceptable |",
        "|---|---:|---|---|",
    ]
    for name, (shown, verdict) in verdicts.items():
        mark = shown.mark if shown.kind == "chart" else shown.kind
        picks = ", ".join(
            f"{ch}={e.aggregate}({e.column})" if e.aggregate else f"{ch}={e.column}"
            for ch, e in shown.encodings.items()
        )
        ok = "yes" if verdict.acceptable else "no"
        rows = len(dataset(name).rows)
        lines.append(f"| [{name}](#data-{name}) | {rows:,} | {mark}: {_md(picks)} | {ok} |")
    lines.append("")
    for name, (shown, verdict) in verdicts.items():
        ds = dataset(name)
        lines += [f"### data-{name}", "", _md(ds.description), ""]
        lines += [f"**Declared** (`{ds.tool}`): {_md(_declared(ds.result_columns))}", ""]
        if ds.gallery is not None:
            where = f"`{ds.gallery['repo']}`: `{ds.gallery['spec']}`"
            lines += [f"**The gallery draws** ({where}): {_md(ds.gallery['draws'])}", ""]
        else:
            lines += [f"**No gallery chart; an analyst draws**: {_md(ds.analyst or '')}", ""]
        verdict_text = "acceptable" if verdict.acceptable else f"not acceptable — {verdict.why_not}"
        lines += [f"**Verdict**: {_md(verdict_text)}", ""]
        lines += _drawn(shown, f"data-{name}.png", folder, "chartkit's default")
    return lines


def _write_png(path: Path, png: bytes) -> None:
    """The PNG with its colours in a 256-entry palette (flat charts lose nothing): ~4x smaller."""
    from PIL import Image  # Pillow comes with Streamlit (the dev extra)

    with Image.open(io.BytesIO(png)) as image:
        image.convert("RGB").quantize(colors=256).save(path, optimize=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "docs")
    args = parser.parse_args()
    folder = args.out / "gallery"
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    lines = [
        "# Gallery: what chartkit draws for each bundled example",
        "",
        "Written by `make gallery` (`docs/gallery.py`); every picture is `view()`'s own chart, "
        "rendered offline. Each example opens on the chart its declared types call for; the "
        "alternatives are the other charts those types allow, ranked, each with the sentence "
        "that says why it fits. `view(..., choose=N)` draws alternative N.",
        "",
    ]
    for example in examples():
        if example.path.suffix != ".json":
            continue  # a run (.jsonl) is many results; the gallery shows one result each
        data = json.loads(example.path.read_text(encoding="utf-8"))
        lines += _section(example.name, data, folder)
    lines += _datasets(folder)
    (args.out / "gallery.md").write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
