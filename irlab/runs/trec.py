"""Reading trec_eval's text formats, qrels and runs, straight into columns.

* qrels: ``query_id iteration doc_id grade`` per line (exactly four fields; the iteration is
  ignored; a negative grade means "in the pool, not judged");
* run: ``query_id Q0 doc_id rank score tag`` per line. The rank column is ignored: trec_eval
  ranks by score, ties by doc id descending. Fields after the tag are ignored, as trec_eval does.

Fields are separated by white space; blank lines and lines whose first non-blank character is
``#`` are skipped (trec_eval 10). A file may be gzip-compressed (read transparently).

Unlike trec_eval, which reads a bad score or grade as 0 and takes the last of two lines for the
same document, every problem is an error naming the file and line: a missing field, a score that
is not a number, a grade that is not a whole number, a document twice in one query, a file that
is not text, or one larger than :data:`MAX_FILE_BYTES`.

Speed: a regular file (single spaces, no comments) is parsed by pyarrow's multi-threaded CSV
reader; anything else, and every error, goes through a line-by-line reader that knows line
numbers. Both give the same columns.

>>> run = parse_run(b"q1 Q0 d1 1 0.5 sys\\nq1 Q0 d2 2 0.75 sys\\nq1 Q0 d3 3 0.75 sys\\n", "run.txt")
>>> run.ranking("q1"), run.scores.tolist(), run.runid
(['d3', 'd2', 'd1'], [0.75, 0.75, 0.5], 'sys')
>>> parse_run(b"q1 Q0 d1 1 0.5 sys\\nq1 Q0 d1 2 0.2 sys\\n", "run.txt")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
irlab.errors.ValidationError: run.txt:2: document 'd1' appears twice for query 'q1' (lines 1 and 2); trec_eval ...
>>> parse_qrels(b"q1 0 d1 one\\n", "qrels.txt")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
irlab.errors.ValidationError: qrels.txt:1: the grade must be a whole number (trec_eval's qrels: ...), got 'one'
"""

from __future__ import annotations

import gzip
import io
import math
import re
import sys
import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np
import pyarrow as pa

from irlab.errors import ValidationError
from irlab.runs.arrow import as_arrow, as_numpy

MB = 1_000_000
"""One megabyte, as every size IR Lab states: 10^6 bytes (a browser's and a shop's megabyte, not 2^20)."""
MAX_FILE_BYTES = 1_000 * MB
"""The largest qrels or run file read (1 GiB, after decompression): about 25 million run lines."""

TIE_RULE = ("Ranked as trec_eval ranks a run: by score, highest first; documents with equal scores by "
            "document id, the later id in byte order first (Z before A, 9 before 1). The rank column of the "
            "file is ignored, so the file's rank 1 need not be rank 1 here.")
"""trec_eval's ranking rule in words (the runs page says it beside a run's scores)."""


def tied(scores: Sequence[float]) -> list[bool]:
    """Per score of a ranking, whether a neighbour has the same score (trec_eval then orders them by id).

    >>> tied([3.0, 2.5, 2.5, 1.0, 1.0, 0.5])
    [False, True, True, True, True, False]
    """
    values = list(scores)
    return [(i > 0 and values[i - 1] == v) or (i + 1 < len(values) and values[i + 1] == v)
            for i, v in enumerate(values)]


_RUN_FIELDS = "query Q0 doc rank score tag"
_QRELS_FIELDS = "query iteration doc grade"


@dataclass(frozen=True)
class RunTable:
    """A run file as columns, its rows in trec_eval's rank order.

    Rows are sorted by query id, then score descending, then doc id descending (byte order, as
    trec_eval's ``strcmp``), so query ``query_ids[i]``'s ranking is rows
    ``offsets[i]:offsets[i + 1]``. ``runid`` is the tag of the file's last line, the one trec_eval
    prints as ``runid``.
    """

    name: str
    docs: pa.Array
    scores: np.ndarray
    runid: str
    query_ids: tuple[str, ...]
    offsets: np.ndarray

    def __len__(self) -> int:
        return len(self.scores)

    def ranking(self, query: str) -> list[str]:
        """The doc ids of ``query`` in rank order (empty when the run does not rank it)."""
        return _group(self, query).to_pylist()


