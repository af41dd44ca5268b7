"""Writing an evaluation as trec_eval prints it, or as JSON or CSV for scripts.

trec_eval's format, one line per value: the measure name left-aligned in 22 columns, a tab,
the query id (``all`` for the summary), a tab, the value (``%6.4f`` for measures, a whole number
for counts, the run's tag for ``runid``, the quoted string for ``relstring``). With ``-q`` each
query's lines come first, queries in trec_eval's order, then the summary; measures print in
trec_eval's order. An undefined value prints as trec_eval prints it (``-nan``).

>>> print(format_value(0.25, "float"), format_value(3, "int"), format_value(float("nan"), "float"))
0.2500 3   -nan
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterator, Sequence

from irlab.metrics.registry import Measure, trec_order
from irlab.runs.evaluate import Evaluation


def format_value(value: float | int | str, kind: str) -> str:
    """One value as trec_eval prints it: ``%6.4f``, a whole number, or text as is."""
    if kind == "text":
        return str(value)
    if kind == "int":
        return str(int(value))
    if math.isnan(value):
        return "  -nan"  # glibc's printf of the NaN 0.0/0.0 gives on x86, in a field of 6
    return f"{value:6.4f}"


def _line(name: str, query: str, value: str) -> str:
    return f"{name:<22}\t{query}\t{value}"  # the name padded to 22 columns, as trec_eval's %-22s


def ordered(evaluation: Evaluation) -> list[tuple[str, Measure]]:
    """The evaluation's measures in trec_eval's print order."""
    return sorted(evaluation.measures.items(), key=lambda item: trec_order(item[1]))


def trec_lines(evaluation: Evaluation, *, per_query: bool = False, summary: bool = True) -> Iterator[str]:
    """The lines trec_eval prints for ``evaluation`` (``-q`` is ``per_query``, ``-n`` is ``summary=False``).

    Z-scores (``-Z``) print as trec_eval prints them: ``Z`` before the name (the name still
    left-aligned in 22 columns after it) and every number with 4 decimals, counts too; ``runid``
    and ``relstring`` as they are.
    """
    measures = ordered(evaluation)
    if per_query:
        for q, query in enumerate(evaluation.queries):
            for name, measure in measures:
                if not measure.definition.per_query:
                    continue  # trec_eval prints these in the summary only
                value = evaluation.per_query[name][q]
                if measure.family == "relstring":
                    yield _line(measure.trec_name, query, f"'{value}'")
                else:
                    yield _line(_printed_name(evaluation, measure), query,
                                format_value(value, _kind(evaluation, measure)))
    if summary:
        for name, measure in measures:
            value = evaluation.summary[name]
            if value is None:
                continue
            kind = "text" if measure.family == "runid" else _kind(evaluation, measure)
            yield _line(_printed_name(evaluation, measure), "all", format_value(value, kind))


def _printed_name(evaluation: Evaluation, measure: Measure) -> str:
    """The name as printed: ``Z`` before the padded name for z-scores (not for the run id or relstring)."""
    if evaluation.zscored and measure.definition.kind != "text":
        return f"Z{measure.trec_name:<22}"
    return measure.trec_name


def column_name(evaluation: Evaluation, measure: Measure) -> str:
    """The measure's name in JSON and CSV: trec_eval's, with ``Z`` before it for z-scores."""
    return _printed_name(evaluation, measure).rstrip()


def _kind(evaluation: Evaluation, measure: Measure) -> str:
    return "float" if evaluation.zscored and measure.definition.kind == "int" else measure.definition.kind


def trec_text(evaluations: Sequence[Evaluation], *, per_query: bool = False, summary: bool = True) -> str:
    """Every run's table in trec_eval's format, a blank line between runs; nothing at all when nothing is printed.

    trec_eval writes no byte when it has no line to print (``-n`` without ``-q``, or only
    ``relstring`` without ``-q``): not even a newline.

    >>> trec_text([], per_query=False)
    ''
    """
    tables = ["\n".join(trec_lines(e, per_query=per_query, summary=summary)) for e in evaluations]
    printed = [table for table in tables if table]
    return "\n\n".join(printed) + "\n" if printed else ""


def _records(evaluation: Evaluation, per_query: bool) -> Iterator[dict]:
    for name, measure in ordered(evaluation):
        if measure.family == "runid":
            continue
        if per_query:
            for q, query in enumerate(evaluation.queries):
                yield {"run": evaluation.run_name, "measure": column_name(evaluation, measure), "query": query,
                       "value": _plain(evaluation.per_query[name][q])}
        if evaluation.summary[name] is not None:
            yield {"run": evaluation.run_name, "measure": column_name(evaluation, measure), "query": "all",
                   "value": _plain(evaluation.summary[name])}


def _plain(value: object) -> object:
    """A JSON-ready number: NaN becomes None (JSON has no NaN)."""
    if isinstance(value, float) and math.isnan(value):
        return None
    return value.item() if hasattr(value, "item") else value


def json_text(evaluations: Sequence[Evaluation], *, per_query: bool = False) -> str:
    """One JSON object per run: file, runid, summary and (with ``per_query``) every query's values."""
    runs = []
    for evaluation in evaluations:
        measures = [(name, m) for name, m in ordered(evaluation) if m.family != "runid"]
        entry = {"run": evaluation.run_name, "runid": evaluation.runid,
                 "queries": list(evaluation.queries),
                 "summary": {column_name(evaluation, m): _plain(evaluation.summary[name]) for name, m in measures}}
        if per_query:
            entry["per_query"] = {column_name(evaluation, m): {query: _plain(evaluation.per_query[name][q])
                                                for q, query in enumerate(evaluation.queries)}
                                  for name, m in measures if m.definition.per_query}
        runs.append(entry)
    return json.dumps(runs, indent=2) + "\n"


def csv_text(evaluations: Sequence[Evaluation], *, per_query: bool = False) -> str:
    """One CSV row per value: run, measure, query (``all`` for the summary), value."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=["run", "measure", "query", "value"], lineterminator="\n")
    writer.writeheader()
    for evaluation in evaluations:
        writer.writerows(_records(evaluation, per_query))
    return out.getvalue()
