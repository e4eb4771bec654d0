"""Layer 4, teaching: lessons (named checks, guesses, reveals), student copies, printables.

>>> from duel_lessons.teaching import Lesson
>>> Lesson("04", rules="divisor-duel", upto=100, big=[999], win_from=96, power=128, all_from=1024, count_upto=1000)
Lesson('04', rules='divisor-duel', upto=100, big=[999], win_from=96, power=128, all_from=1024, count_upto=1000)
"""

from duel_lessons.teaching.feedback import Result
from duel_lessons.teaching.lesson import Lesson

__all__ = ["Lesson", "Result"]
