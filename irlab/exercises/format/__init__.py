"""The exercise file: the JSON format read, validated and written, as link text, and the exercises IR Lab ships.

* :mod:`~irlab.exercises.format.schema`: the file's shape, declared once as a JSON Schema (published as
  docs/exercise-schema.json), and :mod:`~irlab.exercises.format.schema_check`: that schema applied, every problem
  in words;
* :mod:`~irlab.exercises.format.exercise_file`: reading (size, JSON, shape, then the rules that need the whole
  file, among them that every question can be computed), writing, the canonical form and the fingerprint;
* :mod:`~irlab.exercises.format.links`: an exercise as link text (compressed, bounded both ways);
* :mod:`~irlab.exercises.format.examples`: the shipped exercises (the JSON files in ``examples/``) and how the
  command line and the app name them.

It reads the exercise's types and its questions (:mod:`irlab.exercises.questions`); docs/exercise-format.md
documents the format.
"""
