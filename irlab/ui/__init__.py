"""The Streamlit layer, the only part of irlab that imports Streamlit: the picture-tile
component, shared controls, session and URL state, and rendering of breakdowns and views.
Pages call these helpers; the numbers come from the layers below."""
