"""markers.py's decisions, one function at a time, with expected values worked out by hand (issue 30).

Fast (pure functions, no notebook written): the copies area's mutation runs put this file first.
The near-miss detection is tested at its boundaries: which misspellings count (one or two edits,
the same first letter, five letters or more) and which do not; the refusals' words are the
teacher's only guide to what went wrong, so they are pinned whole.
"""

from __future__ import annotations

from typing import Any

import pytest

from duel_lessons.teaching.markers import (
    CODE_STUB,
    TEXT_STUB,
    MarkerError,
    _across,
    _across_name,
    _cleared,
    _distance,
    _flagged,
    _head,
    _misspelt,
    _nbgrader_solution,
    _near,
    _problem,
    _quote,
    _regions,
    _removing_tag,
    _tags,
    _trailing,
    _truth,
    _value,
    cell_plan,
    is_removed,
)

#: The end of every refusal of a line shaped like an nbgrader delimiter.
NOT_ALONE = (
    ' but is not "### BEGIN SOLUTION", "### END SOLUTION", "### BEGIN HIDDEN TESTS" or "### END HIDDEN TESTS" '
    "alone on its line"
)
NEAR_KEY = 'nearly spells a marker ("solution" or "teacher_note")'
NEAR_TAG = 'nearly spells a marker ("solution" or "teacher")'


def cell(kind: str, source: Any, **metadata: Any) -> dict[str, Any]:
    return {"cell_type": kind, "source": source, "metadata": metadata}


# -- edit distance and near misses -----------------------------------------------------------------

#: (a, b, distance): insertions, deletions, substitutions and swaps of neighbours, counted by hand.
DISTANCES = [
    ("", "", 0),
    ("", "abc", 3),
    ("abc", "", 3),
    ("a", "", 1),
    ("abc", "abc", 0),
    ("abc", "abd", 1),
    ("abc", "xyz", 3),
    ("ab", "ba", 1),  # a swap at the start
    ("xab", "xba", 1),  # a swap after a match
    ("abcdef", "abdcef", 1),
    ("abcd", "badc", 2),  # two swaps
    ("ca", "abc", 3),  # no edit inside a swapped pair (the restricted distance; unrestricted it is 2)
    ("ab", "abcd", 2),
    ("aaa", "a", 2),  # a swap is of two letters of each word, never of a letter with itself across words
    ("abcd", "ab", 2),
    ("kitten", "sitting", 3),
    ("sunday", "saturday", 3),
    ("flaw", "lawn", 2),
    ("soluiton", "solution", 1),
    ("soluton", "solution", 1),
    ("solutn", "solution", 2),
    ("solxyion", "solution", 2),
    ("sxlxyion", "solution", 3),
    ("teacher ntoe", "teacher note", 1),
    ("teacher mode", "teacher note", 2),
]


def test_distance_counts_edits_and_swaps() -> None:
    for a, b, expected in DISTANCES:
        assert _distance(a, b) == expected, (a, b)


#: (word, target, near): one or two edits, the same first letter, five letters or more, not the word itself.
NEAR = [
    ("solution", "solution", False),  # the word itself
    ("xolution", "solution", False),  # one edit, but another first letter
    ("hiddn", "hidden", True),  # five letters: long enough
    ("hidn", "hidden", False),  # two edits, but four letters
    ("soluti", "solution", True),  # two shorter, two edits
    ("solutionxy", "solution", True),  # two longer
    ("solxyion", "solution", True),  # two substitutions
    ("sxlxyion", "solution", False),  # three
    ("techer", "teacher", True),
    ("teachers", "teacher", True),
]


def test_near_is_one_or_two_edits_with_the_same_first_letter() -> None:
    for word, target, expected in NEAR:
        assert _near(word, target) is expected, (word, target)


