"""The live region's data is declared once (region/region.schema.json): the Python builds it, the JavaScript is typed
from it, and neither can drift from the declaration.

* every chapter's data (whole, patched, ``same``, with the K form and a tile's moves, graded and presenting) is valid
  under the schema, and so is every screen the browser draws from it (each K, each move drawn ahead);
* the schema is strict: a block with a field it does not declare, or a kind it does not know, is refused;
* region-data.d.ts, which region.js and controls.js read their types from (tsc checks them,
  test_browser_code.py), is exactly what json-schema-to-typescript makes of the schema.
"""

from __future__ import annotations

import json
import subprocess

import jsonschema
import pytest

from irlab.ui.components import ROOT
from irlab.ui.components.region.patch import apply_patch
from irlab.walkthrough.chapters import CHAPTERS
from tests.ui.components.test_browser_code import need_node_tools
from tests.ui.conftest import REGION, region_data, send_message

SCHEMA = json.loads((ROOT / "region" / "region.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
BLOCKS = jsonschema.Draft202012Validator({**SCHEMA, "type": "array", "items": {"$ref": "#/$defs/Block"},
                                           "required": [], "properties": {}})
JSON2TS = ["npx", "--no-install", "json2ts", "-i", "region/region.schema.json", "--unreachableDefinitions",
           "--unknownAny", "--additionalProperties", "false"]
"""How region-data.d.ts is made (run in irlab/ui/components)."""


def _valid(data: dict) -> None:
    errors = sorted(VALIDATOR.iter_errors(data), key=lambda e: list(e.path))
    assert not errors, [f"{list(e.path)}: {e.message[:200]}" for e in errors[:5]]


def _valid_blocks(blocks: list) -> None:
    errors = list(BLOCKS.iter_errors(blocks))
    assert not errors, [f"{list(e.path)}: {e.message[:200]}" for e in errors[:5]]


def test_the_schema_is_a_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda chapter: chapter.slug)
def test_every_chapters_data_and_every_screen_drawn_from_it_is_valid(chapter, open_page, tile_change):
    at = open_page(chapter.slug, {"present": "1"} if chapter.slug == "map" else
                   {"rel": "graded"} if not chapter.binary_only else None)
    data = region_data(at)
    _valid(data)
    base = data["blocks"]
    row = next(iter(chapter.tile_rows))
    at.session_state[REGION] = tile_change("2 1 3 4 5 6 7 8", row=row) | {}
    at.session_state[REGION]["change"]["screen"] = data["screen"]
    at.run()
    moved = region_data(at)
    _valid(moved)
    base = apply_patch(base, moved["patch"])
    _valid_blocks(base)
    send_message(at, "kform", screen=moved["screen"], form=False)
    asked_form = region_data(at)
    _valid(asked_form)
    form = asked_form["kForm"]
    for k in form["at"]:  # each K from the K next to it, as region.js draws it
        step = int(k)
        chain = []
        while step != form["base"]:
            chain.append(step)
            step = step + 1 if step < form["base"] else step - 1
        blocks = base
        for each in reversed(chain):
            blocks = apply_patch(blocks, form["at"][str(each)])
        _valid_blocks(blocks)
    send_message(at, "k", k=form["base"], screen=moved["screen"], form=True)
    _valid(region_data(at))  # "same"
    item = next(tile["id"] for block in base if block["kind"] == "tiles" for tile in block["data"]["tiles"]) \
        if any(block["kind"] == "tiles" for block in base) else None
    if item is not None:
        send_message(at, "moves", screen=moved["screen"], row=row, item=item)
        asked = region_data(at)
        _valid(asked)
        for patch in asked["moveScreens"]["screens"].values():
            _valid_blocks(apply_patch(base, patch))


@pytest.mark.parametrize("block", [
    {"kind": "heading", "key": "h", "digest": "d", "text": "x", "colour": "red"},
    {"kind": "video", "key": "v", "digest": "d"},
    {"kind": "numbers", "key": "n", "digest": "d", "items": [{"label": "P@2", "value": 0.5, "delta": None,
                                                              "trend": None, "help": ""}]},
])
def test_a_block_the_schema_does_not_declare_is_refused(block):
    assert list(BLOCKS.iter_errors([block]))


def test_the_javascript_types_are_made_from_the_schema():
    """Regenerate with: (cd irlab/ui/components && npx json2ts -i region/region.schema.json -o region/region-data.d.ts
    --unreachableDefinitions --unknownAny --additionalProperties false)."""
    need_node_tools()
    made = subprocess.run(JSON2TS, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr[-2000:]
    assert made.stdout == (ROOT / "region" / "region-data.d.ts").read_text(), \
        "region-data.d.ts is stale: " + test_the_javascript_types_are_made_from_the_schema.__doc__