@dataclass(frozen=True)
class QrelsTable:
    """A qrels file as columns, its rows sorted by query id, then doc id."""

    name: str
    queries: pa.Array
    docs: pa.Array
    grades: np.ndarray
    query_ids: tuple[str, ...]
    offsets: np.ndarray

    def __len__(self) -> int:
        return len(self.grades)

    def judgments(self, query: str) -> dict[str, int]:
        """``{doc_id: grade}`` of ``query`` (empty when it has none)."""
        docs = _group(self, query).to_pylist()
        start = int(self.offsets[self.query_ids.index(query)]) if docs else 0
        return dict(zip(docs, self.grades[start:start + len(docs)].tolist()))

    @cached_property
    def index(self) -> dict[str, int]:
        """Query id -> its position in :attr:`query_ids`."""
        return {query: q for q, query in enumerate(self.query_ids)}

    @cached_property
    def top_grade(self) -> int:
        """The highest grade judged (0 when there is none >= 0)."""
        judged = self.grades[self.grades >= 0]
        return int(judged.max()) if len(judged) else 0

    def subset(self, queries: Iterable[str]) -> QrelsTable:
        """The judgments of ``queries`` only (those the qrels judge), as a table of their own.

        >>> t = parse_qrels(b"q1 0 a 1\\nq2 0 b 2\\nq3 0 c 0\\n").subset(["q3", "q1", "q9"])
        >>> t.query_ids, t.docs.to_pylist(), t.grades.tolist()
        (('q1', 'q3'), ['a', 'c'], [1, 0])
        """
        chosen = sorted(self.index[query] for query in set(queries) if query in self.index)
        starts, ends = self.offsets[chosen], self.offsets[np.array(chosen, dtype=np.int64) + 1]
        lengths = ends - starts
        rows = np.repeat(starts - np.concatenate([[0], np.cumsum(lengths)[:-1]]), lengths) + np.arange(lengths.sum())
        take = as_arrow(rows.astype(np.int64))
        return QrelsTable(self.name, self.queries.take(take), self.docs.take(take), self.grades[rows],
                          tuple(self.query_ids[q] for q in chosen), np.concatenate([[0], np.cumsum(lengths)]))


def _group(table: RunTable | QrelsTable, query: str) -> pa.Array:
    """The doc ids of one query's rows."""
    try:
        i = table.query_ids.index(query)
    except ValueError:
        return pa.array([], pa.string())
    return table.docs.slice(int(table.offsets[i]), int(table.offsets[i + 1] - table.offsets[i]))


def run_table(name: str, queries: pa.Array, docs: pa.Array, scores: np.ndarray, runid: str = "",
              lines: np.ndarray | None = None) -> RunTable:
    """A :class:`RunTable` from unsorted columns; a document twice in one query is an error.

    ``lines`` are the rows' line numbers in the file, for the message (default: row + 1).

    >>> t = run_table("r", pa.array(["q", "q", "q"]), pa.array(["a", "c", "b"]), np.array([1.0, 2.0, 2.0]))
    >>> t.ranking("q"), t.query_ids
    (['c', 'b', 'a'], ('q',))
    """
    return rank_run(name, RunBlock(queries, docs, scores, lines), runid).table


@dataclass(frozen=True)
class RankedRun:
    """A run read once and ranked once, for the run doctor and the scorer alike (no second sort or join).

    ``table`` is the run in trec_eval's rank order; ``ranks`` the file's rank column (4th field,
    NaN where it is not a number) in the table's row order, None when it was not read;
    ``repeats`` the query (its position in ``table.query_ids``) of each line left out as a repeat of
    a document earlier in its query (only with ``repeats="keep first"`` of :func:`rank_run`).
    """

    table: RunTable
    ranks: np.ndarray | None = None
    repeats: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))


