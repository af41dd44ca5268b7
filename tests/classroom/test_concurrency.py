"""Several processes on one store at once (replicas): nothing lost, the schema created once.

Each worker is a separate Python process (``python -c``) that opens the store by URL, waits for a
start signal (a file appearing), then works as fast as it can; the parent counts what reached the
database. On SQLite this is several processes on one file (WAL, busy timeout, ``BEGIN IMMEDIATE``);
on PostgreSQL, several clients of one server.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from sqlalchemy import func, select

from irlab.classroom import ClassStore
from irlab.classroom.activities.predict import predict_settings
from irlab.classroom.database import engine_for, reading
from irlab.classroom.schema import SCHEMA_VERSION, answers, schema_table
from irlab.walkthrough.chapters import chapter
from irlab.walkthrough.state import DEFAULT_STATE

ROOT = Path(__file__).resolve().parents[2]

WAIT = """
import sys, time, pathlib
from irlab.classroom import ClassStore  # imported before the start, so every worker starts at the same moment
go = pathlib.Path(sys.argv[1])
(go.parent / f"ready-{sys.argv[-1]}").touch()
while not go.exists():
    time.sleep(0.001)
"""

ANSWERING = WAIT + """
import json
url, code, tokens, round_id = sys.argv[2], sys.argv[3], json.loads(sys.argv[4]), int(sys.argv[5])
store = ClassStore(url)
seats = [store.student(code, token) for token in tokens]
sent = 0
for attempt in range(2):  # every student answers, then changes the answer once
    for number, seat in enumerate(seats):
        seat.answer(round_id, f"0.{attempt}{number % 10}")
        sent += 1
print(sent)
"""

CREATING = WAIT + """
store = ClassStore(sys.argv[2])
print(store.start_class().code)
"""


def run_together(script: str, argument_lists: list[list[str]], go: Path) -> list[str]:
    """Start one process per argument list, let them go at once when all are ready, return what each printed."""
    processes = [subprocess.Popen([sys.executable, "-c", script, str(go), *arguments, str(number)], cwd=ROOT,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for number, arguments in enumerate(argument_lists)]
    deadline = time.monotonic() + 120
    while len(list(go.parent.glob("ready-*"))) < len(processes) and time.monotonic() < deadline:
        for process in processes:
            if process.poll() is not None:
                raise AssertionError(f"a worker ended before the start: {process.communicate()[1][-2000:]}")
        time.sleep(0.01)
    go.touch()
    outputs = []
    for process in processes:
        out, err = process.communicate(timeout=180)
        assert process.returncode == 0, err[-2000:]
        outputs.append(out.strip())
    return outputs


def test_two_processes_answering_at_once_lose_nothing(database_url, tmp_path):
    store = ClassStore(database_url)
    new = store.start_class()
    desk = store.lecturer(new.code, new.key)
    info = desk.add_activity("predict", predict_settings(DEFAULT_STATE, chapter("ndcg"), "nDCG@K"))
    desk.show(info.id)
    students = [store.join(new.code).token for _ in range(60)]
    round_id = store.student(new.code, students[0]).view().activity.round_id
    halves = [students[:30], students[30:]]
    sent = run_together(ANSWERING, [[database_url, new.code, json.dumps(half), str(round_id)] for half in halves],
                        tmp_path / "go")
    assert [int(s) for s in sent] == [60, 60]  # each process: 30 students, each answering twice
    with reading(engine_for(database_url)) as connection:
        stored = connection.execute(select(func.count(), func.sum(answers.c.revisions))
                                    .where(answers.c.round_id == round_id)).one()
    assert tuple(stored) == (60, 60)  # one row per student; every second answer replaced the first
    desk.reveal()
    assert desk.projector().current.summaries[0].count == 60


def test_three_processes_creating_the_store_at_once(database_url, tmp_path):
    codes = run_together(CREATING, [[database_url]] * 3, tmp_path / "go")
    assert len(set(codes)) == 3
    with reading(engine_for(database_url)) as connection:
        versions = connection.execute(select(schema_table.c.version)).scalars().all()
    assert versions == [SCHEMA_VERSION]


def test_many_threads_of_one_process_answering_at_once_lose_nothing(store):
    """One app process serves its sessions in threads: they share the engine's pool."""
    from concurrent.futures import ThreadPoolExecutor

    new = store.start_class()
    desk = store.lecturer(new.code, new.key)
    desk.show(desk.add_activity("predict", predict_settings(DEFAULT_STATE, chapter("ndcg"), "nDCG@K")).id)
    seats = [store.join(new.code) for _ in range(48)]
    round_id = seats[0].view().activity.round_id

    def answer_twice(seat):
        seat.answer(round_id, "0.1")
        seat.view()
        return seat.answer(round_id, "0.3869").replaced

    with ThreadPoolExecutor(max_workers=24) as pool:  # more threads than the pool has connections
        replaced = list(pool.map(answer_twice, seats))
    assert replaced == [True] * 48
    desk.reveal()
    summary = desk.projector().current.summaries[0]
    assert (summary.count, summary.within) == (48, 48)
