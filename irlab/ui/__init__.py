"""The Streamlit layer, the only part of irlab that imports Streamlit, by product.

``shell/`` (navigation, style, presentation mode, error boundary, session memory), ``components/`` (one
folder per browser component), ``kit/`` (rendering every product shares), and one folder per product:
``walkthrough/``, ``exercises/``, ``runs/``. A product never imports a sibling product; the kit knows no
product (tests/test_architecture.py checks both).
"""
