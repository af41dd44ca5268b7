"""A class's shared task: TREC in miniature, with qrels the students never see before the lecturer releases them.

The lecturer creates a task (its topics are the hidden qrels' topics; the measures, the deadline, how many
runs each student may submit, who takes part: a roster of personal links, or the seats of a live class);
students submit runs from the browser or the command line; each run is checked by the run doctor and
scored at once, on the server; the leaderboard shows each student's best run with its interval and its
significance against the baseline; per-topic scores and the qrels appear only after the deadline, and only
what the lecturer releases. Everything lives in the class store's database (SQLite or PostgreSQL).

==================  =======================================================================
module              what it holds
==================  =======================================================================
``store``           :class:`~irlab.sharedtask.store.TaskStore`: create a task, the lecturer's
                    :class:`~irlab.sharedtask.store.TaskDesk`, a student's
                    :class:`~irlab.sharedtask.store.TaskSeat`; every limit enforced there
``definition``      what the lecturer sets, checked (measures, deadline, limits, enrolment)
``scoring``         one run scored against the hidden qrels; the doctor on public topics only
``leaderboard``     each student's best run: interval, significance against the baseline
``disclosure``      what is shown to whom and when; how much scores can tell about the qrels
``records``         what pages and the command line read (no secrets, no rows)
``schema``          the tables, with a schema version of their own
``api``             the HTTP routes the command line talks to (submit, leaderboard)
==================  =======================================================================
"""
