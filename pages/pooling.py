"""Pooling lab: pool a class's runs at depth k, judge the pool, and see how the ranking of the systems moves."""

from irlab.ui.pooling.page import page
from irlab.ui.shell.navigation import ensure_navigation

ensure_navigation()  # first: see irlab/ui/shell/navigation.py
page()
