"""The script Streamlit runs for every session: navigation and the chosen page (app.py serves it)."""

from irlab.ui.shell.error_boundary import error_boundary
from irlab.ui.shell.navigation import navigation

with error_boundary("navigation"):
    page = navigation()
    with error_boundary(page.url_path or "home"):
        page.run()
