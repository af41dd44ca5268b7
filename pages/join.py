"""Join a class: a student joins with the lecturer's code (or the QR code's link ``join?code=CODE``) and answers.

The student's own link is ``join?code=CODE&student=TOKEN``: a reload keeps the same student and answers.
"""

from irlab.ui.classroom.student import join_page
from irlab.ui.shell.navigation import ensure_navigation

ensure_navigation()  # first: see irlab/ui/shell/navigation.py
join_page()  # its title only above the join form: in class, the phone's first screen is the question's
