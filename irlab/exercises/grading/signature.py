"""Variants bound to students without a roster file: each student's notebook is signed with the class secret.

``irlab exercise roster`` derives each student's seed from the lecturer's secret
(:func:`irlab.exercises.grading.roster.student_seed`) and writes one notebook per student. Each notebook also
carries a **signature** of what it says about itself, in ``metadata.irlab.signature``::

    HMAC-SHA256(key, JSON ["irlab-notebook", 1, fingerprint, student, seed])
    key = HMAC-SHA256(secret, "irlab notebook signature")

(the key is derived, so a signature never reveals anything about the seeds, which use the secret
itself). Only someone holding the secret can sign, so ``irlab exercise grade --secret-file FILE``
(without a roster) knows both which variant each student was given (their seed, from the secret)
and whether a notebook is one the lecturer made for them:

* a notebook relabelled to another variant (its seed and fingerprint changed), or copied and given
  another student id, no longer matches its signature: it is flagged, and graded on the variant of
  the student it names;
* a notebook without a signature (exported without the secret) is flagged as not signed.

The secret lives in the lecturer's files (or an environment variable they name) and is never printed;
a grading box never sees it (docs/grading.md).

>>> from irlab.exercises.format.examples import builtin_exercise
>>> secret = b"a lecturer's secret of 16+ bytes"
>>> notebook = signed_notebook(builtin_exercise("ndcg-exercise"), "ann", secret)
>>> stamp = notebook.metadata["irlab"]
>>> signature_problem(secret, stamp["exercise"], "ann", stamp["seed"], stamp["signature"]) is None
True
>>> signature_problem(secret, stamp["exercise"], "bob", stamp["seed"], stamp["signature"])[:35]
'the signature does not match its st'
"""

from __future__ import annotations

import hashlib
import hmac
import json

import nbformat

from irlab.exercises.exports.notebook import exercise_notebook
from irlab.exercises.exports.variants import make_variant
from irlab.exercises.grading.roster import student_seed
from irlab.exercises.model import Exercise

SIGNATURE_VERSION = 1
_KEY_LABEL = b"irlab notebook signature"
NOT_SIGNED = ("not signed with the class secret (not one of the notebooks irlab exercise roster made for this "
              "class)")
MISMATCH = "the signature does not match its student and variant (relabelled, copied or edited)"


def _key(secret: bytes) -> bytes:
    return hmac.new(secret, _KEY_LABEL, hashlib.sha256).digest()


def sign(secret: bytes, fingerprint: object, student: object, seed: object) -> str:
    """The signature of a notebook that says it is ``student``'s, of the variant ``seed`` with this ``fingerprint``."""
    message = json.dumps(["irlab-notebook", SIGNATURE_VERSION, fingerprint, student, seed], ensure_ascii=True)
    return hmac.new(_key(secret), message.encode("ascii"), hashlib.sha256).hexdigest()


def signature_problem(secret: bytes, fingerprint: object, student: object, seed: object, signature: object
                      ) -> str | None:
    """Why a notebook's signature does not vouch for what it says (:data:`NOT_SIGNED`, :data:`MISMATCH`), or None."""
    if not isinstance(signature, str) or not signature:
        return NOT_SIGNED
    if not hmac.compare_digest(signature.encode("ascii", errors="replace"),
                               sign(secret, fingerprint, student, seed).encode("ascii")):
        return MISMATCH
    return None


def sign_notebook(notebook: nbformat.NotebookNode, secret: bytes) -> nbformat.NotebookNode:
    """Add the signature of what ``notebook`` says about itself (fingerprint, student, seed) to its metadata."""
    stamp = notebook.metadata["irlab"]
    stamp["signature"] = sign(secret, stamp["exercise"], stamp.get("student"), stamp["seed"])
    return notebook


def signed_notebook(exercise: Exercise, student: str, secret: bytes, *, solutions: bool = False
                    ) -> nbformat.NotebookNode:
    """``student``'s notebook: the variant the secret gives them, their id in it, and its signature."""
    variant = make_variant(exercise, student_seed(secret, student))
    return sign_notebook(exercise_notebook(variant, solutions=solutions, student=student), secret)