#: (the start of a line, the marker it nearly spells, or None)
MISSPELT = [
    ("Soluton: 512", "solution"),
    ("SOLUTON", "solution"),
    ("Solutons are below", "solution"),
    ("soluxioxs", "solution"),  # two edits from "solutions", three from "solution"
    ("soluton teacher", "solution"),
    ("Solution", None),  # the marker itself
    ("solutions are below", None),
    ("Resolution", None),
    ("", None),
    ("!! --", None),
    ("Teacher ntoe", "teacher note"),
    ("TEACHER NTOE", "teacher note"),
    ("Techer note: run live", "teacher note"),
    ("Teacher ntoe today", "teacher note"),  # only the first two words count
    ("Teacher ntoes", "teacher note"),
    ("teacher's ntoe", "teacher note"),
    ("Teacher’s ntoes", "teacher note"),  # a curly apostrophe
    ("teachers ntoe", "teacher note"),
    ("teachers ntoes", "teacher note"),
    ("teacher's notess", "teacher note"),  # 16 letters and signs: the longest slip
    ("Teacher note", None),  # the marker itself
    ("Teacher mode", None),  # two edits: another phrase
    ("Reacher note", None),  # another first letter
    ("Teachernote", None),  # one word
]


def test_misspelt_names_the_marker_nearly_spelt() -> None:
    for text, expected in MISSPELT:
        assert _misspelt(text) == expected, text


# -- quoting in refusals ---------------------------------------------------------------------------


def test_quote_strips_and_shortens_to_60() -> None:
    assert _quote("  # SOLUTON  ") == '"# SOLUTON"'
    assert _quote("a" * 60) == '"' + "a" * 60 + '"'
    assert _quote("a" * 58 + "bcd") == '"' + "a" * 57 + '..."'
    assert _quote("Teacher’s ntoe") == '"Teacher’s ntoe"'  # not \u2019
    assert _quote('say "hi"') == '"say \\"hi\\""'


def test_value_is_json_shortened_to_40() -> None:
    assert _value("maybe") == '"maybe"'
    assert _value(2) == "2"
    assert _value([1, 2]) == "[1, 2]"
    assert _value({"a": None}) == '{"a": null}'
    assert _value(frozenset()) == '"frozenset()"'  # not JSON: its str
    assert _value("é") == '"é"'
    assert _value("b" * 38) == '"' + "b" * 38 + '"'  # 40 characters
    assert _value("b" * 39) == '"' + "b" * 36 + "..."


def test_head_is_the_marker_without_what_follows() -> None:
    assert _head("# Teacher ntoe: run live", "Teacher ntoe: run live", 2) == "# Teacher ntoe"
    assert _head("# Teacher ntoe: run live", "Teacher ntoe: run live", 1) == "# Teacher"
    assert _head("# Soluton", "Soluton", 2) == "# Soluton"
    assert _head("# !!", "!!", 1) == "# "


# -- tags, flags and metadata ----------------------------------------------------------------------


def test_tags_are_words_in_lower_case_with_their_singulars() -> None:
    assert _tags(cell("code", "", tags="Solution;Teacher")) == {"solution", "teacher"}
    assert _tags(cell("code", "", tags=["Teachers"])) == {"teachers", "teacher"}
    assert _tags(cell("code", "", tags=[" #solution! ", "(hint)"])) == {"solution", "hint"}
    assert _tags(cell("code", "", tags=["Teacher’s"])) == {"teacher's", "teacher"}
    assert _tags(cell("code", "", tags=["Teachers'_Notes"])) == {"teachers'_notes", "teacher-note"}
    assert _tags(cell("code", "", tags=["s", "'s"])) == {"s"}  # nothing left to make singular (quotes are stripped)
    assert _tags(cell("code", "", tags=["a,b;c|d/e+f&g h"])) == set("abcdefgh")
    assert _tags(cell("code", "", tags=["\u200bSolution"])) == {"solution"}
    assert _tags(cell("code", "", tags=[1])) == {"1"}
    assert _tags(cell("code", "", tags=["", " "])) == set()
    assert _tags(cell("code", "", tags=5)) == set()
    assert _tags(cell("code", "", tags={"solution": 1})) == set()
    assert _tags(cell("code", "")) == set()
    assert _tags({"cell_type": "code", "metadata": None}) == set()


