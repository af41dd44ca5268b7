"""The app's frame, shared by every product: the one page list and the navigation, styles, presentation mode,
the error boundary, and memory held per session.

The shell knows no product: it imports the components and the core only (tests/test_architecture.py).
"""
