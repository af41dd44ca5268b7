"""The pooling lab page under AppTest: the simulated class pooled, a judgment, simulated judges, the sweep."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from irlab.runs.pooling_lab import PoolingLab

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def at() -> AppTest:
    app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=120)
    app.run()
    app.switch_page("pages/pooling.py").run()
    assert not app.exception, [e.value for e in app.exception]
    return app


def _metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def test_the_simulated_class_is_pooled_at_the_chosen_depth(at):
    lab = PoolingLab.sample()
    assert _metric(at, "Documents to judge") == f"{lab.pool(10).size:,}"
    assert _metric(at, "Runs pooled") == "12"
    at.slider(key="irl-pool-depth").set_value(3).run()
    assert _metric(at, "Documents to judge") == f"{lab.pool(3).size:,}"
    pool_table = at.dataframe[0].value
    assert len(pool_table) == 12 and set(pool_table.columns) >= {"run", "documents only it pooled"}


def test_a_judgment_counts_and_the_next_document_comes(at):
    first = next(t.value for t in at.text if t.value.startswith("("))  # no texts for the simulated class
    assert "no document text" in first or "no topic text" in first
    at.button(key="irl-pool-grade-2").click().run()
    assert not at.exception
    assert _metric(at, "Judged on this page") == "1"
    at.button(key="irl-pool-grade-0").click().run()
    assert _metric(at, "Judged on this page") == "2"
    assert any(b.label.startswith("Download my judgments") for b in at.get("download_button"))


def test_simulated_judges_give_their_agreement_and_the_sweep_its_taus(at):
    at.button(key="irl-pool-simulate").click().run()
    assert not at.exception, [e.value for e in at.exception]
    summary = next(m.value for m in at.markdown if "judges judged" in m.value)
    assert "10 judges" in summary and "by 2" in summary
    agreement = next(d.value for d in at.dataframe if "judges" in d.value.columns)
    assert len(agreement) >= 9  # every pair of judges that shares documents
    sweep = next(d.value for d in at.dataframe if "τ AP" in d.value.columns)
    assert sweep["depth"].tolist()[-1] == "100"
    assert sweep["τ AP"].tolist()[-1] == "1.000"  # the reference depth agrees with itself
    at.radio(key="irl-pool-grades").set_value("judges").run()
    assert not at.exception, [e.value for e in at.exception]
    sweep = next(d.value for d in at.dataframe if "τ AP" in d.value.columns)
    assert sweep["depth"].tolist()[:2] == ["1", "2"]


def test_a_shared_tasks_runs_come_to_the_lab_with_the_lecturers_link(tmp_path, monkeypatch):
    import time

    from irlab.runs.simulate import simulate
    from irlab.sharedtask.store import TaskStore

    url = f"sqlite:///{tmp_path / 'classes.sqlite'}"
    monkeypatch.setenv("IRLAB_CLASS_DB", url)
    found = simulate(topics=8, systems={"a": 1.0, "b": 0.5, "c": 0.2}, depth=30, seed=4)
    store = TaskStore(url)
    new = store.create({"title": "T", "measures": ["AP"], "deadline": time.time() + 3600, "roster": ["x", "y"]},
                       ("\n".join(found.qrels_lines()) + "\n").encode(), "q.txt",
                       baseline=("\n".join(found.run_lines("c")) + "\n").encode())
    for name, system in (("x", "a"), ("y", "b")):
        store.seat(new.code, new.tokens[name]).submit(("\n".join(found.run_lines(system)) + "\n").encode(), "r.txt")
    at = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=120)
    at.run()
    at.query_params["task"], at.query_params["key"] = new.code, new.key
    at.switch_page("pages/pooling.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert _metric(at, "Runs pooled") == "3"
    sweep = next(d.value for d in at.dataframe if "τ AP" in d.value.columns)
    assert sweep["τ AP"].tolist()[-1] == "1.000"
    at.query_params["key"] = new.tokens["x"]  # a student's token is no lecturer key
    at.switch_page("pages/pooling.py").run()
    assert at.error and not any("τ AP" in d.value.columns for d in at.dataframe)