@pytest.mark.parametrize(
    "tag",
    ["teacher's", "Teacher’s", "teachers'", "teacher's-note", "teachers-note", "teachers_notes", "Teacher's notes",
     "instructors-notes", "teachers'-only", "instructor's_note", "for-teachers", "teacher-guide", "teacher.tip",
     "Instructors:answers"],
)  # fmt: skip
def test_a_plural_or_possessive_in_any_word_of_a_tag_still_removes_the_cell(tag: str) -> None:
    """A teacher's natural spellings of the teacher tags remove the cell; none is kept, none refused."""
    assert cell_plan(cell("markdown", "The answer is 42.", tags=[tag])) == ("remove", "")


@pytest.mark.parametrize("tag", ["teaching", "teachable", "student", "answer", "hint", "after:hand-over"])
def test_a_word_that_only_starts_like_teacher_keeps_the_cell(tag: str) -> None:
    assert cell_plan(cell("markdown", "Try 12.", tags=[tag])) == ("keep", "Try 12.")


def test_removing_tags() -> None:
    for words in ({"solution"}, {"teacher-note"}, {"teacher_only"}, {"instructor"}, {"model-solution"},
                  {"ex1.solutions"}, {"a:solution"}, {"solution_2"}, {"hint", "teacher"}, {"teachers-guide"},
                  {"for-instructors'"}):  # fmt: skip
        assert _removing_tag(words), words
    for words in (set(), {"solutionary"}, {"resolution"}, {"teaching-notes"}, {"parameters", "hint"}):
        assert not _removing_tag(words), words


def test_truth_reads_flags_and_words() -> None:
    for value in (True, 1, 1.0, "true", " True ", "YES", "y", "1", "on", "\ufefftrue"):
        assert _truth(value) is True, value
    for value in (False, None, 0, 0.0, "false", "No", "n", "0", "off", "", " ", "none", "NULL"):
        assert _truth(value) is False, value
    for value in (2, -1, 0.5, "maybe", "hidden", [], {}, [1]):
        assert _truth(value) is None, value


def test_flagged_metadata() -> None:
    for metadata in (
        {"Solution": "yes"},
        {" teacher ": 1},
        {"teacher-only": True},
        {"solution2": "hidden"},
        {"solution2": " Hidden ", "solution2_first": False},
        {"solution": "SHOWN"},
        {"slideshow": {"slide_type": " Notes "}},
    ):
        assert _flagged(metadata), metadata
    for metadata in (
        {},
        {"solution": "no"},
        {"solution": "maybe"},
        {"answer": True},
        {"solution2": "hidden", "solution2_first": True},  # the question of an Exercise2 pair
        {"solution": "shown", "solution_first": "true"},
        {"solution2": "other"},
        {"solution2": 5},
        {"slideshow": {"slide_type": "slide"}},
        {"slideshow": {}},
        {"slideshow": "notes"},
    ):
        assert not _flagged(metadata), metadata


def test_nbgrader_solution() -> None:
    assert _nbgrader_solution(cell("code", "", nbgrader={"solution": "True"}))
    assert not _nbgrader_solution(cell("code", "", nbgrader={"solution": "maybe"}))
    assert not _nbgrader_solution(cell("code", "", nbgrader={"grade": True}))
    assert not _nbgrader_solution(cell("code", "", nbgrader="solution"))


def test_cleared_is_the_stub_or_nothing() -> None:
    assert _cleared("code", "")
    assert _cleared("code", " \n\t")
    assert _cleared("code", CODE_STUB)
    assert _cleared("code", "def f():\n    # YOUR CODE HERE\n    raise NotImplementedError()")
    assert _cleared("code", "#YOUR CODE HERE\r\n  raise NotImplementedError()")
    assert not _cleared("code", "x = 1")
    assert not _cleared("code", "# YOUR CODE HERE\nx = 1")
    assert _cleared("markdown", " YOUR ANSWER HERE \n")
    assert not _cleared("markdown", "YOUR ANSWER HERE!")
    assert not _cleared("markdown", CODE_STUB)
    assert not _cleared("raw", CODE_STUB)


