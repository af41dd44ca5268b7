"""An evaluator reused across many runs: judgments and measures read once, as pytrec_eval's ``RelevanceEvaluator``.

>>> qrels = {"q1": {"d1": 1, "d2": 0}, "q2": {"d3": 2, "d4": 0}}
>>> evaluator = Evaluator(qrels, ["map", "P.1", "nDCG@2"])
>>> evaluator.evaluate({"q1": {"d1": 0.9, "d2": 0.5}, "q2": {"d4": 2.0, "d3": 1.0}})
{'q1': {'map': 1.0, 'P_1': 1.0, 'nDCG@2': 1.0}, 'q2': {'map': 0.5, 'P_1': 0.0, 'nDCG@2': 0.6309297535714575}}
>>> evaluator.summary({"q1": ["d2", "d1"], "q2": ["d3"]})
{'map': 0.75, 'P_1': 0.5, 'nDCG@2': 0.8154648767857288}

trec_eval's flags are keyword arguments: ``relevance_level`` (``-l``), ``judged_only`` (``-J``),
``depth`` (``-M``), ``collection_size`` (``-N``, utility's true negatives), ``missing_queries``
(``"zero"``: a judged query the run misses scores 0 and counts, ``-c``, IR Lab's default;
``"ignore"``: it is left out, as pytrec_eval and trec_eval 9 do). The judgments may be a qrels
mapping ``{query: {doc: grade}}`` or a table :func:`read_judgments` read in any of trec_eval's
``-R`` formats (qrels, qrels by judgment group, preferences); a run is a mapping ``{query: {doc:
score}}`` or ``{query: [doc, ...]}``, a :class:`~irlab.runs.trec.RunTable`, or a file's path.

Measures are named as in trec_eval's ``-m`` (``P.5,10``, ``ndcg_cut``, ``official``, keyed by the
names trec_eval prints: ``P_5``, ``ndcg_cut_10``) or as IR Lab and ir_measures name them
(``nDCG@10``, keyed as given). ``measures=[]`` is allowed and answers as pytrec_eval does: each
evaluated query with no value (``{query: {}}``), and an empty summary. A run that ranks no judged
query at all is refused with both files' queries named (pytrec_eval returns ``{}``: usually a run
for another track, or ids written differently).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from irlab.errors import ValidationError
from irlab.metrics.measure_names import parse_measure, trec_measure_set
from irlab.metrics.registry import TREC_NAMES, TREC_NICKNAMES, Measure
from irlab.runs.evaluate import (
    Evaluation,
    JudgmentTable,
    Qrels,
    Run,
    evaluate_tables,
    qrels_from_mapping,
    run_from_mapping,
    with_collection_size,
)
from irlab.runs.judge import check_depth
from irlab.runs.judgment_groups import GroupedQrels, read_grouped_qrels_file
from irlab.runs.preferences import PreferenceTable, read_preferences_file
from irlab.runs.trec import MAX_FILE_BYTES, QrelsTable, RunTable, read_qrels_file, read_run_file

FORMATS = ("qrels", "qrels_jg", "prefs", "qrels_prefs")
"""trec_eval's judgment formats (``-R``)."""


def read_judgments(path: str | Path, rel_format: str = "qrels", *, limit: int = MAX_FILE_BYTES) -> JudgmentTable:
    """A judgments file in trec_eval's ``-R`` format: qrels, qrels_jg (by judgment group), prefs or qrels_prefs."""
    if rel_format not in FORMATS:
        raise ValidationError(f"-R {rel_format}: trec_eval 10.0's judgment formats are {', '.join(FORMATS)}")
    if rel_format == "qrels_jg":
        return read_grouped_qrels_file(path, limit=limit)
    if rel_format in ("prefs", "qrels_prefs"):
        return read_preferences_file(path, qrels=rel_format == "qrels_prefs", limit=limit)
    return read_qrels_file(path, limit=limit)


def measure_table(names: Iterable[str | Measure], collection_size: int = 0) -> dict[str, Measure]:
    """Each measure under the name it is reported by: trec_eval's printed name for trec_eval's ``-m`` syntax
    (sets and parameter lists expand), the name as given for IR Lab's.

    >>> list(measure_table(["P.5,10", "map", "nDCG@10"]))
    ['P_5', 'P_10', 'map', 'nDCG@10']
    """
    if isinstance(names, (str, Measure)):
        names = [names]
    measures: dict[str, Measure] = {}
    for name in names:
        if isinstance(name, str) and (name.partition(".")[0] in TREC_NAMES or name in TREC_NICKNAMES):
            for measure in trec_measure_set([name]):
                measures.setdefault(measure.trec_name, measure)
        else:
            measures.setdefault(str(name), parse_measure(name))
    return with_collection_size(measures, collection_size)


class Evaluator:
    """Judgments and measures read once; :meth:`evaluate` or :meth:`summary` any number of runs (see the module)."""

    def __init__(self, judgments: Qrels | JudgmentTable, measures: Iterable[str | Measure], *,
                 relevance_level: int = 1, judged_only: bool = False, depth: int | None = None,
                 collection_size: int = 0, missing_queries: str = "zero") -> None:
        if missing_queries not in ("zero", "ignore"):
            raise ValidationError(f"missing_queries must be 'zero' or 'ignore', got {missing_queries!r}")
        if isinstance(judgments, (QrelsTable, GroupedQrels, PreferenceTable)):
            self.judgments = judgments
        else:
            self.judgments = qrels_from_mapping(judgments)
        self.measures = measure_table(measures, collection_size)
        self.options = {"relevance_level": relevance_level, "judged_only": judged_only, "depth": check_depth(depth),
                        "complete": missing_queries == "zero"}

    def evaluation(self, run: Run | RunTable | str | Path) -> Evaluation:
        """The run's :class:`~irlab.runs.evaluate.Evaluation`: every value per query and the summary."""
        if isinstance(run, (str, Path)):
            run = read_run_file(run)
        elif not isinstance(run, RunTable):
            run = run_from_mapping(run)
        return evaluate_tables(self.judgments, run, self.measures, **self.options)

    def evaluate(self, run: Run | RunTable | str | Path) -> dict[str, dict[str, float | int]]:
        """``{query: {measure: value}}`` for every evaluated query, as pytrec_eval's ``evaluate``."""
        evaluation = self.evaluation(run)
        per_measure = {name: _python(evaluation.per_query[name]) for name, m in self.measures.items()
                       if m.definition.per_query and m.family != "runid"}
        return {query: {name: values[q] for name, values in per_measure.items()}
                for q, query in enumerate(evaluation.queries)}

    def summary(self, run: Run | RunTable | str | Path) -> dict[str, float | int | str]:
        """``{measure: value}``: trec_eval's ``all`` line (the mean over queries for most measures)."""
        evaluation = self.evaluation(run)
        return {name: value for name, value in evaluation.summary.items() if value is not None}


def _python(values) -> list:
    return values if isinstance(values, list) else values.tolist()

