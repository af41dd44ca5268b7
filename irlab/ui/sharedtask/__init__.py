"""The shared task page (pages/task.py): create a task, run it as the lecturer, take part as a student."""