def rank_run(name: str, block: RunBlock, runid: str = "", *, repeats: str = "refuse") -> RankedRun:
    """A block's rows in trec_eval's rank order, with its rank column in the same order (see :class:`RankedRun`).

    A document twice in one query is an error (``repeats="refuse"``: trec_eval refuses such a run)
    or only its first line is kept (``repeats="keep first"``: what the run doctor reports).

    >>> block = run_block(b"q Q0 a 1 1.0 r\\nq Q0 c 2 2.0 r\\nq Q0 b 3 2.0 r\\nq Q0 a 4 0.5 r\\n", "r", ranks=True)
    >>> ranked = rank_run("r", block, repeats="keep first")
    >>> ranked.table.ranking("q"), ranked.ranks.tolist(), ranked.repeats.tolist()
    (['c', 'b', 'a'], [2.0, 3.0, 1.0], [0])
    """
    import pyarrow.compute as pc

    if repeats not in ("refuse", "keep first"):
        raise ValueError(f"repeats is 'refuse' or 'keep first', not {repeats!r}")
    scores = np.asarray(block.scores, dtype=np.float64) + 0.0  # -0.0 ties with 0.0, as in C
    docs, queries = _combined(block.docs), _combined(block.queries)  # one chunk: takes from it are 3x faster
    query_ids, offsets = _boundaries(queries)
    grouped = len(set(query_ids)) == len(query_ids) and list(query_ids) == sorted(query_ids)
    by_query = (as_arrow(np.repeat(np.arange(len(query_ids), dtype=np.int32), np.diff(offsets))) if grouped
                else queries)  # a file not grouped by query sorts by the ids themselves
    by_doc = pc.sort_indices(pa.table({"q": by_query, "d": docs}), sort_keys=[("q", "ascending"), ("d", "descending")])
    del by_query
    original_docs = docs
    rows = as_numpy(by_doc)
    if not grouped:  # sorting by query moved the rows: find the queries again
        query_ids, offsets = _boundaries(queries.take(by_doc))
    del queries
    docs, scores = docs.take(by_doc), scores[rows]
    query_index = np.repeat(np.arange(len(query_ids), dtype=np.int32), np.diff(offsets))
    repeated = np.zeros(0, dtype=np.int64)
    if repeats == "refuse":
        _refuse_twice(query_index, docs, rows, block.lines, name, query_ids, "appears twice for query {query!r} "
                      "(lines {lines}); trec_eval refuses a run like this too")
    else:  # Arrow's sort is stable: of a document's lines, the first in the file comes first
        keep = ~_same_as_previous(query_index, docs)
        if not keep.all():
            repeated = query_index[~keep].astype(np.int64)
            rows, scores, query_index = rows[keep], scores[keep], query_index[keep]
            offsets = np.concatenate([[0], np.cumsum(np.bincount(query_index, minlength=len(query_ids)))])
    del docs
    # Arrow's sort is stable, so sorting by score keeps the doc-descending order among equal
    # scores: trec_eval's tie rule, without comparing doc ids a second time
    by_score = as_numpy(pc.sort_indices(pa.table({"q": as_arrow(query_index), "s": as_arrow(scores)}),
                                        sort_keys=[("q", "ascending"), ("s", "descending")]))
    ranked_rows = rows[by_score]
    table = RunTable(name, original_docs.take(as_arrow(ranked_rows)), scores[by_score], runid, query_ids, offsets)
    return RankedRun(table, None if block.ranks is None else np.asarray(block.ranks)[ranked_rows], repeated)


