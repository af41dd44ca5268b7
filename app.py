"""IR Lab's server: Streamlit serving the pages (streamlit_app.py), plus the routes the app adds.

Run: ``streamlit run app.py``. Streamlit finds ``app`` below (an ``st.App``) and serves it with uvicorn,
exactly as ``streamlit run streamlit_app.py`` would serve the pages alone, with the same flags and
``.streamlit/config.toml``.
"""

import streamlit as st

app = st.App("streamlit_app.py")
