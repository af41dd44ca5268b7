"""What the workspace adds for the runs page: query pages with a search, memory estimates, the doctor (cached)."""

from __future__ import annotations

import random

from irlab.runs.doctor import doctor
from irlab.runs.workspace import QUERIES_PER_PAGE, Workspace, memory_to_compare, memory_to_read, page_of, query_page


def test_pages_cover_every_query_once_in_order():
    queries = [f"q{i}" for i in range(1, 238)]
    pages = [query_page(queries, "", n, size=50) for n in range(1, 6)]
    assert [p.pages for p in pages] == [5] * 5
    assert [q for p in pages for q in p.queries] == queries
    assert all(queries[i] == q for p in pages for i, q in zip(p.positions, p.queries))


def test_search_is_a_case_insensitive_substring_and_keeps_positions():
    rng = random.Random(3)
    queries = [f"Topic-{rng.randrange(10_000)}" for _ in range(500)]
    found = query_page(queries, "  topic-12 ", 1, size=1_000)
    assert found.queries == tuple(q for q in queries if "topic-12" in q.casefold())
    assert found.matches == len(found.queries)
    assert [queries[i] for i in found.positions] == list(found.queries)


def test_page_numbers_are_clamped_and_no_match_is_one_empty_page():
    queries = [str(i) for i in range(120)]
    assert query_page(queries, "", 0).number == 1
    assert query_page(queries, "", 10**9).number == 3 == query_page(queries, "", 10**9).pages
    empty = query_page(queries, "nothing")
    assert (empty.queries, empty.number, empty.pages, empty.matches) == ((), 1, 1, 0)


def test_page_of_finds_the_page_that_holds_a_query():
    queries = [str(i) for i in range(1_000)]
    for q in ("0", "49", "50", "999"):
        assert q in query_page(queries, "", page_of(queries, q)).queries
    assert page_of(queries, "missing") == 1
    assert QUERIES_PER_PAGE == 50


def test_memory_estimates_grow_with_the_work():
    limit = 100_000_000
    assert memory_to_read(10_000_000, "run.txt", limit) < memory_to_read(20_000_000, "run.txt", limit)
    assert memory_to_read(30_000_000, "run.txt.gz", limit) == memory_to_read(limit, "run.txt", limit)  # capped
    assert memory_to_compare(10_000, 80, 6) > memory_to_compare(50, 3, 1) > 0


def test_the_doctor_of_a_workspace_is_the_doctors_and_is_kept():
    ws = Workspace.sample()
    findings = ws.doctor()
    assert [f.line() for f in findings] == [f.line() for f in doctor(ws.qrels, dict(ws.runs))]
    assert ws.doctor() is findings
    assert ws.doctor(2) is not findings
