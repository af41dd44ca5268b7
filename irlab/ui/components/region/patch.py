"""A JSON value as the difference from one the browser holds: what the live region sends instead of a whole screen.

:func:`patch_of` writes ``new`` as a patch of ``base``; ``patch.js`` beside this file applies it
(``applyPatch(base, patch)``) and gets ``new`` back, keeping every unchanged part of ``base`` as the same
object (so the region's blocks that did not change keep their digest and are not touched). A patch is:

* absent (``None`` here) where nothing changed;
* ``{"v": value}``: the value, whole (a number, a short text, another type);
* ``{"s": [...]}``: a long text as pieces of the old one and new text: two numbers ``start, end`` copy
  ``base[start:end]``, a string is new text. A formula's MathML and short text are compared by words and
  tags, long prose sentence by sentence: a formula with one more term sends that term and not the formula;
* ``{"o": {name: patch}, "d": [names]}``: an object with some fields patched (and some dropped);
* ``{"a": length, "i": {index: patch}}``: a list with some items patched (items past the old end are new);
* ``{"b": [keys], "p": {key: patch}}``: a list of blocks (objects with a distinct ``key``): the new list's keys
  in order, and a patch for each block that is not the old block with its key (a new block: ``{"v": block}``).
  Two blocks with the same ``digest`` are the same without a look inside.

>>> base = {"kind": "numbers", "items": [{"label": "NDCG@2", "value": "0.3869"}]}
>>> new = {"kind": "numbers", "items": [{"label": "NDCG@3", "value": "0.3768"}]}
>>> patch_of(base, new)
{'o': {'items': {'a': 1, 'i': {'0': {'o': {'label': {'v': 'NDCG@3'}, 'value': {'v': '0.3768'}}}}}}}
>>> apply_patch(base, patch_of(base, new)) == new
True
>>> patch_of(base, base) is None
True
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

LONG_TEXT = 64
"""Texts shorter than this are sent whole: a patch of them would not be smaller."""
WORTH = 0.7
"""A text's patch is sent only when its JSON is at most this share of the new text's."""
_WORDS = re.compile(r"(?<=[ ,>])")
_SENTENCES = re.compile(r"(?<=\n)|(?<=[.:;] )")
LONG_PROSE = 400
"""Prose longer than this is compared by sentence and line, shorter by word (the matcher is quadratic at worst)."""


_NUMBERS = re.compile(r"(\d+(?:\.\d+)?)")


def _tokens(text: str) -> list[str]:
    """``text`` cut into what a patch keeps or replaces whole: a formula's MathML at its numbers (the markup between
    two numbers is one token: a term more or less is a few tokens, and the matcher, quadratic at worst, sees tens
    rather than hundreds); long prose after each line and sentence; a short sentence after every space, comma and
    ``>``: words."""
    if text.startswith("<math"):
        return [token for token in _at_numbers(text) if token]
    pattern = _SENTENCES if len(text) > LONG_PROSE else _WORDS
    return [token for token in pattern.split(text) if token]


@lru_cache(maxsize=1024)
def _at_numbers(text: str) -> tuple[str, ...]:
    # cached: the screen the browser holds is the base of every move ahead and every K of a K form
    return tuple(_NUMBERS.split(text))


def numbers_patch(base: str, new: str) -> list[int | str] | None:
    """``new`` as pieces of ``base`` when the two differ only in their numbers (a tile's move changes the numbers of a
    formula or a sentence, not its words), found in one pass; else None.

    >>> numbers_patch("DCG@2 = 3 + 0.6309 = 3.6309", "DCG@2 = 1 + 0.6309 = 1.6309")
    [0, 8, '1', 9, 21, '1.6309']
    >>> numbers_patch("DCG@2 = 3 + 0.6309", "DCG@3 = 3 + 0.6309 + 0.5") is None
    True
    """
    old_parts, new_parts = _at_numbers(base), _at_numbers(new)
    if len(old_parts) != len(new_parts) or old_parts[0::2] != new_parts[0::2]:
        return None
    ops: list[int | str] = []
    start = 0
    for old, part in zip(old_parts, new_parts):
        if old == part:
            if len(ops) >= 2 and isinstance(ops[-1], int) and ops[-1] == start:
                ops[-1] = start + len(old)
            elif old:
                ops += [start, start + len(old)]
        elif ops and isinstance(ops[-1], str):
            ops[-1] += part
        else:
            ops.append(part)
        start += len(old)
    return ops


def text_patch(base: str, new: str) -> list[int | str] | None:
    """``new`` as pieces of ``base`` and new text (see the module docstring); None when that is not worth sending.

    >>> text_patch("Move the dark cat to rank 1: Recall@2 goes from 0.25 to 0.5 and Precision@2 from 0.5 to 1.",
    ...            "Move the dark cat to rank 1: Recall@3 goes from 0.25 to 0.5 and Precision@3 from 0.5 to 1.")
    [0, 36, '3', 37, 74, '3', 75, 90]
    """
    if len(new) < LONG_TEXT:
        return None
    fast = numbers_patch(base, new)
    if fast is not None:
        return fast if len(json.dumps(fast, ensure_ascii=False)) <= WORTH * len(new) else None
    old_tokens, new_tokens = _tokens(base), _tokens(new)
    starts = [0]
    for token in old_tokens:
        starts.append(starts[-1] + len(token))
    # the same start and end are taken as they are; the matcher (quadratic at worst) sees only the middle
    head = 0
    while head < min(len(old_tokens), len(new_tokens)) and old_tokens[head] == new_tokens[head]:
        head += 1
    tail = 0
    while (tail < min(len(old_tokens), len(new_tokens)) - head
           and old_tokens[-1 - tail] == new_tokens[-1 - tail]):
        tail += 1
    ops: list[int | str] = []
    matcher = difflib.SequenceMatcher(None, old_tokens[head:len(old_tokens) - tail],
                                      new_tokens[head:len(new_tokens) - tail], autojunk=False)
    opcodes = [("equal", 0, head, 0, head)] if head else []
    opcodes += [(tag, i1 + head, i2 + head, j1 + head, j2 + head) for tag, i1, i2, j1, j2 in matcher.get_opcodes()]
    if tail:
        opcodes.append(("equal", len(old_tokens) - tail, len(old_tokens), len(new_tokens) - tail, len(new_tokens)))
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "equal":
            if len(ops) >= 2 and isinstance(ops[-1], int) and ops[-1] == starts[i1]:
                ops[-1] = starts[i2]
            else:
                ops += [starts[i1], starts[i2]]
        elif tag in ("replace", "insert"):
            text = "".join(new_tokens[j1:j2])
            if ops and isinstance(ops[-1], str):
                ops[-1] += text
            else:
                ops.append(text)
    if len(json.dumps(ops, ensure_ascii=False)) > WORTH * len(new):
        return None
    return ops


def _is_block_list(value: Sequence[Any]) -> bool:
    first = value[0] if value else None
    if not isinstance(first, dict) or "key" not in first:  # most lists are a chart's numbers or a table's cells
        return False
    keys = [item.get("key") if isinstance(item, Mapping) else None for item in value]
    return bool(keys) and all(isinstance(key, str) for key in keys) and len(set(keys)) == len(keys)


_SCALARS = frozenset({int, float, bool, type(None)})


def patch_of(base: Any, new: Any) -> dict[str, Any] | None:
    """``new`` as a patch of ``base``; None when they are equal."""
    if base is new:
        return None
    kinds = type(base), type(new)
    # the common leaves first, and dict before Mapping (whose check goes through the ABC machinery): a K form
    # compares thousands of values
    if kinds == (str, str):
        if base == new:
            return None
        ops = text_patch(base, new)
        return {"v": new} if ops is None else {"s": ops}
    if kinds[0] in _SCALARS and kinds[0] is kinds[1]:
        return None if base == new else {"v": new}
    if (kinds == (dict, dict)
            or (kinds[0] not in _SCALARS and isinstance(base, Mapping) and isinstance(new, Mapping))):
        if "digest" in base and base.get("digest") == new.get("digest"):
            return None
        fields = {}
        for name, value in new.items():
            if name not in base:
                fields[name] = {"v": value}
            elif (inner := patch_of(base[name], value)) is not None:
                fields[name] = inner
        dropped = [name for name in base if name not in new]
        if not fields and not dropped:
            return None
        return {"o": fields, **({"d": dropped} if dropped else {})}
    if isinstance(base, list) and isinstance(new, list):
        if base == new:
            return None
        if _is_block_list(base) and _is_block_list(new):
            by_key = {block["key"]: block for block in base}
            changed = {}
            for block in new:
                if block["key"] not in by_key:
                    changed[block["key"]] = {"v": block}
                elif (inner := patch_of(by_key[block["key"]], block)) is not None:
                    changed[block["key"]] = inner
            return {"b": [block["key"] for block in new], "p": changed}
        items = {}
        for index, value in enumerate(new):
            if index >= len(base):
                items[str(index)] = {"v": value}
            elif (inner := patch_of(base[index], value)) is not None:
                items[str(index)] = inner
        return {"a": len(new), **({"i": items} if items else {})}
    if isinstance(base, str) and isinstance(new, str):
        if base == new:
            return None
        ops = text_patch(base, new)
        return {"v": new} if ops is None else {"s": ops}
    if type(base) is type(new) and base == new:
        return None
    return {"v": new}


def apply_patch(base: Any, patch: Mapping[str, Any] | None) -> Any:
    """``base`` with ``patch`` applied (the Python twin of ``applyPatch`` in patch.js, for the tests and doctests)."""
    if patch is None:
        return base
    if "v" in patch:
        return patch["v"]
    if "s" in patch:
        ops, out, index = patch["s"], [], 0
        while index < len(ops):
            if isinstance(ops[index], str):
                out.append(ops[index])
                index += 1
            else:
                out.append(base[ops[index]:ops[index + 1]])
                index += 2
        return "".join(out)
    if "o" in patch:
        value = {name: item for name, item in base.items() if name not in patch.get("d", ())}
        for name, inner in patch["o"].items():
            value[name] = apply_patch(base.get(name), inner)
        return value
    if "b" in patch:
        by_key = {block["key"]: block for block in base}
        return [apply_patch(by_key.get(key), patch["p"].get(key)) for key in patch["b"]]
    items = patch.get("i", {})
    return [apply_patch(base[index] if index < len(base) else None, items.get(str(index)))
            for index in range(patch["a"])]
