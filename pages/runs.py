"""Your runs: evaluate, explain and compare your own TREC runs (drawn by irlab/ui/runs/)."""

from irlab.ui.runs.page import page
from irlab.ui.shell.navigation import ensure_navigation

ensure_navigation()  # first: see irlab/ui/shell/navigation.py
page()
