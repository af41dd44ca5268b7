"""The live class's pages: the lecturer's /class (projector and desk) and the students' /join.

A product: it imports the kit, the components (the class's feed and a student's answer form are
:mod:`irlab.ui.components.classfeed` and :mod:`irlab.ui.components.classanswer`), the shell and the
core (the store is :mod:`irlab.classroom`), never another product. Nothing about a class lives here or in a process:
every run asks the store, so any replica serves any request and a restarted replica loses nothing;
a session keeps only the lecturer's code and key, or the student's code and token, which its link
carries too.

==================  ==================================================================================
module              what it holds
==================  ==================================================================================
``connection``      the class store of this process, who asks (browser session, client address), runs in turn
``feed``            the app's routes: a class's event stream (one watcher per replica) and answers by HTTP
``live``            what the feed and the answer form are given (versions, timer, counts, the round)
``links``           the absolute join link and lecturer link; the walkthrough state a question is about
``credentials``     the lecturer's code and key, the student's code and token: link <-> session
``qr``              the join link as a QR code (inline SVG made on the server, with a text alternative)
``charts``          a round's answers as a histogram spec (pure: numbers in, Plotly spec out)
``projector``       what the class sees: join code, QR, timer and counts, the question, the reveal
``desk``            the lecturer's controls: start, add a question, show, close, reveal, revote, CSV, delete
``student``         the student's screen: join, wait, answer, see whether and why they were right
``kinds``           each activity kind's drawing, by role (:class:`~irlab.ui.classroom.kinds.KindPages`)
``predict``         predict a number: the form, the histogram per round, the answer box
``order``           order the pictures: the form, heatmap and links to the best and most common order, the tiles
``choice``          which is it: the form, the shares per option, the option buttons
``exercise``        an exercise in class: the form, success rates and mistakes live, the gradebook, the boxes
``analytics``       class analytics after the lecture: share right, time to answer, mistakes; CSV
==================  ==================================================================================

Live by push: each page's fragment starts with the class's feed, which follows the class through the
app's event stream (:mod:`irlab.ui.classroom.feed`) and reruns the fragment only when the class changed
for that page (a student's page: the lecturer's moves and the timer; the projector: also answers, whose
count it draws from the stream itself). Answers go by HTTP from the phone, which keeps them until they are
acknowledged.
"""