def qrels_table(name: str, queries: pa.Array, docs: pa.Array, grades: np.ndarray,
                lines: np.ndarray | None = None, empty_queries: Sequence[str] = ()) -> QrelsTable:
    """A :class:`QrelsTable` from unsorted columns; a document judged twice for a query is an error.

    ``empty_queries`` are judged queries without a single judgment (possible in the dict form,
    not in a file): they are evaluated, and score 0.
    """
    import pyarrow.compute as pc

    order = pc.sort_indices(pa.table({"q": queries, "d": docs}), sort_keys=[("q", "ascending"), ("d", "ascending")])
    queries, docs = queries.take(order), docs.take(order)
    grades = np.asarray(grades, dtype=np.int64)[as_numpy(order)]
    query_ids, offsets = _boundaries(queries)
    query_index = np.repeat(np.arange(len(query_ids), dtype=np.int32), np.diff(offsets))
    _refuse_twice(query_index, docs, as_numpy(order), lines, name, query_ids,
                  "is judged twice for query {query!r} (lines {lines})")
    if set(empty_queries) - set(query_ids):
        ends = dict(zip(query_ids, offsets[1:].tolist()))
        query_ids = tuple(sorted(set(query_ids) | set(empty_queries)))
        running = 0
        bounds = [0]
        for query in query_ids:  # an empty query's rows start and end where the previous ones end
            running = ends.get(query, running)
            bounds.append(running)
        offsets = np.array(bounds, dtype=np.int64)
    return QrelsTable(name, queries, docs, grades, query_ids, offsets)


def _combined(array: pa.Array | pa.ChunkedArray) -> pa.Array:
    """One contiguous array (the CSV reader gives one chunk per block; combining them is cheap)."""
    if isinstance(array, pa.ChunkedArray):
        return array.combine_chunks() if array.num_chunks else pa.array([], array.type)
    return array


def _boundaries(queries: pa.Array) -> tuple[tuple[str, ...], np.ndarray]:
    """The distinct query ids of sorted rows, and where each one's rows start (plus the end)."""
    import pyarrow.compute as pc

    n = len(queries)
    if n == 0:
        return (), np.zeros(1, dtype=np.int64)
    changed = np.flatnonzero(~as_numpy(pc.equal(queries[1:], queries[:-1]))) + 1
    starts = np.concatenate([[0], changed]).astype(np.int64)
    return tuple(queries.take(as_arrow(starts)).to_pylist()), np.concatenate([starts, [n]])


def _same_as_previous(query_index: np.ndarray, docs: pa.Array) -> np.ndarray:
    """Per row (sorted by query, then doc): whether the row above holds the same query and document."""
    import pyarrow.compute as pc

    same = np.zeros(len(docs), dtype=bool)
    if len(docs) > 1:
        same[1:] = as_numpy(pc.equal(docs[1:], docs[:-1])) & (query_index[1:] == query_index[:-1])
    return same


def _refuse_twice(query_index: np.ndarray, docs: pa.Array, rows: np.ndarray, lines: np.ndarray | None, name: str,
                  query_ids: tuple[str, ...], problem: str) -> None:
    """Raise when two neighbouring rows (sorted by query, then doc) hold the same pair, naming both lines."""
    same = _same_as_previous(query_index, docs)[1:]
    if not same.any():
        return
    at = int(np.flatnonzero(same)[0])
    numbers = sorted(int(lines[rows[r]]) if lines is not None else int(rows[r]) + 1 for r in (at, at + 1))
    message = f"document {docs[at].as_py()!r} " + problem.format(query=query_ids[query_index[at]],
                                                                 lines=" and ".join(map(str, numbers)))
    raise ValidationError(message, path=_where(name, numbers[1]))


# --- files -------------------------------------------------------------------------------------

def read_bytes(path: str | Path, *, limit: int = MAX_FILE_BYTES) -> bytes | bytearray:
    """The bytes of ``path`` (``-`` is standard input), decompressed when gzip, at most ``limit``.

    A larger file is refused before it is read into memory, with the reason.
    """
    name = str(path)
    if name == "-":
        data = sys.stdin.buffer.read(limit + 1)
        return _checked_size(data, name, limit)
    path = Path(path)
    with path.open("rb") as handle:
        magic = handle.read(2)
        handle.seek(0)
        if magic == b"\x1f\x8b":
            try:
                with gzip.GzipFile(fileobj=handle) as unzipped:
                    data = unzipped.read(limit + 1)
            except (OSError, EOFError, zlib.error) as error:
                raise ValidationError(f"not a readable gzip file ({error})", path=name) from None
            return _checked_size(data, name, limit, unpacked=True)
        size = path.stat().st_size
        if size > limit:
            raise ValidationError(f"the file is {megabytes(size)}, more than the {megabytes(limit)} IR Lab reads",
                                  path=name)
        data = bytearray(size)  # read into one buffer: read() would hold a second copy for a moment
        handle.readinto(data)
        return data


