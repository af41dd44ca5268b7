"""The live class: classes, students, activities and answers in a database, for any number of replicas.

A lecturer starts a class (a join code and a secret lecturer key), adds activities and shows them
one at a time; students join with the code from a laptop or a phone and answer; the projector
shows the class's answers round by round (vote, discuss, revote). Nothing is kept in a process:
every request goes through the store (SQLAlchemy; one SQLite file by default, PostgreSQL by URL),
so any replica serves any student and a restarted replica loses nothing.

==================  =======================================================================
module              what it holds
==================  =======================================================================
``store``           :class:`~irlab.classroom.store.ClassStore`: start a class, the lecturer's
                    desk, join, a student's seat again, versions and pulses, retention
``lecturer``        :class:`~irlab.classroom.lecturer.LecturerDesk`: every lecturer action,
                    each checking the key
``student``         :class:`~irlab.classroom.student.StudentSeat`: what a student sees, answering
``records``         the plain records pages read (projector view, student view, versions)
``activities/``     the activity kinds (a declared set: predict a number, order the pictures, which is
                    it, an exercise) and their registry
``export``          all answers of a class as CSV, formula-neutralised
``analytics``       after the lecture: per activity and round the share right, named mistakes, time to answer
``settings``        ``IRLAB_CLASS_DB`` and ``IRLAB_CLASS_RETENTION_HOURS``
``database``        engines per URL and process; SQLite's WAL, busy timeout, foreign keys
``schema``          the tables, the schema version and its migrations
``rows``            the SQL both roles share
``tokens``          join codes, lecturer keys, student tokens
``nicknames``       nicknames as safe plain text
``ratelimit``       join and start limits counted in the store
``refusals``        why a request was refused (one-line messages)
``pulse``           what the pages following a class must know at once (versions, counts, timer)
``watch``           one watcher per replica: notices changes (SQLite's change counter, PostgreSQL's
                    LISTEN/NOTIFY) and tells the pages that follow a class
``presence``        how many students follow a class live, per replica, summed for the desk
``logbook``         the store in the log at start, store errors at most once a minute
==================  =======================================================================

A page uses it like this (the lecturer's key and the student's token travel in their links)::

    store = ClassStore()
    new = store.start_class()                        # show new.code, new.join_path; keep new.lecturer_path
    desk = store.lecturer(code, key)                 # every action checks the key again
    info = desk.add_activity("predict", predict_settings(state, chapter, "nDCG@K"))
    desk.show(info.id); desk.reveal(); desk.reopen()
    view = desk.projector()                          # when store.versions(code) changed
    seat = store.join(code, nickname=..., session=..., address=...)   # or store.student(code, token)
    seat.answer(seat.view().activity.round_id, "0.62")

(``predict_settings`` is :func:`irlab.classroom.activities.predict.predict_settings`.)
"""

from irlab.classroom.store import ClassStore

__all__ = ["ClassStore"]
