"""Fixtures of the class pages' tests: a store of their own, and a lecturer and students driven under AppTest.

``class_db`` points ``IRLAB_CLASS_DB`` at a fresh SQLite file (never the per-user store); ``pg_class_db``
at a fresh database on the throwaway PostgreSQL server of tests/classroom (skipped without PostgreSQL's
binaries, failing under ``CI=true``). :class:`Lecturer` and :class:`Student` are the app under AppTest,
each its own session, with the few moves the tests make and what they read back.

A student's answer goes where the phone sends it: the answer route (``irlab.ui.classroom.feed.answer_reply``,
with what the page gave its answer form: the code, the token, the round); the page is then run again. The
projector's counts are what its feed was given (the browser draws them; the browser tests beside this file
check the drawing).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from irlab.classroom import ClassStore
from irlab.classroom.database import forget_engine
from irlab.ui.classroom.feed import answer_reply
from tests.classroom.conftest import postgres_server, postgres_url  # noqa: F401 - fixtures used here
from tests.ui.conftest import ROOT, region_blocks

CLASS_PAGE, JOIN_PAGE = "pages/class.py", "pages/join.py"


@pytest.fixture
def class_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A fresh SQLite class store for the pages (``IRLAB_CLASS_DB``)."""
    url = f"sqlite:///{tmp_path / 'classes.sqlite'}"
    monkeypatch.setenv("IRLAB_CLASS_DB", url)
    yield url
    forget_engine(url)


