"""What the pooling lab page holds and asks: the class's runs, the grades to judge the pool with, and the tables.

A :class:`PoolingLab` is the page's whole state that is not a widget: the runs (a simulated class or
uploaded files), the *truth* when there is one (a simulated collection's true grades, or qrels the
lecturer uploaded), the documents' and topics' texts, and the judgments made in the browser. Every
number the page shows comes from here, as rows of text ready to draw; the page does no arithmetic.

Where a pool's grades come from (:meth:`PoolingLab.grades`):

* ``truth``: the true grades (simulated collection) or the uploaded qrels;
* ``mine``: the judgments made on this page (what is not judged yet is pooled but unjudged);
* ``judges``: several judges' files (or simulated judges), merged by majority (:mod:`irlab.runs.agreement`).

>>> lab = PoolingLab.sample(topics=4, depth=10)
>>> lab.pool(3).size > 0, lab.next_item(3) is not None
(True, True)
>>> lab = lab.judged(lab.next_item(3), 2)
>>> lab.progress(3)
(1, ...)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from irlab.errors import ValidationError
from irlab.runs.agreement import Agreement, Item, agreement, assign, merge, simulated_judges
from irlab.runs.pooling import (
    DEPTHS,
    POOL_MEASURES,
    Pool,
    Sweep,
    depth_sweep,
    grades_of,
    leave_one_out,
    pool_runs,
    simulated_class,
)
from irlab.runs.trec import QrelsTable, RunTable, parse_qrels

GRADES = (0, 1, 2, 3)
"""The grades a judge gives on this page (TREC's 0-3 scale)."""
GRADE_NAMES = {0: "not relevant", 1: "relevant", 2: "highly relevant", 3: "perfect"}
MAX_RUNS = 200
"""Runs one lab holds (a class of 200)."""
SOURCES = {"truth": "the true grades", "mine": "my judgments on this page", "judges": "the judges' merged grades"}


@dataclass(frozen=True)
class PoolingLab:
    """The pooling lab's data (see the module). Immutable: each change returns a new lab."""

    runs: Mapping[str, RunTable]
    truth: QrelsTable | None = None
    label: str = ""
    simulated: bool = False
    documents: Mapping[str, str] = field(default_factory=dict)
    topics: Mapping[str, str] = field(default_factory=dict)
    mine: Mapping[Item, int] = field(default_factory=dict)
    judges: Mapping[str, Mapping[Item, int]] = field(default_factory=dict)

    @classmethod
    def sample(cls, *, topics: int = 50, depth: int = 100) -> PoolingLab:
        """The simulated class (:func:`irlab.runs.pooling.simulated_class`)."""
        sample = simulated_class(topics=topics, depth=depth)
        return cls(sample.runs, sample.truth, sample.label, simulated=True)

    def with_runs(self, runs: Mapping[str, RunTable]) -> PoolingLab:
        if len(runs) > MAX_RUNS:
            raise ValidationError(f"the pooling lab holds at most {MAX_RUNS} runs")
        return replace(self, runs=dict(runs), simulated=False)

    # --- the pool ------------------------------------------------------------------------------------------------

    def pool(self, depth: int) -> Pool:
        return pool_runs(self.runs, depth)

    def deepest(self) -> int:
        """The longest ranking of any run (the deepest pool worth building)."""
        return max((int(np.max(np.diff(run.offsets))) for run in self.runs.values() if len(run.query_ids)), default=1)

    def depths(self) -> tuple[int, ...]:
        """The sweep's depths for these runs (:data:`~irlab.runs.pooling.DEPTHS` up to the deepest, and it)."""
        deepest = self.deepest()
        return tuple(sorted({d for d in DEPTHS if d < deepest} | {min(deepest, 1_000)}))

    def pool_rows(self, depth: int) -> list[dict]:
        """Per run: documents it put in the pool at ``depth`` that no other run did (text cells)."""
        pool = self.pool(depth)
        return [{"run": name, "documents only it pooled": f"{count:,}",
                 "share of the pool": f"{count / pool.size:.1%}" if pool.size else "—"}
                for name, count in sorted(pool.unique.items(), key=lambda kv: (-kv[1], kv[0]))]

    # --- judging on this page ------------------------------------------------------------------------------------

    def order(self, depth: int) -> list[Item]:
        """The pool in the order this page asks for judgments: shuffled (seeded), never in a run's order."""
        return assign(self.pool(depth).items(), ["you"], overlap=1)["you"]

    def next_item(self, depth: int, after: Item | None = None) -> Item | None:
        """The first item not judged yet (after ``after`` when given, wrapping around), or None when all are."""
        order = self.order(depth)
        start = order.index(after) + 1 if after in order else 0
        for item in order[start:] + order[:start]:
            if item not in self.mine:
                return item
        return None

    def judged(self, item: Item, grade: int) -> PoolingLab:
        """This lab with ``item`` judged ``grade`` (one of :data:`GRADES`)."""
        if grade not in GRADES or isinstance(grade, bool):
            raise ValidationError(f"a grade is one of {', '.join(map(str, GRADES))}, got {grade!r}")
        return replace(self, mine={**self.mine, item: int(grade)})

    def progress(self, depth: int) -> tuple[int, int]:
        """(judged on this page, pool size) at ``depth``."""
        pool = self.pool(depth)
        return sum(1 for item in pool.items() if item in self.mine), pool.size

    def mine_as_qrels(self) -> str:
        """The judgments made on this page as a qrels file."""
        return "".join(f"{topic} 0 {doc} {grade}\n" for (topic, doc), grade in sorted(self.mine.items()))

    def document_text(self, item: Item) -> str | None:
        return self.documents.get(item[1])

    def topic_text(self, topic: str) -> str | None:
        return self.topics.get(topic)

    # --- several judges -------------------------------------------------------------------------------------------

    def with_judges(self, judgments: Mapping[str, Mapping[Item, int]]) -> PoolingLab:
        return replace(self, judges=dict(judgments))

    def with_judge_files(self, files: Mapping[str, bytes]) -> PoolingLab:
        """Judges' filled sheets (qrels files, one per judge, named by the file); a ``-`` grade is not judged yet."""
        judgments = {}
        for name, data in files.items():
            lines = [line for line in bytes(data).splitlines() if not line.rstrip().endswith(b" -")]
            judgments[name] = grades_of(parse_qrels(b"\n".join(lines) + b"\n", name)) if lines else {}
        return self.with_judges(judgments)

    def simulate_judges(self, depth: int, judges: int, overlap: int, error: float) -> PoolingLab:
        """Simulated judges of the pool at ``depth`` (needs the truth)."""
        if self.truth is None:
            raise ValidationError("simulated judges need the true grades (the simulated class, or uploaded qrels)")
        names = [f"judge {i}" for i in range(1, judges + 1)]
        return self.with_judges(simulated_judges(grades_of(self.truth), self.pool(depth).items(), names,
                                                 overlap=overlap, error=error))

    def sheets(self, depth: int, judges: Sequence[str], overlap: int) -> dict[str, str]:
        """Each judge's sheet: a qrels file of their share with the grade to fill in (``-`` until judged)."""
        shares = assign(self.pool(depth).items(), judges, overlap=overlap)
        return {judge: "".join(f"{topic} 0 {doc} -\n" for topic, doc in items) for judge, items in shares.items()}

    def agreement(self) -> Agreement | None:
        return agreement(self.judges) if self.judges else None

    def agreement_rows(self) -> list[dict]:
        """Per pair of judges: items shared, share alike, Cohen's kappa on grades and on relevance (text cells)."""
        found = self.agreement()
        if found is None:
            return []
        return [{"judges": f"{p.first} & {p.second}", "shared documents": f"{p.items:,}",
                 "same grade": f"{p.same:.1%}", "Cohen's kappa (grades)": _number(p.kappa),
                 "Cohen's kappa (relevant or not)": _number(p.kappa_relevant)} for p in found.pairs]

    def agreement_summary(self) -> str:
        """Fleiss' kappa in a sentence (empty without judges)."""
        found = self.agreement()
        if found is None:
            return ""
        if not found.fleiss_items:
            return (f"{len(found.judges)} judges, {found.judged_items:,} documents judged, none by two judges: "
                    "agreement needs an overlap.")
        return (f"{len(found.judges)} judges judged {_documents(found.judged_items)}, {found.shared_items:,} of them "
                f"by two or more. Fleiss' kappa over the {_documents(found.fleiss_items)} judged by "
                f"{found.fleiss_raters}: {_number(found.fleiss)} on the grades, {_number(found.fleiss_relevant)} on "
                "relevant or not (1 = always agree, 0 = what chance gives).")

    # --- the sweep -----------------------------------------------------------------------------------------------

    def sources(self) -> list[str]:
        """The grade sources available now (keys of :data:`SOURCES`)."""
        return [key for key, ok in (("truth", self.truth is not None), ("mine", bool(self.mine)),
                                    ("judges", bool(self.judges))) if ok]

    def grades(self, source: str) -> Mapping[Item, int]:
        if source == "truth" and self.truth is not None:
            return grades_of(self.truth)
        if source == "mine":
            return dict(self.mine)
        if source == "judges":
            return merge(self.judges)
        raise ValidationError(f"no grades from {SOURCES.get(source, source)} yet")

    def sweep(self, source: str, judged_shares: Sequence[float] = (1.0,),
              measures: Sequence[str] = POOL_MEASURES) -> Sweep:
        return depth_sweep(self.runs, self.grades(source), depths=self.depths(), judged_shares=judged_shares,
                           measures=measures)

    def leave_one_out_rows(self, source: str, depth: int) -> list[dict]:
        """Each run scored on the pool of the other runs (text cells; needs two runs)."""
        rows = []
        for r in leave_one_out(self.runs, self.grades(source), depth):
            rows.append({"run": r.run, "relevant only it found": f"{r.unique_relevant:,}",
                         "AP with its documents": f"{r.with_own:.4f}", "AP without them": f"{r.without_own:.4f}",
                         "place with": str(r.rank_with), "place without": str(r.rank_without)})
        return rows


def sweep_rows(sweep: Sweep, judged_share: float = 1.0) -> list[dict]:
    """One row per depth: pool size, judged, and each measure's Kendall's tau and swapped pairs (text cells)."""
    rows = []
    for point in sweep.points:
        if not math.isclose(point.judged_share, judged_share):
            continue
        row = {"depth": str(point.depth), "pool size": f"{point.pool_size:,}", "judged": f"{point.judged:,}"}
        for m in sweep.measures:
            row[f"τ {m}"] = _number(point.tau[m], 3)
            row[f"swaps {m}"] = str(point.swaps[m])
        rows.append(row)
    return rows


def means_rows(sweep: Sweep, depth: int, judged_share: float = 1.0) -> list[dict]:
    """Per run (best first by the reference): the reference AP and each measure at ``depth`` with its place."""
    point = sweep.point(depth, judged_share)
    places = {m: {run: i for i, run in enumerate(sorted(sweep.runs, key=lambda r: (-point.means[m][r], r)), 1)}
              for m in sweep.measures}
    rows = []
    for place, run in enumerate(sweep.reference_order(), start=1):
        row = {"run": run, f"AP, full depth ({sweep.reference_depth})": f"{sweep.reference[run]:.4f}",
               "place": str(place)}
        for m in sweep.measures:
            row[f"{m} @ pool {depth}"] = f"{point.means[m][run]:.4f}"
            row[f"place by {m}"] = _moved(places[m][run], place)
        rows.append(row)
    return rows


def tau_series(sweep: Sweep) -> list[dict]:
    """The chart's points: depth, share judged, measure, tau (numbers; None where tau is undefined)."""
    return [{"depth": p.depth, "judged": f"{p.judged_share:.0%} judged", "measure": m, "tau": p.tau[m]}
            for p in sweep.points for m in sweep.measures]


def _moved(place: int, reference: int) -> str:
    """A place with its move against the reference (``3 ▲1``: one place better)."""
    if place == reference:
        return str(place)
    return f"{place} {'▲' if place < reference else '▼'}{abs(place - reference)}"


def _documents(n: int) -> str:
    """``1 document``, ``2,038 documents``."""
    return f"{n:,} document{'' if n == 1 else 's'}"


def _number(value: float | None, decimals: int = 3) -> str:
    return "—" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.{decimals}f}"