# -- the near misses that are refused --------------------------------------------------------------


def problem(metadata: dict[str, Any] | None = None, tags: set[str] | None = None, lines: str = "") -> str | None:
    return _problem("code", metadata or {}, tags or set(), lines.split("\n"))


def text_problem(lines: str) -> str | None:
    return _problem("markdown", {}, set(), lines.split("\n"))


def test_metadata_that_matches_no_rule() -> None:
    assert problem({"solution2": "hiden"}) == 'its metadata says "solution2": "hiden", neither "hidden" nor "shown"'
    assert problem({"Solution2 ": 5}) == 'its metadata says "Solution2 ": 5, neither "hidden" nor "shown"'
    assert problem({" Solution ": "maybe"}) == 'its metadata says " Solution ": "maybe", neither true nor false'
    assert problem({"teacher": [1]}) == 'its metadata says "teacher": [1], neither true nor false'
    assert problem({"soluton": True}) == f'its metadata key "soluton" {NEAR_KEY}'
    assert problem({"Teacher_Ntoe": 1}) == f'its metadata key "Teacher_Ntoe" {NEAR_KEY}'
    assert problem({"teacher-ntoe": 1}) == f'its metadata key "teacher-ntoe" {NEAR_KEY}'
    assert problem({"solution_first": True, "soluton": True}) == f'its metadata key "soluton" {NEAR_KEY}'
    # the Exercise nbextensions' own keys and values, plain flags, other keys: no refusal
    for metadata in (
        {"solution_first": "maybe"},
        {"solution2_first": "maybe"},
        {"solution": " Hidden "},
        {"solution2": "SHOWN"},
        {"solution": None},
        {"solution": False},
        {"teacher": "no"},
        {"tags": ["x"], "collapsed": True, "editable": False, "jupyter": {}},
        {"nbgrader": {"grade_id": "q1", "schema_version": 3, "points": "lots"}},
    ):
        assert problem(metadata) is None, metadata


def test_nbgrader_metadata_that_matches_no_rule() -> None:
    assert problem({"nbgrader": "solution"}) == 'its nbgrader metadata is not an object such as {"solution": true}'
    assert problem({"nbgrader": None}) == 'its nbgrader metadata is not an object such as {"solution": true}'
    expected = 'its nbgrader metadata says "grade": "sometimes", neither true nor false'
    assert problem({"nbgrader": {"grade": "sometimes"}}) == expected
    assert problem({"nbgrader": {"Task ": 2}}) == 'its nbgrader metadata says "Task ": 2, neither true nor false'
    assert problem({"nbgrader": {"locked": "x"}}) == 'its nbgrader metadata says "locked": "x", neither true nor false'
    assert problem({"nbgrader": {"solution": 2}}) == 'its nbgrader metadata says "solution": 2, neither true nor false'
    assert problem({"nbgrader": {"solutoin": True}}) == 'its nbgrader metadata key "solutoin" nearly spells "solution"'
    assert problem({"nbgrader": {"teacher ntoe": True, "solution": True}}) is None  # only "solution" counts there


def test_tags_that_nearly_spell_a_marker() -> None:
    assert problem(tags={"soluton"}) == f'its tag "soluton" {NEAR_TAG}'
    assert problem(tags={"techer"}) == f'its tag "techer" {NEAR_TAG}'
    assert problem(tags={"ex-soluton"}) == f'its tag "ex-soluton" {NEAR_TAG}'
    assert problem(tags={"ex.soluton"}) == f'its tag "ex.soluton" {NEAR_TAG}'
    assert problem(tags={"ex:techer"}) == f'its tag "ex:techer" {NEAR_TAG}'
    assert problem(tags={"teacher ntoe"}) == f'its tag "teacher ntoe" {NEAR_TAG}'
    assert problem(tags={"b-soluton", "a-techer"}) == f'its tag "a-techer" {NEAR_TAG}'  # the first in order
    for tags in ({"teachers"}, {"teacher's"}, {"teacher"}, {"solutionary", "hint"}, {"teachers-guide"}):
        assert problem(tags=tags) is None, tags