def _checked_size(data: bytes, name: str, limit: int, *, unpacked: bool = False) -> bytes:
    if len(data) > limit:
        what = "unpacks to" if unpacked else "is"
        raise ValidationError(f"the file {what} more than the {megabytes(limit)} IR Lab reads", path=name)
    return data


def megabytes(size: int) -> str:
    """A size in words, in MB of 10^6 bytes.

    >>> megabytes(2 << 30), megabytes(999)
    ('2,147 MB', '999 bytes')
    """
    return f"{size / MB:,.0f} MB" if size >= MB else f"{size:,} bytes"


def read_run_file(path: str | Path, *, limit: int = MAX_FILE_BYTES) -> RunTable:
    """Read a run file (plain or gzip) into columns."""
    data = read_bytes(path, limit=limit)
    columns = run_columns(data, str(path))
    del data  # the text is not needed once it is in columns: free it before sorting
    return run_table(str(path), *columns)


def read_qrels_file(path: str | Path, *, limit: int = MAX_FILE_BYTES) -> QrelsTable:
    """Read a qrels file (plain or gzip) into columns."""
    data = read_bytes(path, limit=limit)
    columns = qrels_columns(data, str(path))
    del data
    return qrels_table(str(path), *columns)


def unpack(data: bytes, name: str, *, limit: int = MAX_FILE_BYTES) -> bytes:
    """Bytes already in memory (an upload), decompressed when gzip, at most ``limit`` after decompression.

    >>> unpack(gzip.compress(b"q1 0 d1 1\\n"), "qrels.gz")
    b'q1 0 d1 1\\n'
    >>> unpack(gzip.compress(b"x" * 2000), "big.gz", limit=1000)
    Traceback (most recent call last):
    ...
    irlab.errors.ValidationError: big.gz: the file unpacks to more than the 1,000 bytes IR Lab reads
    """
    if bytes(data[:2]) == b"\x1f\x8b":
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(data)) as unzipped:
                out = unzipped.read(limit + 1)
        except (OSError, EOFError, zlib.error) as error:
            raise ValidationError(f"not a readable gzip file ({error})", path=name) from None
        return _checked_size(out, name, limit, unpacked=True)
    return _checked_size(data, name, limit)


def sniff(data: bytes) -> str | None:
    """What a file looks like from its first line with content: ``"run"``, ``"qrels"`` or None.

    A run line has at least six fields, its score a number; a qrels line exactly four, its
    grade a whole number. Used to name the mistake when a qrels file is given as a run (or the
    reverse) before any parsing error would say something less helpful.

    >>> sniff(b"# made by bm25\\n401 Q0 doc7 1 12.5 bm25\\n"), sniff(b"401 0 doc7 2\\n"), sniff(b"hello\\n")
    ('run', 'qrels', None)
    """
    for line in bytes(data[:1 << 16]).splitlines():
        fields = line.split()
        if not fields or fields[0].startswith(b"#"):
            continue
        try:
            if len(fields) >= 6:
                float(fields[4])
                return "run"
            if len(fields) == 4 and _whole_number(fields[3].decode("utf-8", "replace")) is not None:
                return "qrels"
        except ValueError:
            return None
        return None
    return None


# --- parsing -----------------------------------------------------------------------------------

def parse_run(data: bytes, name: str | None = "run") -> RunTable:
    """A run file's bytes as columns; see the module for the format and the checks."""
    return run_table(name, *run_columns(data, name))


