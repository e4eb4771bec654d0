"""teaching.plain, value by value: which values a check reads, and the words feedback shows for them.

Every expected text is written out by hand (issue 30: the `plain` area's survivors).
"""

from __future__ import annotations

import itertools
import types
from collections.abc import Iterator
from fractions import Fraction

import pytest

import duel_lessons
from duel_lessons.teaching import plain as plain_module
from duel_lessons.teaching.plain import LargeNumber, Unreadable, plain, show


def test_a_number_of_exactly_1000_digits_keeps_its_value_and_one_more_digit_does_not() -> None:
    # 10**999 has 1000 digits (a 1 and 999 zeros); 10**1000 has 1001.
    big = plain(10**999)
    assert isinstance(big, LargeNumber) and big.value == 10**999
    assert repr(big) == "a number with about 1,000 digits"
    bigger = plain(-(10**1000))
    assert isinstance(bigger, Unreadable) and not isinstance(bigger, LargeNumber)
    assert repr(bigger) == "a number with about 1,001 digits"
    assert plain(10**18) == 10**18 and plain(-(10**18)) == -(10**18)
    assert repr(plain(10**18 + 1)) == "a number with about 19 digits"


def test_a_class_of_the_package_itself_is_read_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    # A class whose home is the top package `duel_lessons` (not a submodule) counts as the package's own.
    class Token:
        def __call__(self) -> None: ...

        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = object.__hash__

    Token.__module__ = "duel_lessons"
    Token.__qualname__ = Token.__name__ = "Token"
    monkeypatch.setattr(duel_lessons, "Token", Token, raising=False)
    token = Token()
    assert plain(token) is token
    # The same class under another name in its module is not found there: unreadable.
    monkeypatch.delattr(duel_lessons, "Token")
    monkeypatch.setattr(duel_lessons, "Other", Token, raising=False)
    assert isinstance(plain(token), Unreadable)


# show(): the words, exactly.
@pytest.mark.parametrize(
    ("value", "words"),
    [
        ([3, 1], "[3, 1]"),
        ([], "[]"),
        ((), "()"),
        ((5,), "(5,)"),
        ((5, 6), "(5, 6)"),
        ([[1]], "[[1]]"),
        ([[[1]]], "[[[1]]]"),
        ([[[[1]]]], "[[[[...]]]]"),
        (((((1,),),),), "((((...,),),),)"),  # a one-item tuple keeps its comma, even cut
        ({3, 1, 2}, "[1, 2, 3]"),
        (frozenset({"b", "a"}), "['a', 'b']"),
        ({"a": [1, 2], "b": "P"}, "{'a': [1, 2], 'b': 'P'}"),
        ({"a": [[[1]]]}, "{'a': [[[...]]]}"),
        ({1: 2}, "{1: 2}"),
        ({}, "{}"),
        ("P", "'P'"),
        (Fraction(3, 4), "3/4"),
        (True, "True"),
        (2.5, "2.5"),
        (None, "None"),
        (..., "Ellipsis"),
        (10**30, "a number with about 31 digits"),
        (object(), "a object object"),  # an Unreadable: its own words
    ],
)
def test_show_writes_a_value_as_typed(value: object, words: str) -> None:
    assert show(value) == words


def test_show_sorts_a_set_of_words_whatever_its_hash_order() -> None:
    letters = "qwertyuiopasdfgh"
    assert show(set(letters)) == "[" + ", ".join(repr(c) for c in sorted(letters)) + "]"


def test_a_set_that_cannot_be_sorted_is_shown_in_its_own_order() -> None:
    words = show({1, "a"})
    assert words in ("[1, 'a']", "['a', 1]")


def test_show_stops_at_200_characters() -> None:
    assert show("a" * 198) == "'" + "a" * 198 + "'"  # 200 characters: whole
    assert show("a" * 199) == "'" + "a" * 198 + "…"  # 201: cut to 199 and an ellipsis
    assert len(show(list(range(1000)))) == 200
    written = "[" + ", ".join(str(i) for i in range(1000)) + "]"
    assert show(list(range(1000))) == written[:199] + "…"


def test_show_cuts_long_words_and_long_lists_before_writing_them() -> None:
    # The text of a string is cut at 201 characters before repr (so the quotes close a shorter one).
    assert plain_module._show("x" * 500, 3) == "'" + "x" * 201 + "'"
    # A list shows its first 200 items, a dict its first 200 entries.
    assert plain_module._show(list(range(300)), 3) == "[" + ", ".join(str(i) for i in range(200)) + "]"
    shown = plain_module._show({i: i for i in range(300)}, 3)
    assert shown == "{" + ", ".join(f"{i}: {i}" for i in range(200)) + "}"
    # A dict's keys are shown at depth 0: a tuple key becomes (...).
    assert plain_module._show({(1, 2): 3}, 3) == "{(...): 3}"