#: (a cell's lines, the start of its refusal: the line shaped like an nbgrader delimiter that is not one)
DELIMITER_SHAPED = [
    ("### BEGIN SOLUTON", 'line 1 holds "### BEGIN SOLUTON"'),
    ("x = 1  ### BEGIN SOLUTION", 'line 1 holds "BEGIN SOLUTION"'),
    ("print('END HIDDEN TESTS')", 'line 1 holds "END HIDDEN TEST"'),
    ("x = 1\n### BEGIN ANSWER", 'line 2 holds "### BEGIN ANSWER"'),
    ("### BEGIN SOLUTION\n### END ANSWER", 'line 2 holds "### END ANSWER"'),  # a good delimiter first
    ("<!-- BEGIN ANSWER -->", 'line 1 holds "<!-- BEGIN ANSWER"'),
    ("// END ANSWER", 'line 1 holds "// END ANSWER"'),
    ("# begin soluton", 'line 1 holds "# begin soluton"'),
    ("# END Hiden tests", 'line 1 holds "# END Hiden"'),
    ("# begin hiddn", 'line 1 holds "# begin hiddn"'),
    ("# begin soluxioxs", 'line 1 holds "# begin soluxioxs"'),  # near "solutions" only
    ("# begin soluti", 'line 1 holds "# begin soluti"'),  # near "solution" only
]


def test_lines_shaped_like_a_delimiter() -> None:
    for lines, start in DELIMITER_SHAPED:
        assert problem(lines=lines) == start + NOT_ALONE, lines
    for lines in ("## BEGIN ANSWER", "# END OF SETUP", "# end of setup", "# begin", "// BEGIN SOLUTIONS"):
        assert problem(lines=lines) is None, lines


#: (a code cell, its refusal): a comment at the top, or a short one anywhere, that nearly spells a marker.
CODE_COMMENTS = [
    ("# SOLUTON\nx = 1", 'line 1 starts "# SOLUTON", which nearly spells a marker (solution)'),
    ("# Soluton ok\nx = 1", 'line 1 starts "# Soluton", which nearly spells a marker (solution)'),
    ("# Exercise 2 - soultion", 'line 1 starts "# Exercise 2 - soultion", which nearly spells a marker (solution)'),
    ("# EXERCISE 2: soultion", 'line 1 starts "# EXERCISE 2: soultion", which nearly spells a marker (solution)'),
    ("# Teacher ntoe: run live", 'line 1 starts "# Teacher ntoe", which nearly spells a marker (teacher note)'),
    ("%%time\n# SOLUTON", 'line 2 starts "# SOLUTON", which nearly spells a marker (solution)'),
    ("\n  # SOLUTON  ", 'line 2 starts "# SOLUTON", which nearly spells a marker (solution)'),
    ("%%time\n# soluton of the plot", 'line 2 starts "# soluton", which nearly spells a marker (solution)'),
    ("# intro\n# soluton of the plot", 'line 2 starts "# soluton", which nearly spells a marker (solution)'),
    ("x = 1\n# Soluton here", 'line 2 starts "# Soluton", which nearly spells a marker (solution)'),  # two words
]


def test_code_comments_that_nearly_spell_a_marker() -> None:
    for source, expected in CODE_COMMENTS:
        assert problem(lines=source) == expected, source
    for source in (
        "x = 1\n# Soluton here now",  # three words after code: a sentence
        "x = 1\n%soluton",
        "# Resolution of the plot",
        "#",
        "# Solution",  # the marker itself (removed before this is asked)
        "x = 1  # soluton",
    ):
        assert problem(lines=source) is None, source


