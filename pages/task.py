"""Shared task: the lecturer creates a task on hidden qrels; students submit runs and see the leaderboard.

Opened from the lecturer link ``task?task=CODE&key=KEY`` or a student's ``task?task=CODE&student=TOKEN``.
"""

from irlab.ui.sharedtask.page import page
from irlab.ui.shell.navigation import ensure_navigation

ensure_navigation()  # first: see irlab/ui/shell/navigation.py
page()
