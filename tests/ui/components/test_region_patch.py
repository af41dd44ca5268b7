"""A patch made in Python (region/patch.py) gives the new value back, in Python and in patch.js, for any JSON.

Hypothesis makes pairs of JSON values (blocks with keys and digests among them, long texts that share words);
node applies the same patches with patch.js, all in one process, and must give the same values.
"""

from __future__ import annotations

import hashlib
import json
import subprocess

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irlab.ui.components.region.patch import apply_patch, patch_of
from tests.ui.components.test_browser_code import FOLDER, need_node_tools

WORDS = st.sampled_from(["<mn>4</mn>", "<mo>+</mo>", "Recall@2 ", "0.25, ", "rank ", "{\"x0\":3,", "cat ", "é "])
TEXT = st.one_of(st.text(max_size=8), st.lists(WORDS, max_size=40).map("".join))
SCALAR = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.floats(-1000, 1000, width=32), TEXT)
JSON = st.recursive(SCALAR, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                  st.dictionaries(st.sampled_from("abcdef"), inner, max_size=4)),
                    max_leaves=20)


def _digest(value) -> str:
    return hashlib.blake2b(json.dumps(value, sort_keys=True).encode(), digest_size=8).hexdigest()


@st.composite
def blocks(draw):
    """A list of blocks with distinct keys, some with a digest standing for their content."""
    keys = draw(st.lists(st.sampled_from("pqrstu"), unique=True, max_size=5))
    out = []
    for key in keys:
        body = draw(JSON)
        out.append({"key": key, "kind": "x", "body": body, "digest": _digest(body)})
    return out


VALUES = st.one_of(JSON, blocks())
CASES: list[tuple] = []


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(VALUES, VALUES)
def test_a_patch_gives_the_new_value_back(base, new):
    patch = patch_of(base, new)
    assert apply_patch(base, patch) == new
    if patch is None:
        assert base == new or (isinstance(base, dict) and base.get("digest") == new.get("digest"))
    CASES.append((base, patch, new))


def test_patch_js_gives_the_same_values():
    need_node_tools()
    assert len(CASES) >= 100, "run with the property test above (same file)"
    script = ("import { applyPatch } from './region/patch.js';"
              "let text = ''; process.stdin.on('data', d => text += d);"
              "process.stdin.on('end', () => { const cases = JSON.parse(text);"
              " process.stdout.write(JSON.stringify(cases.map(([base, patch]) => applyPatch(base, patch)))); });")
    result = subprocess.run(["node", "--input-type=module", "-e", script], cwd=FOLDER, capture_output=True, text=True,
                            input=json.dumps([[base, patch] for base, patch, _ in CASES]), timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    applied = json.loads(result.stdout)
    for (base, patch, new), got in zip(CASES, applied):
        assert got == json.loads(json.dumps(new)), (base, patch, new, got)
