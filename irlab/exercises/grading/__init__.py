"""Grading a class, the autograder: completed notebooks and answers files, each against the student's own variant.

* :mod:`~irlab.exercises.grading.grader`: the grade command's loop (read a submission, run it, check each value
  as an answer typed on the Practise page, make its row);
* :mod:`~irlab.exercises.grading.sandbox` and :mod:`~irlab.exercises.grading.box_init`: a box per run, its limits,
  its own processes and file system; :mod:`~irlab.exercises.grading.box_code`: the scripts a box runs
  (``box_init.py``, ``grade_worker.py``: the notebook run, ``call_worker.py``: the calls whose values are graded),
  checked against the digests IR Lab ships and never imported by the grader;
* :mod:`~irlab.exercises.grading.error_words` and :mod:`~irlab.exercises.grading.printable`: what a submission
  did, in IR Lab's own words, and its names made safe to print;
* :mod:`~irlab.exercises.grading.roster` and :mod:`~irlab.exercises.grading.signature`: variants bound to
  students (a seed per student from the lecturer's secret; signed notebooks);
* :mod:`~irlab.exercises.grading.grades` (a question's grade, a submission's row), written by
  :mod:`~irlab.exercises.grading.gradebook` (CSV) and :mod:`~irlab.exercises.grading.feedback` (a file per
  student).

It reads the exercise's questions, format and exports (a notebook's cells, a student's variant); nothing else in
:mod:`irlab.exercises` reads it. docs/grading.md says what the boxes protect against and what not.
"""
