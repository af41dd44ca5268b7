"""Reading a run file in blocks, topic by topic, so that memory stays bounded however long the file is.

A run of ten million lines is 350 MB of text and more as columns; but every measure is computed
one topic at a time, so a topic's lines can be evaluated and forgotten as soon as the file has
moved on to the next topic. :class:`TopicBlocks` reads the file in blocks of
:data:`BLOCK_BYTES` (cut at a line end), parses each one into columns, and yields the rows of
the topics that are complete: every topic of a block except its last, whose lines may go on in
the next block and are carried over.

This needs each topic's lines to be together, as every retrieval system writes them (the order
of the topics, and of the lines within a topic, does not matter). When a topic comes back after
other topics, :class:`TopicsSplit` (a :class:`ReadWhole`) is raised, and the caller reads the whole
file at once instead (:func:`irlab.runs.evaluate.evaluate_run_file` does); so it does for a line
longer than four blocks, and a problem in a line is left to that reader too, so messages name the
same file and line whichever reader saw it first.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> path = folder / "run.txt"
>>> _ = path.write_text("q1 Q0 a 1 2.0 r\\nq1 Q0 b 2 1.0 r\\nq2 Q0 a 1 3.0 r\\nq3 Q0 c 1 1.0 tag\\n")
>>> blocks = TopicBlocks(path, block_bytes=20)
>>> [sorted(set(block.queries.to_pylist())) for block in blocks], blocks.runid, blocks.lines
([['q1'], ['q2'], ['q3']], 'tag', 4)
>>> _ = path.write_text("q1 Q0 a 1 2.0 r\\nq2 Q0 a 1 3.0 r\\nq1 Q0 b 2 1.0 r\\n")
>>> list(TopicBlocks(path, block_bytes=16))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
irlab.runs.stream.TopicsSplit: .../run.txt: the lines of topic 'q1' are not together (it comes back after other topics)
"""

from __future__ import annotations

import gzip
import io
import queue
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from irlab.errors import ValidationError
from irlab.runs.arrow import as_arrow, as_numpy
from irlab.runs.trec import MAX_FILE_BYTES, RunBlock, megabytes, run_block

BLOCK_BYTES = 4 << 20
"""Text read and parsed at once (4 MiB, about 120,000 run lines): the work per block dwarfs the cost of
a block, and a block's columns, joins and kernels stay within some 100 MB (blocks of 16 MiB took 1.8x
the peak memory at 10M run lines, 390 MB against 215 MB, and no less time)."""


_DONE = object()
"""Handed over by the reading thread after the last block."""


class ReadWhole(Exception):
    """The file cannot be read in blocks (a line longer than a block, topics not together): read it whole."""


class TopicsSplit(ReadWhole):
    """A topic's lines are not together in the file."""


class TopicBlocks:
    """The rows of a run file, a few complete topics at a time (see the module).

    Iterating yields :class:`~irlab.runs.trec.RunBlock` columns, each holding every line of its
    topics. Once iterated, ``runid`` is the tag of the file's last data line (trec_eval's
    ``runid``), ``topics`` every topic id the file ranks, and ``lines`` how many data lines it has.
    """

    def __init__(self, path: str | Path, *, block_bytes: int = BLOCK_BYTES, limit: int = MAX_FILE_BYTES,
                 ranks: bool = False) -> None:
        self.path = Path(path)
        self.name = str(path)
        self.block_bytes = block_bytes
        self.limit = limit
        self.ranks = ranks
        self.runid = ""
        self.topics: set[str] = set()
        self.lines = 0

    def __iter__(self) -> Iterator[RunBlock]:
        carried: RunBlock | None = None
        for block, tag in self._parsed():
            self.runid = tag if tag is not None else self.runid
            if not len(block.scores):
                continue
            self.lines += len(block.scores)
            if carried is not None:
                block = _joined(carried, block)
            last = block.queries[-1]  # an Arrow scalar: making one from a str would import pandas (0.5 s)
            seen = set(pc.unique(block.queries).to_pylist())
            back = sorted((seen & self.topics) - ({carried.queries[0].as_py()} if carried is not None else set()))
            if back:
                raise TopicsSplit(f"{self.name}: the lines of topic {back[0]!r} are not together "
                                  "(it comes back after other topics)")
            self.topics |= seen
            is_last = as_numpy(pc.equal(block.queries, last))
            start = len(is_last) - int(np.argmin(is_last[::-1])) if not is_last.all() else 0
            if is_last[start:].all() and not is_last[:start].any():  # the usual file: the last topic ends the block
                carried, done = _sliced(block, start, len(is_last)), _sliced(block, 0, start)
            else:
                carried, done = _rows(block, is_last), _rows(block, ~is_last)
            if len(done.scores):
                yield done
        if carried is not None:
            yield carried

    def _parsed(self) -> Iterator[tuple[RunBlock, str | None]]:
        """Each block's columns and last tag, read and parsed one block ahead in a second thread.

        The CSV reader and numpy release the GIL, so the next block is read while the caller
        evaluates this one; at most two blocks are in memory beyond the one being evaluated.
        """
        handed: queue.Queue = queue.Queue(maxsize=1)
        stop = threading.Event()

        def hand(item: object) -> None:
            while not stop.is_set():
                try:
                    handed.put(item, timeout=0.05)
                    return
                except queue.Full:
                    continue

        def produce() -> None:
            try:
                for text in self._texts():
                    hand((run_block(text, self.name, ranks=self.ranks), _last_tag(text)))
                    if stop.is_set():
                        return
                hand(_DONE)
            except BaseException as error:  # noqa: BLE001 - raised again in the reading thread
                hand(error)

        worker = threading.Thread(target=produce, name=f"read {self.name}", daemon=True)
        worker.start()
        try:
            while (item := handed.get()) is not _DONE:
                if isinstance(item, BaseException):
                    raise item
                yield item
        finally:
            stop.set()
            worker.join()

    def _texts(self) -> Iterator[bytes]:
        """The file's text in blocks of about ``block_bytes``, each ending at a line end (the last one may not)."""
        read = 0
        if self.path.stat().st_size > self.limit and not _gzipped(self.path):
            raise ValidationError(f"the file is more than the {megabytes(self.limit)} IR Lab reads", path=self.name)
        with _open(self.path, self.name) as handle:
            rest = b""
            while True:
                piece = handle.read(self.block_bytes)
                read += len(piece)
                if read > self.limit:
                    raise ValidationError(f"the file is more than the {megabytes(self.limit)} IR Lab reads",
                                          path=self.name)
                if not piece:
                    break
                text = rest + piece if rest else piece
                cut = text.rfind(b"\n") + 1
                if cut == 0:
                    if len(text) > 4 * self.block_bytes:
                        raise ReadWhole(f"{self.name}: a line longer than {megabytes(len(text))}")
                    rest = text
                    continue
                rest = text[cut:]
                yield text[:cut]
            if rest:
                yield rest


