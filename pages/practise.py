"""Practise: answer an exercise's questions with instant feedback that names known mistakes, and predict
metric values on random rankings of the eight pictures before they are revealed.

Open an exercise from the sidebar (built-in, file or pasted link) or from a link:
``practise?exercise=TOKEN&seed=N`` or ``practise?builtin=NAME&seed=N``.
"""

import streamlit as st

from irlab.ui.exercises import practice
from irlab.ui.exercises.quiz import quiz
from irlab.ui.kit.notices import notices
from irlab.ui.shell.navigation import ensure_navigation
from irlab.ui.shell.style import apply_style

ensure_navigation()  # first: see irlab/ui/shell/navigation.py
apply_style(False)
st.title("Practise")
current = practice.opened()
notices(practice.take_notices())

exercise_tab, quiz_tab = st.tabs(["Exercise", "Predict, then reveal"], key="irlab.practice.tab", on_change="rerun")
if exercise_tab.open:
    practice.chooser(current)
    with exercise_tab:
        practice.header(current)
        practice.score_bar(current.exercise)
        practice.download_answers(current.exercise)
        practice.question(current.exercise, practice.navigator(current.exercise))
if quiz_tab.open:
    with quiz_tab:
        st.markdown("A random ranking of the eight pictures: choose a metric and K, predict the value, then "
                    "reveal it with its formula and table. Your score is kept for this session.")
        quiz()
practice.sync_url(current)
