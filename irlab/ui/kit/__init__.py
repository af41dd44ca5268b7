"""Rendering shared by every product: breakdowns and formulas, tables, headline numbers, notices, Markdown, pictures.

The kit knows no product: it imports the components, the shell and the core, never
``irlab.ui.walkthrough``, ``irlab.ui.exercises`` or ``irlab.ui.runs`` (tests/test_architecture.py).
"""
