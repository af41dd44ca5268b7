"""Class analytics on the lecturer's page, after the lecture: per question and round, the share right, the time to
answer and the named mistakes, as charts and a CSV (:mod:`irlab.classroom.analytics` computes them).

Below the projector, behind a toggle that is off by default: the numbers are read (every answer of the class)
only when the lecturer asks, never on the projector's poll, and never projected by accident.
"""

from __future__ import annotations

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from irlab.classroom.analytics import RoundStats, stats_csv
from irlab.errors import ValidationError
from irlab.ui.classroom.charts import bars_spec
from irlab.ui.classroom.connection import class_store, store_trouble
from irlab.ui.classroom.credentials import Credentials
from irlab.ui.components.chart import chart
from irlab.ui.kit.formulas import table_of

TOGGLE = "irl-analytics"


def share_chart(stats: tuple[RoundStats, ...]) -> tuple[dict, str]:
    """The share right per question and round (bars, in %), and its text alternative."""
    judged = [s for s in stats if s.share_right is not None]
    labels = [s.label for s in judged]
    shares = [round(100 * (s.share_right or 0.0)) for s in judged]
    spec = bars_spec(labels, shares)
    spec["data"][0]["text"] = [f"{v}% of {s.judged}" for v, s in zip(shares, judged)]
    spec["layout"]["xaxis"].update({"range": [0, 125], "dtick": 25, "title": {"text": "% right"}})
    alt = "Share right: " + "; ".join(f"{s.label} {v}% of {s.judged}" for v, s in zip(shares, judged)) + "."
    return spec, alt


def time_chart(stats: tuple[RoundStats, ...]) -> tuple[dict, str]:
    """The median seconds to answer per question and round (bars), and its text alternative."""
    timed = [s for s in stats if s.median_seconds is not None]
    labels = [s.label for s in timed]
    seconds = [round(s.median_seconds or 0.0) for s in timed]
    spec = bars_spec(labels, seconds)
    spec["data"][0]["text"] = [f"{v} s (90%: {round(s.p90_seconds or 0)} s)" for v, s in zip(seconds, timed)]
    spec["layout"]["xaxis"]["title"] = {"text": "median seconds to answer"}
    alt = "Median seconds to answer: " + "; ".join(f"{s.label} {v} s" for v, s in zip(seconds, timed)) + "."
    return spec, alt


def analytics_section(who: Credentials) -> None:
    """The toggle, and when on: the charts, the named mistakes per round, and the CSV."""
    if not st.toggle("Class analytics (after the lecture)", key=TOGGLE,
                     help="Every question and round: the share right, the time to answer, the named mistakes."):
        return
    try:
        stats = class_store().lecturer(who.code, who.secret).analytics()
    except ValidationError:
        st.caption("The class store did not answer; try again in a moment.")
        return
    except SQLAlchemyError as error:
        store_trouble(error, "class analytics")
        st.caption("The class store did not answer; try again in a moment.")
        return
    if not any(s.answers for s in stats):
        st.caption("No answers yet.")
        return
    with st.container(key="irl-analytics-charts"):
        left, right = st.columns(2)
        with left:
            spec, alt = share_chart(stats)
            chart(spec, alt, key="irl-analytics-share")
        with right:
            spec, alt = time_chart(stats)
            chart(spec, alt, key="irl-analytics-time")
    rows = [[s.label, s.question, "; ".join(f"{title}: {count}" for title, count in s.mistakes) or "none"]
            for s in stats if s.answers]
    table_of(["round", "question", "named mistakes"], rows)  # escaped by the table
    st.download_button("Download the analytics (CSV)", data=stats_csv(stats), mime="text/csv",
                       file_name=f"irlab-class-{who.code}-analytics.csv", icon=":material/download:",
                       on_click="ignore", key="irl-analytics-csv")
