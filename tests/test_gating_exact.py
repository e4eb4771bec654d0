"""Gated text (``after:GUESS`` cells) and the tool lock, with exact values worked out by hand.

Fast and pure (no notebook is run): the mutation area ``copies`` runs these first, since mutmut cannot
run ``gating.py``'s own doctests.  ``test_student_copies.py`` and ``test_tool_lock.py`` check the same
functions through the student copy and a real board.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from duel_lessons.teaching.gating import _source, _tags, gate_of, gated_cell, gated_texts, tool_lock


def md(source: Any, tags: Any = None, **more: Any) -> dict[str, Any]:
    """A markdown cell; ``tags`` None leaves the metadata without a ``tags`` key."""
    metadata = {} if tags is None else {"tags": tags}
    return {"cell_type": "markdown", "metadata": metadata, "source": source, **more}


# _tags: what a cell's tags are, whatever shape the metadata has


def test_tags_are_stripped_words_of_a_list() -> None:
    assert _tags(md("", [" after:big ", "gated\n", 7])) == {"after:big", "gated", "7"}


def test_a_single_tag_written_as_a_string_is_one_tag() -> None:
    assert _tags(md("", "  after:big ")) == {"after:big"}
    assert gate_of(md("Odd numbers lose.", "after:big")) == "big"


def test_no_tags_key_no_metadata_or_odd_metadata_give_no_tags() -> None:
    assert _tags(md("", None)) == set()
    assert _tags({"cell_type": "markdown", "source": ""}) == set()
    assert _tags({"cell_type": "markdown", "metadata": ["tags", "after:big"], "source": ""}) == set()
    assert _tags({"cell_type": "markdown", "metadata": None, "source": ""}) == set()


def test_tags_are_read_from_the_metadata_key_only() -> None:
    assert _tags({"cell_type": "markdown", "metadata": {"TAGS": ["after:big"]}, "tags": ["after:x"]}) == set()
    assert _tags({"cell_type": "markdown", "METADATA": {"tags": ["after:big"]}}) == set()


# _source: a cell's text, as a list of lines or one string


def test_source_joins_a_list_of_lines_with_nothing_between() -> None:
    assert _source(md(["Odd numbers\n", "lose", "."])) == "Odd numbers\nlose."


def test_source_as_a_string_is_itself_and_missing_is_empty() -> None:
    assert _source(md("Odd.")) == "Odd."
    assert _source({"cell_type": "markdown", "metadata": {}}) == ""
    assert _source({"cell_type": "markdown", "SOURCE": "x"}) == ""
    assert _source(md([])) == ""


def test_source_of_another_type_is_its_text() -> None:
    assert _source(md(12)) == "12"
    assert _source(md(("a", "b"))) == "('a', 'b')"  # not a list: not joined


# gate_of: the guess a markdown cell waits for


@pytest.mark.parametrize(
    ("tags", "gate"),
    [
        (["after:big"], "big"),
        (["gated", "after:Big_9-x"], "Big_9-x"),
        (["after:"], None),  # no guess named
        (["after:big one"], None),  # a space: not a name
        (["after:big!"], None),
        (["xafter:big"], None),
        (["After:big"], None),
        (["after big"], None),
        (["before:big"], None),
        ([], None),
    ],
    ids=["plain", "with-another-tag", "empty", "space", "sign", "prefix", "capital", "no-colon", "before", "none"],
)
def test_the_gate_is_the_name_after_after_colon(tags: list[str], gate: str | None) -> None:
    assert gate_of(md("Odd numbers lose.", tags)) == gate


def test_only_a_markdown_cell_is_gated() -> None:
    assert gate_of({"cell_type": "code", "metadata": {"tags": ["after:big"]}, "source": ""}) is None
    assert gate_of({"cell_type": "raw", "metadata": {"tags": ["after:big"]}, "source": ""}) is None
    assert gate_of({"metadata": {"tags": ["after:big"]}, "source": ""}) is None


# gated_texts: the gated cells' texts, named part-1, part-2, ... in order


def test_gated_texts_are_numbered_from_one_in_order_skipping_other_cells() -> None:
    notebook = {
        "cells": [
            md("# Title"),
            md(["Odd ", "numbers lose."], ["after:big"]),
            {"cell_type": "code", "metadata": {"tags": ["after:x"]}, "source": "x = 1"},
            md("Powers of two.", " after:loses "),
            md("Plain text.", ["gated"]),
        ]
    }
    assert gated_texts(notebook) == {"part-1": ("big", "Odd numbers lose."), "part-2": ("loses", "Powers of two.")}


def test_a_removed_cell_is_not_a_gated_text() -> None:
    """A teacher's note tagged after:GUESS too is left out of the student copy, so it is not a part."""
    notebook = {
        "cells": [
            md("Teacher's words.", ["solution", "after:big"]),
            md("> **Teacher note:** odd numbers lose", ["after:big"]),
            md("The students' words.", ["after:big"]),
        ]
    }
    assert gated_texts(notebook) == {"part-1": ("big", "The students' words.")}


