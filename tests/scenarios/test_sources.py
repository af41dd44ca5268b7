"""The sources are cited once, in the README, exactly as irlab/scenarios/sources.py declares them."""

from __future__ import annotations

from pathlib import Path

from irlab.scenarios.sources import SOURCES

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


def test_the_readme_cites_every_source_with_its_link():
    section = README.split("## Sources", 1)[1].split("\n## ", 1)[0]
    for source in SOURCES:
        assert f"| {source.short} |" in section
        assert (f"[{source.title}]({source.url})" if source.url else source.title) in section


def test_each_source_is_cited_once():
    assert README.count("## Sources") == 1
    for source in SOURCES:
        assert README.count(source.title) == 1, source.title
