"""Run a class: the lecturer starts a class (join code, QR code) and runs its questions on the projector.

Opened from the lecturer link ``class?code=CODE&key=KEY``; without one it offers to start a class.
"""

import streamlit as st

from irlab.ui.classroom.lecturer import class_page
from irlab.ui.shell.navigation import ensure_navigation

ensure_navigation()  # first: see irlab/ui/shell/navigation.py
st.title("Live class")
class_page()