def parse_qrels(data: bytes, name: str | None = "qrels") -> QrelsTable:
    """A qrels file's bytes as columns; see the module for the format and the checks."""
    return qrels_table(name, *qrels_columns(data, name))


def run_columns(data: bytes, name: str | None) -> tuple:
    """(queries, docs, scores, runid, line numbers or None) of a run file's bytes, unsorted."""
    _check_text(data, name, "run")
    block = run_block(data, name)
    if not len(block.scores):
        raise ValidationError("the file has no run lines (query Q0 doc rank score tag)", path=name)
    return block.queries, block.docs, block.scores, _last_tag(data), block.lines


@dataclass(frozen=True)
class RunBlock:
    """Some lines of a run file as columns, in file order (unranked, unchecked for repeats).

    ``lines`` are the line numbers within the text read (None when the fast reader read it:
    then row ``i`` is data line ``i + 1``); ``ranks`` the 4th field as a number (NaN where it is
    none), only when asked for: trec_eval ignores it, the run doctor compares it with the scores.
    """

    queries: pa.Array | pa.ChunkedArray
    docs: pa.Array | pa.ChunkedArray
    scores: np.ndarray
    lines: np.ndarray | None
    ranks: np.ndarray | None = None


def run_block(data: bytes, name: str | None, *, ranks: bool = False) -> RunBlock:
    """Run lines as columns; text without a data line gives empty columns (a block of a larger file).

    Every line is checked as in :func:`parse_run` (fields, the score), naming its line within
    ``data``; a NUL byte is refused.
    """
    if b"\x00" in data:
        raise ValidationError("this is not a text file (it holds NUL bytes), so not a run file", path=name)
    types = {"score": pa.float64(), **({"rank": pa.float64()} if ranks else {})}
    has_text = bool(data) and not data.isspace()  # as data.strip(), without copying the whole file
    table = _fast_table(data, ["query", "q0", "doc", "rank", "score", "tag"], types) if has_text else None
    if table is not None:
        scores = as_numpy(table["score"])
        if not np.isnan(scores).any():  # else the line-by-line reader names the line
            return RunBlock(table["query"], table["doc"], scores, None,
                            as_numpy(table["rank"]) if ranks else None)
    queries, docs, scores, lines, given = _slow_run(data, name, ranks=ranks)
    return RunBlock(queries, docs, scores, lines, given)


def qrels_columns(data: bytes, name: str | None) -> tuple:
    """(queries, docs, grades, line numbers or None) of a qrels file's bytes, unsorted."""
    _check_text(data, name, "qrels")
    table, lines = _fast_table(data, ["query", "iteration", "doc", "grade"], {"grade": pa.int64()}), None
    if table is not None:
        queries, docs, grades = table["query"], table["doc"], as_numpy(table["grade"])
    else:
        queries, docs, grades, lines, _ = _slow_qrels(data, name)
    if not len(grades):
        raise ValidationError("the file has no qrels lines (query iteration doc grade)", path=name)
    return queries, docs, grades, lines


def _where(name: str | None, line: int) -> str:
    """``file:line``, or ``line N`` for text that is not a file."""
    return f"line {line}" if name is None else f"{name}:{line}"


def _check_text(data: bytes, name: str, what: str) -> None:
    if not data or data.isspace():
        raise ValidationError(f"the file is empty; a {what} file has lines of "
                              f"'{_RUN_FIELDS if what == 'run' else _QRELS_FIELDS}'", path=name)
    if b"\x00" in data:
        raise ValidationError(f"this is not a text file (it holds NUL bytes), so not a {what} file", path=name)