#: (a text cell, its refusal): its first words nearly spell a marker.
TEXT_STARTS = [
    ("**Soluiton:** 42", 'line 1 starts "**Soluiton", which nearly spells a marker (solution)'),
    ("**Soluton is here**", 'line 1 starts "**Soluton", which nearly spells a marker (solution)'),
    ("Techer note: 42", 'line 1 starts "Techer note", which nearly spells a marker (teacher note)'),
    ("Soluton", 'line 1 starts "Soluton", which nearly spells a marker (solution)'),
    ("Soluton - 42", 'line 1 starts "Soluton", which nearly spells a marker (solution)'),
    ("---\n\n## Solutoin", 'line 3 starts "## Solutoin", which nearly spells a marker (solution)'),
    ("**EXERCISE 2: Soluton**", 'line 1 starts "**EXERCISE 2: Soluton", which nearly spells a marker (solution)'),
]


def test_text_cells_whose_first_words_nearly_spell_a_marker() -> None:
    for source, expected in TEXT_STARTS:
        assert text_problem(source) == expected, source
    for source in ("Soluton is here", "Hello\n**Soluton**", "Teacher mode: on", "", "x = 1  # SOLUTION"):
        assert text_problem(source) is None, source


# -- regions and trailing markers ------------------------------------------------------------------


def test_across_cells() -> None:
    assert _across("code", ["### BEGIN SOLUTION"]) == ("begin", "SOLUTION")
    assert _across("code", ["", "  # end solutions ", ""]) == ("end", "SOLUTION")
    assert _across("markdown", ["<!-- BEGIN HIDDEN TESTS -->"]) == ("begin", "HIDDEN TESTS")
    assert _across("code", ["### end hidden test"]) == ("end", "HIDDEN TESTS")
    assert _across("code", ["### BEGIN SOLUTION", "x"]) is None
    assert _across("markdown", ["### BEGIN SOLUTION", "x"]) is None
    assert _across("markdown", ["```{solution-start} ex1", "```"]) == ("begin", "{solution-start}")
    assert _across("raw", ["```{Solution-End}"]) == ("end", "{solution-start}")
    assert _across("markdown", ["```{solution-start}", "x", "```{solution-end}"]) is None
    assert _across("code", ["```{solution-start} ex1", "```"]) is None
    assert _across("markdown", ["```{note}", "```"]) is None


def test_across_names() -> None:
    assert _across_name("{solution-start}") == "a {solution-start} directive"
    assert _across_name("{solution-start}", "end") == "a {solution-end} directive"
    assert _across_name("SOLUTION") == '"BEGIN SOLUTION" alone'
    assert _across_name("HIDDEN TESTS", "end") == '"END HIDDEN TESTS" alone'


def test_regions_become_the_stub_or_go() -> None:
    lines = ["a", "    ### BEGIN SOLUTION", "    x", "    ### END SOLUTION", "b"]
    assert _regions("code", lines) == ["a", "    # YOUR CODE HERE", "    raise NotImplementedError()", "b"]
    assert _regions("markdown", lines) == ["a", "    YOUR ANSWER HERE", "b"]
    assert _regions("code", ["\t### BEGIN SOLUTION", "\t### END SOLUTION"]) == [
        "\t# YOUR CODE HERE",
        "\traise NotImplementedError()",
    ]
    hidden = ["t", "### BEGIN HIDDEN TESTS", "h", "\ufeff### END HIDDEN TESTS", "u"]
    assert _regions("code", hidden) == ["t", "u"]
    assert _regions("code", ["a", "b"]) is None
    assert _regions("code", [""]) is None


