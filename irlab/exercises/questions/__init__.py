"""An exercise's questions: what each asks, in words and computed by irlab, its answer checked, its known mistakes.

* :mod:`~irlab.exercises.questions.wording`: a measure and a question in words, from the registry's declarations;
* :mod:`~irlab.exercises.questions.explain`: a question's (ranking, judgments) pairs and its breakdown, computed by
  irlab's measures, so every number of an exercise (key, feedback, notebook checks, worksheets, CSV) is one
  computation;
* :mod:`~irlab.exercises.questions.answers`: the answer key, and a student's answer read and checked;
* :mod:`~irlab.exercises.questions.mistakes`: a wrong answer matched to a named mistake (the measure under one
  mistaken convention, family or cut-off).

They read only the exercise's types (:mod:`irlab.exercises.model`) and irlab's measures: the file format validates
a question by computing it here, so this subpackage sits below every other one of :mod:`irlab.exercises`.
"""
