"""The live class's pages: the lecturer's /class (projector and desk) and the students' /join.

A product: it imports the kit, the components (the answer box's phone keyboard is
:mod:`irlab.ui.components.keyboard`), the shell and the core (the store is
:mod:`irlab.classroom`), never another product. Nothing about a class lives here or in a process:
every run asks the store, so any replica serves any request and a restarted replica loses nothing;
a session keeps only the lecturer's code and key, or the student's code and token, which its link
carries too.

==================  ==================================================================================
module              what it holds
==================  ==================================================================================
``connection``      the class store of this process, and who asks (browser session, client address)
``links``           the absolute join link and lecturer link; the walkthrough state a question is about
``credentials``     the lecturer's code and key, the student's code and token: link <-> session
``qr``              the join link as a QR code (inline SVG made on the server, with a text alternative)
``charts``          a round's answers as a histogram spec (pure: numbers in, Plotly spec out)
``projector``       what the class sees: join code, QR, counts, the question, the reveal (polled)
``desk``            the lecturer's controls: start, add a question, show, close, reveal, revote, CSV, delete
``student``         the student's screen: join, wait, answer, see whether and why they were right (polled)
``kinds``           each activity kind's drawing, by role (:class:`~irlab.ui.classroom.kinds.KindPages`)
``predict``         predict a number: the form, the histogram per round, the answer box
``order``           order the pictures: the form, heatmap and links to the best and most common order, the tiles
``choice``          which is it: the form, the shares per option, the option buttons
``exercise``        an exercise in class: the form, success rates and mistakes live, the gradebook, the boxes
``analytics``       class analytics after the lecture: share right, time to answer, mistakes; CSV
==================  ==================================================================================

Live without push: Streamlit cannot push to a session, so both views poll with a fragment that
reruns every few seconds (:mod:`irlab.ui.classroom.connection`): the projector redraws its live part
from a view it reads again only when the class's version numbers changed; a student's poll reads one
version number and reruns the page only when it changed.
"""