def test_regions_that_do_not_balance_are_refused() -> None:
    cases = [
        (["### BEGIN SOLUTION", "### BEGIN SOLUTION"],
         'line 2 opens "BEGIN SOLUTION" inside the region opened on line 1'),
        (["x", "### BEGIN SOLUTION", "### BEGIN HIDDEN TESTS"],
         'line 3 opens "BEGIN HIDDEN TESTS" inside the region opened on line 2'),
        (["x", "### END SOLUTION"], 'line 2 says "END SOLUTION" but no "BEGIN SOLUTION" is open'),
        (["### BEGIN HIDDEN TESTS", "### END SOLUTION"], 'line 2 says "END SOLUTION" but no "BEGIN SOLUTION" is open'),
        (["### BEGIN HIDDEN TESTS", "x"], 'line 1 says "BEGIN HIDDEN TESTS" and no "END HIDDEN TESTS" follows'),
        (["### BEGIN SOLUTION", "### END SOLUTION", "### END SOLUTION"],
         'line 3 says "END SOLUTION" but no "BEGIN SOLUTION" is open'),
    ]  # fmt: skip
    for lines, message in cases:
        with pytest.raises(MarkerError) as caught:
            _regions("code", lines)
        assert str(caught.value) == message


TRAILING = [
    (["x = 4  # SOLUTION"], ["x = ..."]),
    (["    return k * 2  # solution"], ["    ..."]),
    (["a, b = 1, 2 # Solution"], ["a, b = ..."]),
    (["x: int = 4  # SOLUTION"], ["x: int = ..."]),
    (["obj.attr = 4 #SOLUTION  "], ["obj.attr = ..."]),
    (["x == 4  # SOLUTION"], ["..."]),
    (["x = 4  ## SOLUTION\r"], ["x = ..."]),
    (["\u200bx = 4  # SOLUTION"], ["x = ..."]),
    (["def f():", "    y = 2  # SOLUTION", "    return y"], ["def f():", "    y = ...", "    return y"]),
    (["# x  # SOLUTION", "z = 1  # SOLUTION"], ["# x  # SOLUTION", "z = ..."]),
    (["\rx = 4  # SOLUTION"], ["\rx = ..."]),  # only a line's last carriage return (a Windows line end) goes
]


def test_trailing_markers() -> None:
    for lines, expected in TRAILING:
        assert _trailing(lines) == expected, lines
    for lines in (["# SOLUTION"], ["  # x  # SOLUTION"], ["x = 1"], ["print('solution')"], ["x = 4#SOLUTION"], [],
                  ["n = 1  # SOLUTIONX"]):  # fmt: skip
        assert _trailing(lines) is None, lines


# -- what the student copy does with a cell --------------------------------------------------------

