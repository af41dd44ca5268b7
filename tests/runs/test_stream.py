"""Reading a run topic by topic (irlab.runs.stream) gives exactly what reading the whole file gives.

Random collections are written in random layouts: topics in any order, lines of a topic shuffled,
topics split across the file (which must fall back to reading the whole file), comments, blank
lines, tabs, gzip; and read with blocks of a few bytes up to the whole file. Every value of every
measure of trec_eval's all_trec set, per query and in the summary, must be the same.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irlab.errors import ValidationError
from irlab.metrics.measure_names import trec_measure_set
from irlab.runs.evaluate import evaluate_run_file, evaluate_tables
from irlab.runs.stream import TopicBlocks, TopicsSplit
from irlab.runs.trec import parse_qrels, read_run_file

MEASURES = {m.trec_name: m for m in trec_measure_set(["all_trec"])}


@st.composite
def collections(draw) -> tuple[bytes, list[list[str]], bool]:
    """(qrels text, the run's topics as lists of lines, whether to split topics across the file)."""
    topics = draw(st.lists(st.integers(0, 30), unique=True, min_size=1, max_size=7))
    docs = [f"d{i}" for i in range(draw(st.integers(1, 25)))]
    qrels, run = [], []
    for topic in topics:
        judged = draw(st.lists(st.sampled_from(docs), unique=True, max_size=len(docs)))
        qrels += [f"{topic} 0 {d} {draw(st.integers(-1, 3))}" for d in judged]
        if draw(st.integers(0, 5)) == 0:
            continue  # a judged topic the run misses
        ranked = draw(st.lists(st.sampled_from(docs), unique=True, min_size=1, max_size=len(docs)))
        run.append([f"{topic} Q0 {d} {r} {draw(st.sampled_from([1.0, 2.0, 0.5, -3.0, 7.25]))} tag{topic}"
                    for r, d in enumerate(ranked, start=1)])
    if draw(st.booleans()):
        run.append(["unjudged Q0 d0 1 1.0 other"])
    if not qrels:
        qrels = [f"{topics[0]} 0 d0 1"]
    return "\n".join(qrels).encode() + b"\n", run, draw(st.booleans())


def layout(topics: list[list[str]], split: bool, style: str, seed: int) -> bytes:
    rng = np.random.default_rng(seed)
    order = [topics[i] for i in rng.permutation(len(topics))]
    lines = []
    for group in order:
        group = [group[i] for i in rng.permutation(len(group))]
        lines.append(group)
    flat = [line for group in lines for line in group]
    if split and len(flat) > 2:
        flat = [flat[i] for i in rng.permutation(len(flat))]  # topics interleaved: not each in one piece
    if style == "comments":
        flat = ["# a comment", *flat[:1], "", "# another", *flat[1:]]
    elif style == "tabs":
        flat = ["\t".join(line.split()) for line in flat]
    elif style == "crlf":
        flat = [line + "\r" for line in flat]
    return ("\n".join(flat) + "\n").encode()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(collection=collections(), style=st.sampled_from(["plain", "comments", "tabs", "crlf", "gzip"]),
       block=st.sampled_from([1, 7, 40, 200, 1 << 20]), seed=st.integers(0, 1000), complete=st.booleans())
def test_topic_by_topic_equals_the_whole_file(tmp_path: Path, collection, style, block, seed, complete):
    qrels_text, topics, split = collection
    if not topics:
        return
    data = layout(topics, split, style, seed)
    path = tmp_path / f"run{seed}.txt"
    path.write_bytes(gzip.compress(data) if style == "gzip" else data)
    qrels = parse_qrels(qrels_text, "qrels")
    try:
        whole = evaluate_tables(qrels, read_run_file(path), MEASURES, complete=complete)
    except ValidationError as error:  # no judged topic in the run: the same message both ways
        with pytest.raises(ValidationError) as caught:
            evaluate_run_file(qrels, path, MEASURES, complete=complete, block_bytes=block)
        assert str(caught.value) == str(error)
        return
    streamed = evaluate_run_file(qrels, path, MEASURES, complete=complete, block_bytes=block)
    assert streamed.queries == whole.queries and streamed.runid == whole.runid
    assert streamed.missed == whole.missed and streamed.unjudged == whole.unjudged
    for name in MEASURES:
        ours, theirs = streamed.per_query[name], whole.per_query[name]
        if isinstance(theirs, list):
            assert ours == theirs, name
        else:
            np.testing.assert_array_equal(ours, theirs, err_msg=name)
        assert streamed.summary[name] == whole.summary[name] or (
            streamed.summary[name] != streamed.summary[name] and whole.summary[name] != whole.summary[name]), name


def test_topics_split_across_the_file_are_detected(tmp_path):
    path = tmp_path / "run.txt"
    path.write_text("1 Q0 a 1 1 r\n2 Q0 a 1 1 r\n1 Q0 b 2 0 r\n")
    with pytest.raises(TopicsSplit, match="topic '1' are not together"):
        list(TopicBlocks(path, block_bytes=13))
    blocks = TopicBlocks(path, block_bytes=1 << 20)  # one block: the order inside it does not matter
    assert [sorted(b.queries.to_pylist()) for b in blocks] == [["2"], ["1", "1"]]  # the last topic comes last


def test_blocks_hold_whole_topics_and_the_file_is_read_once(tmp_path):
    lines = [f"{t} Q0 d{d} {d} {10 - d} r{t}" for t in range(1, 6) for d in range(10)]
    path = tmp_path / "run.txt"
    path.write_text("\n".join(lines) + "\n")
    blocks = TopicBlocks(path, block_bytes=64)
    seen = [sorted(set(block.queries.to_pylist())) for block in blocks]
    assert sorted(t for topics in seen for t in topics) == ["1", "2", "3", "4", "5"]
    assert blocks.lines == 50 and blocks.runid == "r5" and blocks.topics == {"1", "2", "3", "4", "5"}


def test_a_line_longer_than_four_blocks_falls_back_to_the_whole_file(tmp_path):
    qrels = parse_qrels(b"q 0 " + b"d" * 500 + b" 1\n")
    path = tmp_path / "run.txt"
    path.write_bytes(b"q Q0 " + b"d" * 500 + b" 1 1.0 r\n")
    result = evaluate_run_file(qrels, path, {"map": MEASURES["map"]}, block_bytes=16)
    assert result.summary["map"] == 1.0


def test_bad_lines_give_the_whole_file_readers_message(tmp_path):
    qrels = parse_qrels(b"1 0 a 1\n")
    path = tmp_path / "run.txt"
    path.write_text("".join(f"1 Q0 d{i} {i} 1.0 r\n" for i in range(100)) + "1 Q0 x 1 high r\n")
    with pytest.raises(ValidationError, match=r"run.txt:101: the score \(5th field\) must be a number"):
        evaluate_run_file(qrels, path, {"map": MEASURES["map"]}, block_bytes=64)
    path.write_text("1 Q0 a 1 1 r\n" + "".join(f"2 Q0 d{i} {i} 1.0 r\n" for i in range(50)) + "1 Q0 a 2 1 r\n")
    with pytest.raises(ValidationError, match="appears twice for query '1' \\(lines 1 and 52\\)"):
        evaluate_run_file(qrels, path, {"map": MEASURES["map"]}, block_bytes=64)
