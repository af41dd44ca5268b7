"""The exercise builder's logic, without Streamlit: drafts and their edits, the measure picker, sharing.

* :mod:`~irlab.exercises.builder.drafts`: an editable, possibly invalid exercise, its tables and the edits made to
  them, validated exactly as a file is;
* :mod:`~irlab.exercises.builder.measure_picker`: the families, their K and variant options, and the measure name
  they make;
* :mod:`~irlab.exercises.builder.sharing`: Practise links, the export files and a batch of seeded variants.

It reads the exercise's format and exports; the builder's and the Practise page's widgets (irlab/ui/exercises)
read it. Nothing else in :mod:`irlab.exercises` reads it, and it does not read the grader.
"""
