"""The script Streamlit runs for every session: navigation and the chosen page (app.py serves it)."""

from irlab.ui.shell.error_boundary import error_boundary
from irlab.ui.shell.navigation import navigation
from irlab.ui.walkthrough.settle import take_settled

with error_boundary("navigation"):
    take_settled()  # the Ks a learner settled on in a chapter since the last run (told by a route, not a run)
    page = navigation()
    with error_boundary(page.url_path or "home"):
        page.run()