@pytest.fixture
def pg_class_db(postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> str:  # noqa: F811 - the imported fixture
    """A fresh PostgreSQL class store for the pages."""
    monkeypatch.setenv("IRLAB_CLASS_DB", postgres_url)
    return postgres_url


def _app(page: str, params: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=60)
    for name, value in (params or {}).items():
        at.query_params[name] = value
    at.run()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def param(at: AppTest, name: str) -> str | None:
    """A parameter of the page's link as the app last wrote it."""
    value = at.query_params.get(name)
    return value[0] if isinstance(value, list) else value


def region(at: AppTest) -> list[dict]:
    """The blocks of the projector's live region (nested ones too), as the component received them."""
    return region_blocks(at)


def component_data(at: AppTest, name: str) -> list[dict]:
    """The data of every mount of our component ``name`` ("classfeed", "classanswer") on the page, in order."""
    return [json.loads(element.proto.json) for element in at.get("bidi_component")
            if element.proto.component_name == f"irlab.{name}"]


def counts(at: AppTest) -> dict[str, str]:
    """The projector's counts as its feed draws them: label -> value ("Students joined", "Answers, round 1", ...)."""
    feeds = [data for data in component_data(at, "classfeed") if data["role"] == "projector"]
    if not feeds or feeds[-1]["counts"] is None:
        return {}
    data = feeds[-1]
    found = {"Students joined": str(data["counts"]["students"])}
    current = data["round"]
    if current is not None:
        for number, answers in enumerate(current["earlier"], start=1):
            found[f"Answers, round {number}"] = str(answers)
        found[f"Answers, round {current['number']}"] = str(current["answers"])
    return found


def plain(markdown: object) -> str:
    """Escaped Markdown (irlab.ui.kit.markdown.escape_markdown) as the reader sees it: ``0\\.39`` -> ``0.39``."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", str(markdown))


def said(at: AppTest, kind: str) -> list[str]:
    """The page's notices of ``kind`` (success, error, warning, info) as the reader sees them."""
    return [plain(e.value) for e in at.get(kind)]


def texts(at: AppTest) -> str:
    """Every text of the page's Markdown, captions, notices and code blocks as the reader sees it, joined."""
    parts = [e.value for kind in ("markdown", "caption", "success", "error", "warning", "info", "code", "subheader")
             for e in at.get(kind)]
    return "\n".join(plain(p) for p in parts)


class Lecturer:
    """The lecturer's /class under AppTest."""

    def __init__(self, params: dict[str, str] | None = None) -> None:
        self.at = _app(CLASS_PAGE, params)

    def run(self) -> Lecturer:
        self.at.run()
        assert not self.at.exception, [e.value for e in self.at.exception]
        return self

    def start(self) -> Lecturer:
        self.at.button(key="irl-start").click()
        return self.run()

    @property
    def code(self) -> str:
        return param(self.at, "code")

    @property
    def key(self) -> str:
        return param(self.at, "key")

    def add(self, *, show: bool = True, number: str | None = None, chapter: str | None = None,
            link: str | None = None, tolerance: float | None = None) -> Lecturer:
        """Add a predict question from the sidebar's form (this session's walkthrough, or a pasted link)."""
        if link is not None:
            self.at.sidebar.radio(key="irl-add-predict.source").set_value("A walkthrough link").run()
            self.at.sidebar.text_input(key="irl-add-predict.link").set_value(link).run()
        elif chapter is not None:
            box = self.at.sidebar.selectbox(key="irl-add-predict.chapter")
            box.select_index(next(i for i, o in enumerate(box.options) if chapter in o)).run()
        if number is not None:
            box = next(s for s in self.at.sidebar.selectbox if s.key.startswith("irl-add-predict.number"))
            box.set_value(number).run()
        if tolerance is not None:
            box = next(n for n in self.at.sidebar.number_input if n.key.startswith("irl-add-predict.tolerance"))
            box.set_value(tolerance).run()
        self.at.sidebar.button(key="irl-add-show" if show else "irl-add-later").click()
        return self.run()

    def add_kind(self, kind: str, *, show: bool = True, **choices: object) -> Lecturer:
        """Add an activity of ``kind`` from the sidebar's form; ``choices``: widget key suffix -> value
        (``goal="best-ndcg"`` sets the widget ``irl-add-<kind>.goal``), set in the order given."""
        self.at.sidebar.selectbox(key="irl-add-kind").set_value(kind).run()
        for suffix, value in choices.items():
            key = f"irl-add-{kind}.{suffix}"
            widget = next(w for kind_ in ("selectbox", "radio", "text_input", "multiselect", "number_input")
                          for w in getattr(self.at.sidebar, kind_) if w.key == key)
            widget.set_value(value).run()
        self.at.sidebar.button(key="irl-add-show" if show else "irl-add-later").click()
        return self.run()

    def control(self, label: str) -> Lecturer:
        """Press a round control by the start of its label (Close answers, Reveal, Revote, Hide the question)."""
        button = next(b for b in self.at.main.button if b.label.startswith(label))
        button.click()
        return self.run()

    def controls(self) -> list[str]:
        return [b.label for b in self.at.main.button]

    def region(self) -> list[dict]:
        return region(self.at)

    def counts(self) -> dict[str, str]:
        return counts(self.at)


class Student:
    """A student's /join under AppTest (its own session)."""

    def __init__(self, params: dict[str, str] | None = None) -> None:
        self.at = _app(JOIN_PAGE, params)

    def run(self) -> Student:
        self.at.run()
        assert not self.at.exception, [e.value for e in self.at.exception]
        return self

    def join(self, code: str | None = None, nickname: str = "") -> Student:
        if code is not None:
            self.at.text_input(key="irl-join-code").set_value(code)
        self.at.text_input(key="irl-nickname").set_value(nickname)
        self.at.button(key="irl-join").click()
        return self.run()

    @property
    def token(self) -> str | None:
        return param(self.at, "student")

    reply: dict | None = None
    """The answer route's last reply to this student (what their phone shows under Send)."""

    def form(self) -> dict:
        """The data of the page's answer form (the open round's)."""
        forms = component_data(self.at, "classanswer")
        assert forms, "no answer form on the page"
        return forms[-1]

    def answer(self, value: object, send: str | None = None) -> Student:
        """Send ``value`` as the phone does (a number as typed, option ids, an order, answers by question), then
        run the page again; the reply is in :attr:`reply` (and :attr:`receipt`)."""
        form = self.form()
        payload = {"code": form["code"], "student": form["student"], "round": form["round"], "answer": value,
                   "s": form["store"], "send": send}
        self.status, self.reply = answer_reply(payload, ClassStore())
        return self.run()

    @property
    def receipt(self) -> str:
        """The last reply's message, as the phone shows it."""
        assert self.reply is not None, "nothing sent yet"
        return self.reply["message"]

    def send_order(self, order: str) -> Student:
        """Send ``order`` ("2,1,3,...") as the form reads it from the tiles."""
        assert self.form()["form"]["kind"] == "order"
        return self.answer(order.split(","))

    def can_answer(self) -> bool:
        return bool(component_data(self.at, "classanswer"))

    def text(self) -> str:
        return texts(self.at)


@pytest.fixture
def lecturer(class_db: str) -> Lecturer:
    """A lecturer who has started a class (on a fresh store)."""
    return Lecturer().start()


@pytest.fixture
def student_of():
    """``student_of(lecturer, nickname="")``: a student who joined the lecturer's class from its link."""
    def join(lecturer: Lecturer, nickname: str = "") -> Student:
        return Student({"code": lecturer.code}).join(nickname=nickname)
    return join
