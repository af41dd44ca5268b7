"""What an exercise becomes for students and lecturers: notebooks, worksheets, answer keys, CSV, a variant each.

* :mod:`~irlab.exercises.exports.notebook`: an auto-checked Jupyter notebook (a stub or the solution), with the
  functions :mod:`~irlab.exercises.exports.codegen` writes from each measure's teaching;
* :mod:`~irlab.exercises.exports.worksheet`: printable worksheets and answer keys (Markdown and HTML);
* :mod:`~irlab.exercises.exports.csv_key`: the answer key as CSV for learning platforms;
* :mod:`~irlab.exercises.exports.variants`: seeded variants, the same exercise with its rankings perturbed, one
  per student;
* :mod:`~irlab.exercises.exports.text`: user text escaped for every format written (HTML, Markdown, code).

It reads the exercise's questions and format; the builder and the grader read it.
"""
