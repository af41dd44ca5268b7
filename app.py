"""IR Lab: an interactive walkthrough of offline retrieval evaluation. Run: streamlit run app.py"""

from irlab.ui.shell import navigation

navigation().run()
