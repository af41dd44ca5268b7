"""A class roster: which variant (seed) each student was given, derived from a lecturer's secret.

Each student's seed is ``HMAC-SHA256(secret, student id)``, read as a number and reduced to
1 … 999,999,999 (:func:`student_seed`). Without the secret nobody can tell which seed belongs to
which student, so a student cannot pick an easier variant, and with it the lecturer can always
make the same roster again. The roster file is a CSV with the columns ``student`` and ``seed``
(:func:`roster_csv`, :func:`read_roster`); ``irlab exercise roster`` writes it with one notebook
per student (the student id in its metadata), and ``irlab exercise grade --roster`` checks each
submission against it (:func:`roster_flags`).

The secret comes from a file or from an environment variable the lecturer names; it is never
printed, and an error about it names the file or the variable only.

>>> seed = student_seed(b"a secret of at least 16 bytes", "s1234567")
>>> seed == student_seed(b"a secret of at least 16 bytes", "s1234567"), 1 <= seed < 10**9
(True, True)
>>> seed != student_seed(b"another secret, 16 bytes or more", "s1234567")
True
"""

from __future__ import annotations

import csv
import hashlib
import hmac
import io
import os
import unicodedata
from collections.abc import Iterable, Mapping
from pathlib import Path

from irlab.errors import ValidationError

SEED_RANGE = 10**9 - 1
MIN_SECRET_BYTES = 16
MAX_STUDENT_ID = 100
MAX_STUDENTS = 5000


