"""Join a class: a student joins with the lecturer's code (or the QR code's link ``join?code=CODE``) and answers.

The student's own link is ``join?code=CODE&student=TOKEN``: a reload keeps the same student and answers.
"""

import streamlit as st

from irlab.ui.classroom.student import join_page
from irlab.ui.shell.navigation import ensure_navigation

ensure_navigation()  # first: see irlab/ui/shell/navigation.py
st.title("Join a class")
join_page()