def _fast_table(data: bytes, columns: list[str], types: dict[str, pa.DataType]) -> dict[str, pa.ChunkedArray] | None:
    """pyarrow's CSV reader on a regular file, or None when the file is irregular or does not parse.

    Regular: fields joined by single spaces, or by single tabs (many tools write those), lines
    ended by ``\\n`` or ``\\r\\n``.
    """
    import pyarrow.compute as pc
    import pyarrow.csv as csv  # imported here: the line reader and the dict API do not need it

    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n")  # Windows line ends: one pass, then the same checks
    delimiter = b"\t" if b"\t" in data and b" " not in data else b" "
    if not _regular(data, delimiter):
        return None
    wanted = [c for c in columns if c in ("query", "doc") or c in types]
    try:
        table = csv.read_csv(
            pa.BufferReader(data),
            read_options=csv.ReadOptions(column_names=columns, block_size=1 << 20),
            parse_options=csv.ParseOptions(delimiter=delimiter.decode(), quote_char=False, escape_char=False),
            convert_options=csv.ConvertOptions(include_columns=wanted, strings_can_be_null=False,
                                               quoted_strings_can_be_null=False, null_values=[],
                                               column_types={"query": pa.string(), "doc": pa.string(), **types}))
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return None
    if any(table[c].null_count for c in wanted):
        return None
    if any(pc.min(pc.binary_length(table[c])).as_py() == 0 for c in ("query", "doc")):
        return None  # an empty field: a line began with the delimiter
    return {c: table[c] for c in wanted}  # chunked: combining the chunks would copy every column


def _regular(data: bytes, delimiter: bytes = b" ") -> bool:
    """Whether every line is fields joined by single ``delimiter`` bytes, with no comment line.

    Cheap whole-buffer searches (they run at memory speed): no two delimiters together, no blank
    line (the CSV reader would skip it, and row numbers would no longer be line numbers), no other
    white space, no ``#`` at the start of a line. pyarrow then rejects any line with the wrong
    number of fields, and a line starting with the delimiter (an empty first field) is found after.
    """
    others = tuple(c for c in (b" ", b"\t", b"\r", b"\x0b", b"\x0c") if c != delimiter)
    if data[:1].isspace() or delimiter * 2 in data or b"\n\n" in data or any(c in data for c in others):
        return False
    return b"#" not in data or not (data.startswith(b"#") or b"\n#" in data)


