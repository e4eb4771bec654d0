"""The shipped rule books: one module per book (its Rules, wording, closed forms with proofs, hints).

Every module here that defines ``RULES`` is registered automatically on the first lookup
(see :mod:`duel_lessons.engine.registry`); to add a book, add a file (docs/authoring.md).
"""