def student_rule(n: int) -> bool:
    return n > 1


def test_show_names_functions_and_where_they_are() -> None:
    line = student_rule.__code__.co_firstlineno
    assert show(student_rule) == f"student_rule (a function, line {line} of its cell or file)"
    assert show(plain_module.show) == "show (the function in duel_lessons.teaching.plain)"
    assert show(len) == "len"  # a builtin has no code object: its name only
    nameless = types.SimpleNamespace(__call__=None)
    assert plain_module._show(nameless, 3) == "a SimpleNamespace"


def test_a_named_thing_with_a_non_text_module_is_named_only() -> None:
    thing = types.SimpleNamespace(__name__="rule", __module__=7, __code__=types.SimpleNamespace(co_firstlineno="1"))
    assert plain_module._show(thing, 3) == "rule"
    thing = types.SimpleNamespace(__name__="rule", __module__="duel_lessons_fork.x")
    assert plain_module._show(thing, 3) == "rule"


def test_a_method_of_a_builtin_type_is_named_by_its_name() -> None:
    # str.upper has a name but no __module__ (and no code): its name alone.
    assert show(str.upper) == "upper" and show(list.append) == "append"


def test_plain_reads_four_levels_of_containers_and_no_more() -> None:
    assert plain([[[[1]]]]) == [[[[1]]]]
    deep = plain([[[[[1]]]]])
    assert isinstance(deep[0][0][0][0], Unreadable)
    assert repr(deep[0][0][0][0]) == "a value nested too deep"
    assert isinstance(plain({"a": {"b": {"c": {"d": {"e": 1}}}}})["a"]["b"]["c"]["d"], Unreadable)


def test_numpy_values_become_python_ones() -> None:
    np = pytest.importorskip("numpy")
    for value, expected in [(np.int64(5), 5), (np.bool_(True), True), (np.float64(0.5), 0.5), (np.int8(-3), -3)]:
        got = plain(value)
        assert got == expected and type(got) is type(expected)
    assert repr(plain(np.uint64(2**64 - 1))) == "a number with about 20 digits"
    assert plain(np.array([3, 1, 2])) == [3, 1, 2]
    assert plain(np.array([[1, 2], [3, 4]])) == [1, 2, 3, 4]  # read flat, row by row
    assert plain(np.array(7)) == [7]
    assert [type(x) for x in plain(np.array([1, 2]))] == [int, int]


def test_numpy_arrays_are_read_up_to_10001_items() -> None:
    np = pytest.importorskip("numpy")
    assert len(plain(np.arange(20_000))) == 10_001
    flat = plain(np.arange(12_000).reshape(2, 6_000))
    assert len(flat) == 10_001 and flat[:3] == [0, 1, 2] and flat[-1] == 10_000


def test_a_numpy_array_counts_as_a_level_of_nesting() -> None:
    np = pytest.importorskip("numpy")
    assert plain([[[np.array([1, 2])]]]) == [[[[1, 2]]]]
    assert isinstance(plain([[[[np.array([1, 2])]]]])[0][0][0][0], Unreadable)


def test_other_numpy_objects_are_unreadable_and_named() -> None:
    np = pytest.importorskip("numpy")
    generator = np.random.default_rng(1)  # its class lives in numpy.random._generator
    assert repr(plain(generator)) == "a numpy Generator"
    assert repr(plain(np.dtype("int64"))).startswith("a numpy ")


def test_every_kind_of_collection_is_read_up_to_10001_items() -> None:
    assert plain(list(range(20_000))) == list(range(10_001))
    assert plain(tuple(range(20_000))) == tuple(range(10_001))
    assert len(plain(set(range(20_000)))) == 10_001 and type(plain(set(range(3)))) is set
    assert len(plain(frozenset(range(20_000)))) == 10_001 and type(plain(frozenset(range(3)))) is frozenset
    assert plain({i: -i for i in range(20_000)}) == {i: -i for i in range(10_001)}
    assert plain(range(20_000)) == list(range(10_001))
    assert plain(range(10_000)) == list(range(10_000)) and plain(range(2, 9, 3)) == [2, 5, 8]
    assert plain(x * 2 for x in itertools.count()) == [2 * i for i in range(10_001)]
    assert plain(itertools.count(5)) == list(range(5, 10_006))
    assert plain(map(abs, [-1, -2])) == [1, 2] and plain(filter(None, [0, 3])) == [3]
    assert plain(zip("ab", [1, 2], strict=True)) == [("a", 1), ("b", 2)]
    assert plain(enumerate("ab")) == [(0, "a"), (1, "b")] and plain(reversed("ab")) == ["b", "a"]
    assert plain(types.MappingProxyType({"a": [1]})) == {"a": [1]}


