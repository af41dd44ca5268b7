"""The runs page's link: which source, run, query, measure, K and pair of runs are open.

Files cannot travel in a link, so a link made on uploaded files reopens the page on the sample
collection with a notice, unless the same files are loaded again in the session. Parameters are
parsed strictly: K only from ASCII digits (``"１０"`` and ``"1e3"`` are refused, not read), names at most
:data:`MAX_NAME` printable characters. Whatever is refused becomes one notice; the rest of the link
still applies.

>>> view, notices = parse_link({"source": "sample", "run": "bm25", "measure": "nDCG@10", "k": "5", "x": "1"})
>>> view.run, view.measure, view.k, notices
('bm25', 'nDCG@10', 5, ["The link's parameter 'x' is not one IR Lab knows; it was ignored."])
>>> parse_link({"k": "１０"})[1]
["The link's K ('１０') is not a whole number from 1 to 10000 written with the digits 0-9; it was ignored."]
>>> to_link(RunsView(run="bm25", query="401", measure="AP", k=10))
{'source': 'sample', 'run': 'bm25', 'query': '401', 'measure': 'AP', 'k': '10'}
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, fields

SOURCES = ("sample", "files")
MAX_NAME = 200
MAX_K = 10_000
_DIGITS = re.compile(r"[0-9]{1,6}")
_NAMES = ("run", "query", "measure", "a", "b")
KNOWN = ("source", *_NAMES, "k")


@dataclass(frozen=True)
class RunsView:
    """What the runs page shows; None means "the page's default"."""

    source: str = "sample"
    run: str | None = None
    query: str | None = None
    measure: str | None = None
    k: int | None = None
    a: str | None = None
    b: str | None = None


def parse_link(params: Mapping[str, str]) -> tuple[RunsView, list[str]]:
    """A :class:`RunsView` from a link's query parameters, and a notice for each part that was refused."""
    notices: list[str] = []
    values: dict[str, object] = {}
    unknown = [name for name in params if name not in KNOWN]
    if unknown:
        shown = ", ".join(_quoted(name) for name in unknown[:5])
        shown += f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
        notices.append(f"The link's parameter{'s' if len(unknown) > 1 else ''} {shown} "
                       f"{'are' if len(unknown) > 1 else 'is'} not one IR Lab knows; "
                       f"{'they were' if len(unknown) > 1 else 'it was'} ignored.")
    source = params.get("source")
    if source is not None:
        if source in SOURCES:
            values["source"] = source
        else:
            notices.append(f"The link's source ({_quoted(source)}) is neither 'sample' nor 'files'; "
                           "the sample is shown.")
    for name in _NAMES:
        text = params.get(name)
        if text is None:
            continue
        if 0 < len(text) <= MAX_NAME and text.isprintable():
            values[name] = text
        else:
            notices.append(f"The link's {name} is empty, too long or holds control characters; it was ignored.")
    k = params.get("k")
    if k is not None:
        if _DIGITS.fullmatch(k) and 1 <= int(k) <= MAX_K:
            values["k"] = int(k)
        else:
            notices.append(f"The link's K ({_quoted(k)}) is not a whole number from 1 to {MAX_K} written with the "
                           "digits 0-9; it was ignored.")
    return RunsView(**values), notices


def to_link(view: RunsView) -> dict[str, str]:
    """The query parameters of ``view`` (defaults left out, except the source)."""
    link = {}
    for f in fields(view):
        value = getattr(view, f.name)
        if value is not None:
            link[f.name] = str(value)
    return link


def _quoted(text: str) -> str:
    return repr(text[:40] + ("…" if len(text) > 40 else ""))
