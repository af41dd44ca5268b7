"""IR Lab's server: Streamlit serving the pages (streamlit_app.py), plus the routes the app adds.

Run: ``streamlit run app.py``. Streamlit finds ``app`` below (an ``st.App``) and serves it with uvicorn,
exactly as ``streamlit run streamlit_app.py`` would serve the pages alone, with the same flags and
``.streamlit/config.toml``.
"""

import streamlit as st
from starlette.middleware import Middleware

from irlab.sharedtask.api import routes as task_routes
from irlab.ui.classroom.feed import class_lifespan, class_routes
from irlab.ui.shell.backend_url import BackendBaseUrl
from irlab.ui.shell.base_path import also_under_base_path
from irlab.ui.shell.interpreter import tune_for_serving
from irlab.ui.shell.pages import SECTIONS
from irlab.ui.walkthrough.settle import settle_routes

# Every page document says where the server is, so a page opened by its link skips Streamlit's base-path probe
PAGES = [page.url_path for pages in SECTIONS.values() for page in pages]
# /api/tasks/...: a student's command line submits runs to a shared task (irlab/sharedtask/api.py)
# /_irlab/class/...: a live class's event stream and its answers (irlab/ui/classroom/feed.py); its lifespan logs the
# class store once and stops the store's watcher
# /_irlab/region/settle: the K a learner settled on in a chapter, without a script run (irlab/ui/walkthrough/settle.py)
# Each is also served under server.baseUrlPath, where the browser and the command line ask for it (Streamlit mounts an
# app's routes at the root only: irlab/ui/shell/base_path.py); the settle route does that itself
# fewer, cheaper garbage collections: what the server holds after start-up is frozen (irlab/ui/shell/interpreter.py)
tune_for_serving()
app = st.App("streamlit_app.py", routes=[*also_under_base_path([*task_routes(), *class_routes()]), *settle_routes()],
             lifespan=class_lifespan, middleware=[Middleware(BackendBaseUrl, pages=PAGES)])