def test_each_collection_is_one_level_of_nesting() -> None:
    deep = plain((((((1,),),),),))
    assert isinstance(deep[0][0][0][0], Unreadable) and plain(((((1,),),),)) == ((((1,),),),)
    assert isinstance(next(iter(plain([[[{frozenset({1})}]]])[0][0][0])), Unreadable)
    assert plain([[[{frozenset({1})}]]]) != [[[{frozenset({1})}]]]
    assert plain([[{frozenset({1})}]]) == [[{frozenset({1})}]]
    assert plain([[[(x for x in [1])]]]) == [[[[1]]]]
    assert isinstance(plain([[[[(x for x in [1])]]]])[0][0][0][0], Unreadable)
    assert plain([[(x for x in [[1]])]]) == [[[[1]]]]  # what a generator yields is one level deeper
    assert isinstance(plain([[[(x for x in [[1]])]]])[0][0][0][0], Unreadable)
    # A range and a mapping proxy are read as the list or dict they hold, at their own level.
    assert plain([[[range(2)]]]) == [[[[0, 1]]]]
    assert plain([[[types.MappingProxyType({"a": 1})]]]) == [[[{"a": 1}]]]
    assert isinstance(plain([[[[range(2)]]]])[0][0][0][0], Unreadable)
    assert isinstance(plain([[[{"k": [1]}]]])[0][0][0]["k"], Unreadable)


def _broken(error: Exception) -> Iterator[int]:  # a generator that stops with error
    yield 1
    raise error


def test_a_collection_that_breaks_while_read_is_unreadable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(plain_module.STRICT, "0")
    assert repr(plain(_broken(RuntimeError("x")))) == "a value that could not be read (RuntimeError)"

    class HashableList(list):  # type: ignore[type-arg]
        __hash__ = object.__hash__  # type: ignore[assignment]

    assert repr(plain({HashableList([1]): 2})) == "a value that could not be read (TypeError)"
    monkeypatch.setenv(plain_module.STRICT, "1")  # the test suite: a check's own errors are raised ...
    with pytest.raises(RuntimeError):
        plain(_broken(RuntimeError("x")))
    for error in (ValueError("v"), TypeError("t"), ZeroDivisionError("z")):  # ... but not a student's value's
        assert repr(plain(_broken(error))) == f"a value that could not be read ({type(error).__name__})"


def test_strict_only_when_the_variable_is_1(monkeypatch: pytest.MonkeyPatch) -> None:
    assert plain_module.STRICT == "DUEL_LESSONS_STRICT_SOLUTIONS"
    monkeypatch.setenv(plain_module.STRICT, "1")
    assert plain_module.strict() is True
    monkeypatch.setenv(plain_module.STRICT, "true")
    assert plain_module.strict() is False
    monkeypatch.delenv(plain_module.STRICT)
    assert plain_module.strict() is False


def test_functions_pass_and_objects_that_compare_do_not() -> None:
    assert plain(len) is len and plain(student_rule) is student_rule

    class Comparing:
        def __call__(self) -> None: ...

        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = object.__hash__

    class Calling:
        def __call__(self) -> None: ...

    assert repr(plain(Comparing())) == "a Comparing object"
    calling = Calling()
    assert plain(calling) is calling


def test_what_a_set_or_a_dict_key_holds_is_one_level_deeper() -> None:
    inside = plain([[[frozenset({(1,)})]]])[0][0][0]  # the frozenset at level 3: its tuple at level 4
    assert type(inside) is frozenset and [repr(x) for x in inside] == ["a value nested too deep"]
    inside = plain([[[{(1,)}]]])[0][0][0]
    assert type(inside) is set and [repr(x) for x in inside] == ["a value nested too deep"]
    keys = list(plain([[[{(1,): 2}]]])[0][0][0])
    assert [repr(k) for k in keys] == ["a value nested too deep"]
    assert plain([[{(1,): 2}]]) == [[{(1,): 2}]] and plain([[frozenset({(1,)})]]) == [[frozenset({(1,)})]]


def test_a_mapping_proxy_is_read_at_its_own_level() -> None:
    assert plain([[types.MappingProxyType({"a": [1]})]]) == [[{"a": [1]}]]
    assert isinstance(plain([[[types.MappingProxyType({"a": [1]})]]])[0][0][0]["a"], Unreadable)


def test_a_huge_range_is_read_only_as_far_as_10001_items() -> None:
    assert plain(range(10**12)) == list(range(10_001))
