"""The words behind the ids: a collection's document texts and its topics, for judging a pool.

Two plain formats each, one record a line (a ``.gz`` file is unpacked):

* **tab-separated**: ``id<TAB>text`` (MS MARCO's ``collection.tsv``, ``queries.tsv``);
* **JSON lines**: ``{"id": ..., "text": ...}`` (also ``doc_id``/``docno``/``_id`` for the id and
  ``contents``/``body`` for the text; a ``title`` goes before the text), as ir_datasets and
  Pyserini write them.

Topics may also come in TREC's format (``<top> <num> Number: 401 <title> ... </top>``): the
title is the topic's text, the description follows it.

Only the texts asked for are kept (``wanted``: the pooled documents), each cut at
:data:`MAX_TEXT` characters, so a collection of any length costs the memory of the pool. Texts are
data, never markup: the page shows them as plain text.

>>> read_texts(b"d1\\tA cat sits in a box.\\nd2\\tA dog.\\n", "docs.tsv", wanted={"d1"})
{'d1': 'A cat sits in a box.'}
>>> read_topics(b"<top>\\n<num> Number: 401\\n<title> cats in boxes\\n<desc> Description:\\nWhy cats like boxes.\\n"
...             b"</top>\\n")
{'401': 'cats in boxes — Why cats like boxes.'}
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from irlab.errors import ValidationError
from irlab.runs.trec import MB, unpack

MAX_FILE_BYTES = 200 * MB
"""The largest documents or topics file read (after unpacking)."""
MAX_TEXT = 4_000
"""Characters of a text kept (a judge reads the start of a long document)."""
MAX_ID = 200
"""Characters of an id."""
ID_KEYS = ("id", "doc_id", "docno", "_id", "query_id", "qid")
TEXT_KEYS = ("text", "contents", "body", "query", "title")


def read_texts(data: bytes, name: str, *, wanted: set[str] | None = None,
               limit: int = MAX_FILE_BYTES) -> dict[str, str]:
    """``{id: text}`` from a tab-separated or JSON lines file (see the module); only ``wanted`` ids when given."""
    text = _text(data, name, limit)
    found: dict[str, str] = {}
    for number, line in _lines(text):
        key, value = _record(line, name, number)
        if wanted is None or key in wanted:
            found.setdefault(key, _clean(value))
    if not found and wanted is None:
        raise ValidationError(f"{name}: no record found (one per line: id, a tab, the text; or JSON lines)")
    return found


def read_topics(data: bytes, name: str = "topics") -> dict[str, str]:
    """``{topic id: text}`` from TREC's topic format, tab-separated lines or JSON lines (see the module)."""
    text = _text(data, name, MAX_FILE_BYTES)
    if "<top>" in text.lower():
        return _trec_topics(text, name)
    return read_texts(data, name)


def _trec_topics(text: str, name: str) -> dict[str, str]:
    topics = {}
    for block in re.findall(r"<top>(.*?)</top>", text, flags=re.S | re.I):
        number = re.search(r"<num>\s*(?:Number:)?\s*(\S+)", block, flags=re.I)
        if number is None:
            raise ValidationError(f"{name}: a <top> without a <num>")
        fields = dict(re.findall(r"<(title|desc|narr)>\s*(?:Description:|Narrative:)?(.*?)(?=<\w+>|\Z)", block,
                                 flags=re.S | re.I))
        fields = {k.lower(): " ".join(v.split()) for k, v in fields.items()}
        words = " — ".join(part for part in (fields.get("title", ""), fields.get("desc", "")) if part)
        topics[_id(number.group(1), name, 0)] = _clean(words)
    if not topics:
        raise ValidationError(f"{name}: no complete <top> ... </top> topic found")
    return topics


def _text(data: bytes, name: str, limit: int) -> str:
    raw = unpack(bytes(data), name, limit=limit)
    if len(raw) > limit:
        raise ValidationError(f"{name}: more than {limit // MB:,} MB")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ValidationError(f"{name}: not UTF-8 text") from None


def _lines(text: str) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip() and not line.lstrip().startswith("#"):
            yield number, line


def _record(line: str, name: str, number: int) -> tuple[str, str]:
    if line.lstrip().startswith("{"):
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            raise ValidationError(f"{name}:{number}: not a JSON object") from None
        if not isinstance(record, dict):
            raise ValidationError(f"{name}:{number}: not a JSON object")
        key = next((record[k] for k in ID_KEYS if k in record), None)
        if key is None:
            raise ValidationError(f"{name}:{number}: no id (one of {', '.join(ID_KEYS)})")
        order = ("title", *[t for t in TEXT_KEYS if t != "title"])
        parts = [record[k] for k in order if isinstance(record.get(k), str)]
        return _id(key, name, number), " — ".join(dict.fromkeys(parts))
    key, tab, value = line.partition("\t")
    if not tab:
        raise ValidationError(f"{name}:{number}: no tab between the id and the text")
    return _id(key, name, number), value


def _id(value: object, name: str, number: int) -> str:
    key = str(value).strip()
    if not key or len(key) > MAX_ID or any(c.isspace() for c in key):
        raise ValidationError(f"{name}:{number}: an id must be 1-{MAX_ID} characters without spaces")
    return key


def _clean(text: str) -> str:
    """The text on one line, control characters removed, cut at :data:`MAX_TEXT` characters."""
    flat = " ".join("".join(c if c.isprintable() or c.isspace() else " " for c in text).split())
    return flat if len(flat) <= MAX_TEXT else flat[:MAX_TEXT].rstrip() + " …"
