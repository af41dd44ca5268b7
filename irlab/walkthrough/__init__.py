"""The cats-in-boxes walkthrough without Streamlit: chapters, the learner's state, what each
chapter shows, state <-> URL, chart specs and the predict-then-reveal quiz.

Pages render what these views compute; the views call the metrics' ``explain_*`` functions.
"""