def test_a_notebook_without_gated_cells_or_cells_has_no_texts() -> None:
    assert gated_texts({"cells": [md("Plain.")]}) == {}
    assert gated_texts({}) == {}
    assert gated_texts({"CELLS": [md("Odd.", ["after:big"])]}) == {}


def test_a_gated_cell_without_source_has_empty_text() -> None:
    assert gated_texts({"cells": [{"cell_type": "markdown", "metadata": {"tags": ["after:big"]}}]}) == {
        "part-1": ("big", "")
    }


# gated_cell: the code cell the student copy puts in a gated text's place


def test_the_gated_cell_opens_the_named_part_once_answered() -> None:
    assert gated_cell("part-2") == {
        "cell_type": "code",
        "id": "gated-part-2",
        "metadata": {"tags": ["gated"]},
        "source": 'lesson.text("part-2")   # this part opens once you have answered above',
        "outputs": [],
        "execution_count": None,
    }


# tool_lock: Show P/N, Explain and the last hint wait for every guess that states a discovery


def lock_for(spoilers: list[str], truths: list[str], guesses: list[str], tested: list[str]) -> Any:
    lesson = SimpleNamespace(spoilers={g: () for g in spoilers}, truths={t: None for t in truths})
    attempts = SimpleNamespace(guesses={g: [1] for g in guesses}, tested={t: True for t in tested})
    return tool_lock(lesson, attempts)


def test_the_lock_names_the_first_guess_still_to_make() -> None:
    lock = lock_for(["big", "loses"], ["loses"], [], [])
    expected = 'it opens once you have made your guess: lesson.guess("big", ...) in this lesson.'
    assert lock("show_pn") == expected
    assert lock("explain") == expected  # every tool waits for the same guesses


def test_a_truth_still_to_test_is_named_as_a_test() -> None:
    lock = lock_for(["big", "loses"], ["loses"], ["big"], [])
    assert lock("show_pn") == "it opens once you have made your guess: lesson.test(...) in this lesson."


def test_a_guess_counts_once_guessed_or_tested() -> None:
    assert lock_for(["big", "loses"], ["loses"], ["big"], ["loses"])("show_pn") is None
    assert lock_for(["big"], [], [], ["big"])("show_pn") is None  # tested without a guess: made all the same
    assert lock_for(["big"], [], ["big"], [])("hint") is None


def test_a_lesson_without_discoveries_locks_nothing() -> None:
    assert lock_for([], ["loses"], [], [])("show_pn") is None


def test_guesses_not_spoilers_open_nothing() -> None:
    lock = lock_for(["loses"], ["loses"], ["big"], ["other"])
    assert lock("show_pn") == "it opens once you have made your guess: lesson.test(...) in this lesson."