def _lines(data: bytes, name: str) -> Iterator[tuple[int, list[str]]]:
    """Numbered data lines split into fields (blank and comment lines skipped)."""
    for number, raw in enumerate(data.split(b"\n"), start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ValidationError("the line is not UTF-8 text", path=_where(name, number)) from None
        fields = line.split()
        if fields and not fields[0].startswith("#"):
            yield number, fields


def _slow_run(data: bytes, name: str, *, ranks: bool = False) -> tuple:
    """(queries, docs, scores, line numbers, ranks or None) of run lines, read one by one."""
    queries, docs, scores, lines, given = [], [], [], [], []
    for number, fields in _lines(data, name):
        if len(fields) < 6:
            raise ValidationError(f"a run line has 6 fields ({_RUN_FIELDS}), this one has {len(fields)}",
                                  path=_where(name, number))
        try:
            score = float(fields[4])
        except ValueError:
            score = math.nan
        if math.isnan(score):
            raise ValidationError(f"the score (5th field) must be a number, got {fields[4]!r}",
                                  path=_where(name, number))
        queries.append(fields[0])
        docs.append(fields[2])
        scores.append(score)
        lines.append(number)
        if ranks:
            given.append(_number_or_nan(fields[3]))
    return (pa.array(queries, pa.string()), pa.array(docs, pa.string()), np.array(scores, dtype=np.float64),
            np.array(lines, dtype=np.int64), np.array(given, dtype=np.float64) if ranks else None)


def _number_or_nan(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return math.nan


def _slow_qrels(data: bytes, name: str, *, kind: str = "qrels",
                fields_text: str = _QRELS_FIELDS) -> tuple[pa.Array, pa.Array, np.ndarray, np.ndarray, pa.Array]:
    """(queries, docs, grades, line numbers, second columns) of qrels lines read one by one (``kind`` names the
    format in messages: ``qrels``, or ``qrels_jg`` whose second column is the judgment group)."""
    queries, docs, grades, lines, seconds = [], [], [], [], []
    for number, fields in _lines(data, name):
        if len(fields) != 4:
            raise ValidationError(f"a {kind} line has 4 fields ({fields_text}), this one has {len(fields)}",
                                  path=_where(name, number))
        grade = _whole_number(fields[3])
        if grade is None:
            raise ValidationError(f"the grade must be a whole number (trec_eval's {kind}: {fields_text}), "
                                  f"got {fields[3]!r}", path=_where(name, number))
        queries.append(fields[0])
        seconds.append(fields[1])
        docs.append(fields[2])
        grades.append(grade)
        lines.append(number)
    return (pa.array(queries, pa.string()), pa.array(docs, pa.string()), np.array(grades, dtype=np.int64),
            np.array(lines, dtype=np.int64), pa.array(seconds, pa.string()))


def _whole_number(text: str) -> int | None:
    """``text`` as an int when it is a whole number (``2``, ``-1``, ``2.0``), else None."""
    try:
        return int(text)
    except ValueError:
        try:
            value = float(text)
        except ValueError:
            return None
        return int(value) if value.is_integer() else None


_LAST_LINE = re.compile(rb"[^\n]*\S[^\n]*\n?\Z")


def _last_tag(data: bytes) -> str:
    """The tag (6th field) of the last data line: what trec_eval prints as ``runid``."""
    for raw in reversed(data.rstrip().split(b"\n")[-64:] if len(data) < 1 << 16 else _tail_lines(data)):
        fields = raw.split()
        if len(fields) >= 6 and not fields[0].startswith(b"#"):
            return fields[5].decode("utf-8", "replace")
    return ""


def _tail_lines(data: bytes) -> list[bytes]:
    return data[-(1 << 16):].rstrip().split(b"\n")[1:]


# --- the dict form (small inputs, tests, exercises) ----------------------------------------------

def read_qrels_text(text: str) -> dict[str, dict[str, int]]:
    """Parse qrels text into ``{query_id: {doc_id: grade}}``; a doc judged twice is an error.

    >>> read_qrels_text("q1 0 d1 1\\n# a comment\\nq1 0 d2 0\\n")
    {'q1': {'d1': 1, 'd2': 0}}
    """
    return qrels_dict(parse_qrels(text.encode("utf-8"), None))


def read_run_text(text: str) -> dict[str, dict[str, float]]:
    """Parse run text into ``{query_id: {doc_id: score}}``; a doc listed twice is an error.

    >>> read_run_text("q1 Q0 d1 1 0.5 sys\\nq1 Q0 d2 2 0.75 sys\\n")
    {'q1': {'d2': 0.75, 'd1': 0.5}}
    """
    return run_dict(parse_run(text.encode("utf-8"), None))


def read_qrels(path: str | Path) -> dict[str, dict[str, int]]:
    """Read a qrels file into ``{query_id: {doc_id: grade}}`` (see :func:`read_qrels_text`)."""
    return qrels_dict(read_qrels_file(path))


def read_run(path: str | Path) -> dict[str, dict[str, float]]:
    """Read a run file into ``{query_id: {doc_id: score}}`` (see :func:`read_run_text`)."""
    return run_dict(read_run_file(path))


def qrels_dict(table: QrelsTable) -> dict[str, dict[str, int]]:
    """A qrels table as ``{query_id: {doc_id: grade}}``."""
    out: dict[str, dict[str, int]] = {}
    for query, doc, grade in zip(table.queries.to_pylist(), table.docs.to_pylist(), table.grades.tolist()):
        out.setdefault(query, {})[doc] = grade
    return out


def run_dict(table: RunTable) -> dict[str, dict[str, float]]:
    """A run table as ``{query_id: {doc_id: score}}``."""
    out: dict[str, dict[str, float]] = {}
    docs, scores = table.docs.to_pylist(), table.scores.tolist()
    for q, query in enumerate(table.query_ids):
        start, end = int(table.offsets[q]), int(table.offsets[q + 1])
        out[query] = dict(zip(docs[start:end], scores[start:end]))
    return out