PLANS = [
    (cell("code", "x = 1"), ("keep", "x = 1")),
    (cell("code", ["x = 1\n", "y = 2"]), ("keep", "x = 1\ny = 2")),
    (cell("code", ["a", 1]), ("keep", "a1")),
    (cell("code", 42), ("keep", "")),
    ({"cell_type": "code", "metadata": None}, ("keep", "")),
    (cell("code", "\u200bx = 1"), ("keep", "\u200bx = 1")),
    (cell("code", "### BEGIN SOLUTION"), ("begin", "SOLUTION")),
    (cell("markdown", "### END HIDDEN TESTS"), ("end", "HIDDEN TESTS")),
    (cell("code", "### BEGIN SOLUTION\n### END SOLUTION"), ("change", CODE_STUB)),
    (cell("code", "x = 1", tags=["Solutions"]), ("remove", "")),
    (cell("code", "x = 1", solution="yes"), ("remove", "")),
    (cell("code", "%%time\n\n# intro\n# SOLUTION\nx = 1"), ("remove", "")),
    (cell("code", "%%time\n# Solution to exercise 2\nx = 1"), ("remove", "")),  # not a lone marker: a leading one
    (cell("code", "\n# Solution to exercise 2\nx = 1"), ("remove", "")),
    (cell("code", "x = lesson.solution(2)"), ("remove", "")),
    (cell("code", '# intro\n"""Solution to exercise 2"""\nx = 1'), ("remove", "")),
    (cell("code", 'x = 1\n"""Solution to exercise 2"""'), ("keep", 'x = 1\n"""Solution to exercise 2"""')),
    (cell("code", "x = 1\n# Solution"), ("remove", "")),
    (cell("code", "x = 1\n# Solution: more words"), ("keep", "x = 1\n# Solution: more words")),
    (cell("code", "```{solution-start}"), ("keep", "```{solution-start}")),
    (cell("markdown", "```{solution-start} ex1\n```"), ("begin", "{solution-start}")),
    (cell("markdown", "Try it.\n```{Solutions}\n42\n```"), ("remove", "")),
    (cell("markdown", "```{admonition} **Teacher note**\n42\n```"), ("remove", "")),
    (cell("markdown", "```{note} Solution\n42\n```"), ("remove", "")),
    (cell("markdown", "```{note} Hint\n42\n```"), ("keep", "```{note} Hint\n42\n```")),
    (cell("markdown", "```{note} XSolution\n42\n```"), ("keep", "```{note} XSolution\n42\n```")),
    (cell("markdown", "<details><summary>Reveal the answer</summary>42</details>"), ("remove", "")),
    (cell("markdown", 'A <span class="teacher-note">42</span>'), ("remove", "")),
    (cell("markdown", "---\n\n**Solution**\n42"), ("remove", "")),
    (cell("markdown", "Hello\n**Solution**"), ("keep", "Hello\n**Solution**")),
    (cell("markdown", "Solution is yours"), ("keep", "Solution is yours")),
    (cell("markdown", "Solution: 42"), ("remove", "")),
    (cell("markdown", "## Model solution"), ("remove", "")),
    (cell("raw", "x = 1  # SOLUTION"), ("keep", "x = 1  # SOLUTION")),
    (cell("markdown", "Q", solution2="hidden", solution2_first="true"), ("keep", "Q")),
    (cell("code", "x = 1", nbgrader={"solution": "true"}), ("change", CODE_STUB)),
    (cell("markdown", "Because.", nbgrader={"solution": 1}), ("change", TEXT_STUB)),
    (cell("code", CODE_STUB, nbgrader={"solution": True}), ("keep", CODE_STUB)),
    (cell("markdown", " ", nbgrader={"solution": True}), ("keep", " ")),
    (
        cell("code", "a = 1\n### BEGIN SOLUTION\nb = 2\n### END SOLUTION", nbgrader={"solution": True}),
        ("change", "a = 1\n" + CODE_STUB),
    ),
    (
        cell("code", "\u200ba = 1\n### BEGIN SOLUTION\nb\n### END SOLUTION\ny = 2  # SOLUTION"),
        ("change", "\u200ba = 1\n" + CODE_STUB + "\ny = ..."),
    ),
    (cell("code", "y = 2  # SOLUTION", nbgrader={"solution": True}), ("change", CODE_STUB)),
    (cell("code", "y = 2  # SOLUTION\nz = 3"), ("change", "y = ...\nz = 3")),
]


def test_cell_plans() -> None:
    for marked, expected in PLANS:
        assert cell_plan(marked) == expected, marked
        assert is_removed(marked) is (expected[0] != "keep"), marked


def test_a_near_miss_is_refused_and_kept_from_is_removed() -> None:
    marked = cell("code", "# SOLUTON\nx = 1")
    with pytest.raises(MarkerError, match=r'^line 1 starts "# SOLUTON", which nearly spells a marker \(solution\)$'):
        cell_plan(marked)
    assert is_removed(marked) is False
    with pytest.raises(MarkerError, match=r'^line 2 starts "# Soluton", which nearly spells a marker \(solution\)$'):
        cell_plan(cell("code", "x = 1\n# Soluton here"))  # a short comment after code: a code cell's rule
    with pytest.raises(MarkerError, match=r'^its tag "techer" nearly spells'):
        cell_plan(cell("markdown", "x", tags=["Techer"]))
    with pytest.raises(MarkerError, match=r'^line 2 says "END SOLUTION" but no "BEGIN SOLUTION" is open$'):
        cell_plan(cell("code", "x = 1\n### END SOLUTION"))
