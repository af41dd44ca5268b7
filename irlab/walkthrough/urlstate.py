"""The walkthrough state as URL parameters, so any state is a link that restores it exactly.

==================  =====================================  ==========================================
parameter           example                                meaning
==================  =====================================  ==========================================
``order``           ``2,1,3,4,5,6,7,8``                    the shared ranking: picture ids 1-8, best first
``k``               ``2``                                  K, 1-8
``rel``             ``binary`` or ``graded``               "cat in a box" or "white cat in a box" (0-4)
``grades``          ``0,4,1,3,4,1,3,2``                    edited grades of pictures 1-8 (graded mode)
``order_white_cat`` ``1,3,4,2,5,7,6,8``                    ranking for "white cat" (MRR and MAP chapters)
``order_dark_cat``  ``1,2,3,5,4,6,8,7``                    ranking for "dark cat" (MRR and MAP chapters)
``returned``        ``5``                                  items the system returned (Conventions), 1-8
``present``         ``1``                                  presentation mode
==================  =====================================  ==========================================

Reading is forgiving: each parameter is checked on its own, and a malformed or out-of-range one
is replaced by its default with a short notice (it never raises). Notices quote at most a short,
cleaned excerpt of what the link said, never raw text.

>>> state, notices = state_from_params({"order": "2,1,3,4,5,6,7,8", "k": "12", "rel": "graded"})
>>> state.order[:2], state.k, state.mode
(('2', '1'), None, 'graded')
>>> notices
["The link's k='12' was ignored: K must be between 1 and 8. Using the chapter's default."]
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from irlab.data.judgments import Judgments
from irlab.errors import ValidationError
from irlab.scenarios.cats_in_boxes import DARK_CAT, WHITE_CAT, WHITE_CAT_IN_A_BOX
from irlab.walkthrough.chapter import Setting
from irlab.walkthrough.chapters import CHAPTERS, Chapter
from irlab.walkthrough.state import DEFAULT_STATE, MODES, SCENARIO, WalkthroughState

ORDER_PARAMS = {WHITE_CAT: "order_white_cat", DARK_CAT: "order_dark_cat"}
SETTINGS: dict[str, Setting] = {setting.name: setting for chapter in CHAPTERS for setting in chapter.settings}
"""The controls chapters add beside K (``level``, ``returned``, ...), each a URL parameter of its own name."""
KNOWN = {"order", "k", "rel", "grades", "present", *ORDER_PARAMS.values(), *SETTINGS}
MAX_VALUE_LENGTH = 200
MAX_NAMED = 5
"""Unknown parameters named in the notice; the rest are counted."""


def _excerpt(value: str) -> str:
    """A short excerpt of user text that is safe to show: letters, digits and , . _ - only."""
    cleaned = re.sub(r"[^A-Za-z0-9,._-]", "?", value)
    return cleaned[:30] + ("..." if len(cleaned) > 30 else "")


def _ids(value: str) -> list[str]:
    return [part.strip() for part in value.split(",")]


def parse_order(value: str) -> tuple[str, ...]:
    """A complete ranking of the eight pictures from ``1,2,...``; ValidationError if it is not one.

    >>> parse_order("8,7,6,5,4,3,2,1")
    ('8', '7', '6', '5', '4', '3', '2', '1')
    """
    try:
        return SCENARIO.check_ranking(_ids(value), complete=True)
    except ValidationError:  # its message would quote the link's raw text
        raise ValidationError("it must list each of the pictures 1-8 once, separated by commas") from None


def parse_int(value: str, low: int, high: int, what: str) -> int:
    """A whole number in low..high."""
    # ASCII digits only: \d and int() would also read full-width and other scripts' digits ("１０")
    if not re.fullmatch(r"\s*[0-9]{1,3}\s*", value) or not low <= int(value) <= high:
        raise ValidationError(f"{what} must be between {low} and {high}")
    return int(value)


def parse_grades(value: str) -> dict[str, int]:
    """Grades of pictures 1-8 in id order, each 0..4.

    >>> parse_grades("0,4,1,3,4,1,3,2")["2"]
    4
    """
    parts = _ids(value)
    ids = SCENARIO.item_ids
    rubric = SCENARIO.query(WHITE_CAT_IN_A_BOX).judgments
    if len(parts) != len(ids) or not all(re.fullmatch(r"[0-9]", p) for p in parts):
        raise ValidationError(f"grades must be {len(ids)} whole numbers 0-{rubric.max_grade}, one per picture")
    grades = dict(zip(ids, map(int, parts)))
    Judgments(grades, scale="graded", max_grade=rubric.max_grade)
    return grades


def state_from_params(params: Mapping[str, str | list[str]],
                      base: WalkthroughState = DEFAULT_STATE) -> tuple[WalkthroughState, list[str]]:
    """The state a link describes, and a notice for every parameter that was ignored.

    What the link does not say comes from ``base``: the defaults for a new visitor, the learner's own state
    when the browser's Back button returns to an earlier link of the same session.
    """
    notices: list[str] = []
    fields: dict[str, object] = {}
    query_orders: dict[str, tuple[str, ...]] = {}
    defaults = {"k": "the chapter's default", "rel": "the chapter's default", "order": "the sources' ranking",
                "grades": "the rubric's grades", "present": "off",
                **{name: f"the default, {setting.format(setting.default)}" for name, setting in SETTINGS.items()}}
    unknown = []
    for name, raw in params.items():
        value = raw[-1] if isinstance(raw, list) and raw else raw
        if not isinstance(value, str):
            continue
        if name not in KNOWN:
            unknown.append(name)
            continue
        try:
            if len(value) > MAX_VALUE_LENGTH:
                raise ValidationError("it is too long")
            if name == "order":
                fields["order"] = parse_order(value)
            elif name == "k":
                fields["k"] = parse_int(value, 1, len(SCENARIO.items), "K")
            elif name == "rel":
                if value not in MODES:
                    raise ValidationError("rel must be 'binary' or 'graded'")
                fields["mode"] = value
            elif name == "grades":
                fields["grades"] = parse_grades(value)
            elif name in SETTINGS:
                fields[name] = SETTINGS[name].parse(value)
            elif name == "present":
                if value not in ("0", "1", "true", "false"):
                    raise ValidationError("present must be 1 or 0")
                fields["present"] = value in ("1", "true")
            else:
                query = next(q for q, param in ORDER_PARAMS.items() if param == name)
                query_orders[query] = parse_order(value)
        except ValidationError as error:
            fallback = defaults.get(name, "the sources' ranking")
            notices.append(f"The link's {name}={_excerpt(value)!r} was ignored: {error.message}. Using {fallback}.")
    if unknown:  # one notice, however many: a link with 300 stray parameters is not 300 warnings
        shown = ", ".join(repr(_excerpt(name)) for name in unknown[:MAX_NAMED])
        more = f" and {len(unknown) - MAX_NAMED} more" if len(unknown) > MAX_NAMED else ""
        notices.insert(0, f"The link's unknown setting{'s' if len(unknown) > 1 else ''} {shown}{more} "
                          f"{'were' if len(unknown) > 1 else 'was'} ignored.")
    state = WalkthroughState(**{**base.__dict__, **fields, "query_orders": {**base.query_orders, **query_orders}})
    return state, notices


def describes_state(params: Mapping[str, object]) -> bool:
    """Whether URL parameters are a walkthrough link (ours), not another page's.

    >>> describes_state({"order": "1,2,3,4,5,6,7,8", "k": "2"}), describes_state({"run": "a"}), describes_state({})
    (True, False, False)
    """
    return "order" in params and set(params) <= KNOWN


def params_from_state(state: WalkthroughState, chapter: Chapter) -> dict[str, str]:
    """The URL parameters that restore what ``chapter`` shows for ``state``.

    >>> from irlab.walkthrough.chapters import chapter
    >>> params_from_state(DEFAULT_STATE, chapter("map"))["k"]
    '8'
    """
    params = {"order": ",".join(state.order), "k": str(state.effective_k(chapter)),
              "rel": state.effective_mode(chapter)}
    if state.grades is not None:
        params["grades"] = ",".join(str(state.grades.get(item, 0)) for item in SCENARIO.item_ids)
    if chapter.binary_only:
        for query, name in ORDER_PARAMS.items():
            params[name] = ",".join(state.query_order(query))
    for setting in chapter.settings:  # a setting the learner chose, where the chapter offers it
        if getattr(state, setting.name) is not None and setting.applies(state, chapter):
            params[setting.name] = str(getattr(state, setting.name))
    if state.present:
        params["present"] = "1"
    return params