def check_student_id(student: object) -> str:
    """A student id: 1 to 100 characters, no control or format characters, no space at either end.

    >>> check_student_id("ann.smith")
    'ann.smith'
    >>> check_student_id("ann\\x1b[2J")
    Traceback (most recent call last):
    ...
    irlab.errors.ValidationError: a student id must not hold control characters: 'ann\\x1b[2J'
    """
    if not isinstance(student, str) or not student or len(student) > MAX_STUDENT_ID:
        raise ValidationError(f"a student id is text of 1 to {MAX_STUDENT_ID} characters, got {student!r:.120}")
    if any(unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp", "Cs") for char in student):
        raise ValidationError(f"a student id must not hold control characters: {student!r:.120}")
    if student != student.strip():
        raise ValidationError(f"a student id must not start or end with a space: {student!r:.120}")
    return student


def student_seed(secret: bytes, student: str) -> int:
    """The student's seed: HMAC-SHA256 of the id under the secret, as a number from 1 to 999,999,999."""
    digest = hmac.new(secret, check_student_id(student).encode("utf-8"), hashlib.sha256).digest()
    return 1 + int.from_bytes(digest[:8], "big") % SEED_RANGE


def read_secret(*, file: str | None = None, variable: str | None = None) -> bytes:
    """The lecturer's secret, from a file (surrounding white space removed) or an environment variable."""
    if (file is None) == (variable is None):
        raise ValidationError("give the secret either as a file (--secret-file) or as an environment variable "
                              "(--secret-env), not both")
    if file is not None:
        try:
            secret = Path(file).read_bytes().strip()
        except OSError as error:
            raise ValidationError(f"cannot read the secret file {file}: {error.strerror}") from None
        where = f"the secret file {file}"
    else:
        value = os.environ.get(str(variable))
        if value is None:
            raise ValidationError(f"the environment variable {variable} is not set")
        secret, where = value.strip().encode("utf-8"), f"the environment variable {variable}"
    if len(secret) < MIN_SECRET_BYTES:
        raise ValidationError(f"{where} holds less than {MIN_SECRET_BYTES} bytes: use a long random secret "
                              "(e.g. python -c \"import secrets; print(secrets.token_hex(32))\")")
    return secret


def secret_file_warning(file: str | None) -> str | None:
    """A warning when the secret file can be read by every user of this machine (a grading box too, where it sees
    the file's folder), or None.

    >>> secret_file_warning(None) is None
    True
    """
    if file is None:
        return None
    try:
        mode = os.stat(file).st_mode
    except OSError:
        return None
    if mode & 0o004:
        return (f"warning: the secret file {file} is readable by every user of this machine; make it yours alone "
                f"(chmod 600 {file})")
    return None


def read_students(text: str) -> list[str]:
    """Student ids, one a line (blank lines and ``#`` comments skipped), or a CSV with a ``student`` column."""
    lines = [line.strip() for line in text.splitlines()]
    lines = [line for line in lines if line and not line.startswith("#")]
    if lines and lines[0].split(",")[0].strip().lower() == "student":
        students = [row.get("student", "") or "" for row in csv.DictReader(io.StringIO("\n".join(lines)))]
    else:
        students = lines
    return _unique([check_student_id(student.strip()) for student in students])


def make_roster(secret: bytes, students: Iterable[str]) -> dict[str, int]:
    """Each student's seed (two students with the same seed would share a variant: refused)."""
    roster = {student: student_seed(secret, student) for student in _unique(list(students))}
    seen: dict[int, str] = {}
    for student, seed in roster.items():
        if seed in seen:
            raise ValidationError(f"{seen[seed]!r} and {student!r} get the same seed: change the secret")
        seen[seed] = student
    return roster


def _unique(students: list[str]) -> list[str]:
    if not students:
        raise ValidationError("no student ids")
    if len(students) > MAX_STUDENTS:
        raise ValidationError(f"more than {MAX_STUDENTS:,} students")
    seen = set()
    for student in students:
        if student in seen:
            raise ValidationError(f"the student id {student!r} is listed twice")
        seen.add(student)
    return students


def roster_csv(roster: Mapping[str, int]) -> str:
    """The roster as CSV text: ``student,seed``, one row per student."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["student", "seed"])
    writer.writerows(roster.items())
    return out.getvalue()


def read_roster(text: str) -> dict[str, int]:
    """A roster CSV (``student,seed``) as a mapping; any problem is a ValidationError naming the line."""
    reader = csv.reader(io.StringIO(text))
    header = next(reader, None)
    if header is None or [cell.strip().lower() for cell in header[:2]] != ["student", "seed"]:
        raise ValidationError("a roster is a CSV file whose first line is 'student,seed'")
    roster: dict[str, int] = {}
    for row in reader:
        line = reader.line_num
        if not row or not "".join(row).strip():
            continue
        if len(row) < 2:
            raise ValidationError(f"roster line {line}: expected a student id and a seed")
        try:
            student = check_student_id(row[0].strip())
        except ValidationError as error:
            raise ValidationError(f"roster line {line}: {error}") from None
        seed_text = row[1].strip()
        if not (seed_text.isascii() and seed_text.isdigit()) or len(seed_text) > 18:
            raise ValidationError(f"roster line {line}: the seed {seed_text!r:.40} is not a whole number >= 0")
        if student in roster:
            raise ValidationError(f"roster line {line}: the student id {student!r} is listed twice")
        roster[student] = int(seed_text)
        if len(roster) > MAX_STUDENTS:
            raise ValidationError(f"the roster lists more than {MAX_STUDENTS:,} students")
    if not roster:
        raise ValidationError("the roster lists no students")
    return roster


def file_stem(student: str) -> str:
    """A file-name-safe form of a student id: letters, digits, ``.``, ``-`` and ``_`` (others become ``_``).

    >>> file_stem("Ann Smith/../x")
    'Ann_Smith_.._x'
    """
    stem = "".join(char if char.isascii() and (char.isalnum() or char in "._-") else "_" for char in student)
    return stem.lstrip(".") or "_"


def roster_check(roster: Mapping[str, int], student: str | None, seed: int | None) -> tuple[int | None, list[str]]:
    """The seed a submission is graded with, and what in it does not match the roster.

    The roster wins: a submission of a listed student is graded on that student's variant,
    whatever seed it claims. A submission without a student id, or with one the roster does not
    list, keeps its own seed and is flagged.

    >>> roster_check({"ann": 7}, "ann", 3)
    (7, ["seed 3 is not ann's: the roster says 7 (graded as variant 7)"])
    >>> roster_check({"ann": 7}, None, 3)
    (3, ['no student id in the submission'])
    """
    if student is None:
        return seed, ["no student id in the submission"]
    if student not in roster:
        return seed, [f"the student id {student!r} is not in the roster"]
    expected = roster[student]
    if seed != expected:
        claimed = "no seed" if seed is None else f"seed {seed}"
        return expected, [f"{claimed} is not {student}'s: the roster says {expected} (graded as variant {expected})"]
    return expected, []