def _gzipped(path: Path) -> bool:
    with path.open("rb") as handle:
        return handle.read(2) == b"\x1f\x8b"


def _open(path: Path, name: str) -> BinaryIO:
    """``path`` for reading, through gzip when it is compressed."""
    handle = path.open("rb")
    if handle.read(2) == b"\x1f\x8b":
        handle.seek(0)
        return _GzipReader(handle, name)
    handle.seek(0)
    return handle


class _GzipReader(io.RawIOBase):
    """A gzip stream whose read errors are one clear message (a truncated or corrupt file)."""

    def __init__(self, handle: BinaryIO, name: str) -> None:
        self._file = handle
        self._zip = gzip.GzipFile(fileobj=handle)
        self._name = name

    def read(self, size: int = -1) -> bytes:
        try:
            return self._zip.read(size)
        except (OSError, EOFError) as error:
            raise ValidationError(f"not a readable gzip file ({error})", path=self._name) from None

    def close(self) -> None:
        self._zip.close()
        self._file.close()
        super().close()


def _last_tag(text: bytes) -> str | None:
    """The tag (6th field) of the last data line in the last 64 KiB of ``text``, or None when there is none."""
    for line in reversed(text[-(1 << 16):].split(b"\n")):
        fields = line.split()
        if len(fields) >= 6 and not fields[0].startswith(b"#"):
            return fields[5].decode("utf-8", "replace")
    return None


def _joined(first: RunBlock, second: RunBlock) -> RunBlock:
    """Two blocks' rows as one (the rows carried over, then the next block's)."""
    def arrow(a: pa.Array | pa.ChunkedArray, b: pa.Array | pa.ChunkedArray) -> pa.ChunkedArray:
        chunks = [*(a.chunks if isinstance(a, pa.ChunkedArray) else [a]),
                  *(b.chunks if isinstance(b, pa.ChunkedArray) else [b])]
        return pa.chunked_array(chunks, pa.string())

    ranks = None if first.ranks is None else np.concatenate([first.ranks, second.ranks])
    return RunBlock(arrow(first.queries, second.queries), arrow(first.docs, second.docs),
                    np.concatenate([first.scores, second.scores]), None, ranks)


def _sliced(block: RunBlock, start: int, end: int) -> RunBlock:
    """Rows ``start:end`` of ``block`` (no copy)."""
    return RunBlock(block.queries[start:end], block.docs[start:end], block.scores[start:end], None,
                    None if block.ranks is None else block.ranks[start:end])


def _rows(block: RunBlock, keep: np.ndarray) -> RunBlock:
    """The rows of ``block`` where ``keep`` is true."""
    rows = as_arrow(np.flatnonzero(keep))
    return RunBlock(block.queries.take(rows), block.docs.take(rows), block.scores[keep], None,
                    None if block.ranks is None else block.ranks[keep])

