"""Tests for the walkthrough illustrations in ``irlab.scenarios.art``."""

from __future__ import annotations

import base64
import xml.etree.ElementTree as ET

import pytest

from irlab.scenarios.art import ALT_TEXT, PICTURES, picture_data_uri, picture_svg

SVG_NS = "http://www.w3.org/2000/svg"
EXPECTED_KEYS = {
    "white-cat",
    "white-cat-in-box",
    "empty-box",
    "dark-cat-in-box",
    "white-cat-in-box-2",
    "white-cat-beside-box",
    "dark-cat-in-box-2",
    "dog-in-box",
}


def _local(name: str) -> str:
    """Strip an ``{namespace}`` prefix from a tag or attribute name."""
    return name.rsplit("}", 1)[-1]


def _parse(key: str) -> ET.Element:
    return ET.fromstring(PICTURES[key])


def test_exactly_the_eight_walkthrough_keys() -> None:
    assert set(PICTURES) == EXPECTED_KEYS
    assert set(ALT_TEXT) == EXPECTED_KEYS


@pytest.mark.parametrize("key", sorted(EXPECTED_KEYS))
def test_root_element_is_an_accessible_svg(key: str) -> None:
    markup = PICTURES[key]
    root = _parse(key)
    assert root.tag == f"{{{SVG_NS}}}svg"
    assert f'xmlns="{SVG_NS}"' in markup
    assert root.get("viewBox") == "0 0 120 120"
    assert root.get("role") == "img"


@pytest.mark.parametrize("key", sorted(EXPECTED_KEYS))
def test_title_is_the_first_child_and_matches_alt_text(key: str) -> None:
    root = _parse(key)
    first = root[0]
    assert first.tag == f"{{{SVG_NS}}}title"
    assert first.text == ALT_TEXT[key]


@pytest.mark.parametrize("key", sorted(EXPECTED_KEYS))
def test_alt_text_is_one_sentence(key: str) -> None:
    alt = ALT_TEXT[key]
    assert alt[0].isupper()
    assert alt.endswith(".")
    assert alt.count(".") == 1


@pytest.mark.parametrize("key", sorted(EXPECTED_KEYS))
def test_no_script_text_or_foreign_content(key: str) -> None:
    tags = {_local(el.tag) for el in _parse(key).iter()}
    for forbidden in ("script", "text", "tspan", "foreignObject", "image",
                      "style", "use", "a"):
        assert forbidden not in tags, f"{key} contains <{forbidden}>"


@pytest.mark.parametrize("key", sorted(EXPECTED_KEYS))
def test_no_external_references_or_event_handlers(key: str) -> None:
    for el in _parse(key).iter():
        for name, value in el.attrib.items():
            local = _local(name)
            assert not local.lower().startswith("on"), f"{key}: {local} handler"
            if local == "href":
                assert value.startswith("#"), f"{key}: external href {value!r}"
            if "url(" in value:
                assert "url(#" in value, f"{key}: external url in {value!r}"
    without_ns = PICTURES[key].replace(f'xmlns="{SVG_NS}"', "")
    assert "://" not in without_ns


@pytest.mark.parametrize("key", sorted(EXPECTED_KEYS))
def test_no_ids_so_pictures_can_share_a_page(key: str) -> None:
    # Several pictures are inlined into one HTML page; ids would collide.
    assert all("id" not in el.attrib for el in _parse(key).iter())


def test_all_pictures_are_distinct() -> None:
    assert len(set(PICTURES.values())) == len(PICTURES)


@pytest.mark.parametrize("key", sorted(EXPECTED_KEYS))
def test_picture_svg_returns_the_mapping_entry(key: str) -> None:
    assert picture_svg(key) == PICTURES[key]


@pytest.mark.parametrize("key", sorted(EXPECTED_KEYS))
def test_data_uri_round_trips(key: str) -> None:
    uri = picture_data_uri(key)
    prefix = "data:image/svg+xml;base64,"
    assert uri.startswith(prefix)
    payload = uri[len(prefix):]
    assert payload.isascii() and " " not in payload
    assert base64.b64decode(payload, validate=True).decode("utf-8") == PICTURES[key]


def test_unknown_key_raises_key_error_naming_valid_keys() -> None:
    with pytest.raises(KeyError) as excinfo:
        picture_svg("unicorn-in-box")
    message = str(excinfo.value)
    assert "unicorn-in-box" in message
    for key in EXPECTED_KEYS:
        assert key in message


def test_unknown_key_raises_for_data_uri_too() -> None:
    with pytest.raises(KeyError):
        picture_data_uri("unicorn-in-box")


def test_mappings_are_read_only() -> None:
    with pytest.raises(TypeError):
        PICTURES["white-cat"] = "<svg/>"  # type: ignore[index]
    with pytest.raises(TypeError):
        ALT_TEXT["white-cat"] = "x"  # type: ignore[index]
