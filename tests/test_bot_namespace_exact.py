"""The restricted namespace of bot files, judged in this process: every rule with its exact message (issue 30).

tests/test_bot_namespace.py tries each route as an attacker would, in a real worker; these tests call
:mod:`duel_lessons.play.bot_namespace` directly (milliseconds each), so that a mutant of any rule is
caught.  The messages are what a bot's author reads in a forfeit, so they are checked word for word.
Expected values are worked out by hand.
"""

from __future__ import annotations

import ast
import itertools
import math
import operator
import types

import pytest

import duel_lessons.play.bot_namespace as ns
from duel_lessons.play.bot_namespace import (
    BotModule,
    RestrictedError,
    allowed_summary,
    attribute_refusal,
    bot_module,
    checked_attribute,
    exact_name,
    imports_of,
    restricted_builtins,
    restricted_code,
)
from duel_lessons.play.bot_worker import load_bot

ONLY = "a bot may import only " + ", ".join(ns.ALLOWED_MODULES)
CLASS = "a bot may not use the attribute __class__ (a name that starts with _)"
FRAMES = "(frames, tracebacks, code, generators)"
HEAPQ = "from heapq a bot may use only heappush, heappop, heapify, heappushpop, heapreplace, nlargest, nsmallest, merge"
MATH = "from math a bot may use its functions and numbers"


class Sly(str):
    """A str that lies to every check a subclass can answer."""

    def startswith(self, *args: object) -> bool:  # type: ignore[override]
        return False

    def __eq__(self, other: object) -> bool:
        return False

    def __hash__(self) -> int:
        return 0

    def split(self, *args: object) -> list[str]:  # type: ignore[override]
        return ["real"]

    def __str__(self) -> str:
        return "real"


class Liar(str):
    """A str equal to every other, with the hash of "math": found in any table holding "math"."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return hash("math")


@pytest.fixture(autouse=True)
def no_module_made_yet(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test builds the modules a bot sees afresh (bot_module keeps them, once made, for the process)."""
    monkeypatch.setattr(ns, "_bot_modules", {})


def refusal(source: str, path: str = "/some/folder/bot.py") -> str:
    """The message restricted_code refuses ``source`` with."""
    with pytest.raises(RestrictedError) as caught:
        restricted_code(source, path)
    return str(caught.value)


def run_bot(source: str) -> types.ModuleType:
    """The bot file's module after it ran in the restricted namespace (as the worker runs it)."""
    load_bot(("/bots/exact.py", source + "\ndef move(state):\n    return 2\n"))
    import sys

    return sys.modules["duel_bot_exact"]


# -- names as exact str ------------------------------------------------------------------------


def test_exact_name_gives_a_plain_str_and_refuses_anything_else_naming_its_type() -> None:
    sly = Sly("__globals__")
    plain = exact_name(sly)
    assert type(plain) is str and plain == "__globals__"
    assert type(exact_name("x")) is str and exact_name("x") == "x"
    with pytest.raises(RestrictedError) as caught:
        exact_name(3)
    assert str(caught.value) == "a bot must give an attribute name as a str, not int"
    with pytest.raises(RestrictedError) as caught:
        exact_name(b"os", "a module name")
    assert str(caught.value) == "a bot must give a module name as a str, not bytes"


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("_x", "a bot may not use the attribute _x (a name that starts with _)"),
        ("__globals__", "a bot may not use the attribute __globals__ (a name that starts with _)"),
        ("f_globals", "a bot may not use the attribute f_globals " + FRAMES),
        ("tb_frame", "a bot may not use the attribute tb_frame " + FRAMES),
        ("co_code", "a bot may not use the attribute co_code " + FRAMES),
        ("gi_frame", "a bot may not use the attribute gi_frame " + FRAMES),
        ("cr_frame", "a bot may not use the attribute cr_frame " + FRAMES),
        ("ag_frame", "a bot may not use the attribute ag_frame " + FRAMES),
        ("format", "a bot may not use the attribute format"),
        ("format_map", "a bot may not use the attribute format_map"),
        ("ctypes", "a bot may not use the attribute ctypes"),
        ("tofile", "a bot may not use the attribute tofile"),
    ],
)
def test_attribute_refusal_says_why(name: str, why: str) -> None:
    assert attribute_refusal(name) == why
    with pytest.raises(RestrictedError) as caught:
        checked_attribute(name)
    assert str(caught.value) == why


@pytest.mark.parametrize("name", ["legal_moves", "real", "f", "tb", "co", "formatted", "x_", "fo_rmat", "count"])
def test_ordinary_attributes_are_allowed(name: str) -> None:
    assert attribute_refusal(name) is None
    checked = checked_attribute(name)
    assert type(checked) is str and checked == name


def test_checked_attribute_judges_a_str_subclass_by_its_plain_text() -> None:
    with pytest.raises(RestrictedError, match=r"^a bot may not use the attribute __globals__ \(a name"):
        checked_attribute(Sly("__globals__"))
    assert type(checked_attribute(Sly("real"))) is str
    with pytest.raises(RestrictedError, match=r"^a bot must give an attribute name as a str, not float$"):
        checked_attribute(1.5)


# -- modules as a bot sees them ----------------------------------------------------------------


def test_a_bot_module_holds_its_values_and_refuses_any_other_name_by_name() -> None:
    module = BotModule("heapq", {"heappush": 1})
    assert module.heappush == 1
    assert repr(module) == "<module heapq as a bot sees it>"
    with pytest.raises(RestrictedError) as caught:
        module.nothing  # noqa: B018
    assert str(caught.value) == "a bot may not use heapq.nothing: " + HEAPQ
    with pytest.raises(RestrictedError, match=r"^a bot may not use math\.f: from math a bot may use its functions"):
        BotModule("math", {}).f  # noqa: B018


def test_allowed_summary_in_words() -> None:
    assert allowed_summary("cmath") == "from cmath a bot may use its functions and numbers"
    assert allowed_summary("fractions") == "from fractions a bot may use only Fraction"
    assert (
        allowed_summary("functools")
        == "from functools a bot may use only reduce, partial, lru_cache, cache, cmp_to_key"
    )


def test_a_c_module_of_numbers_gives_its_public_functions_types_and_numbers_only() -> None:
    names = set(vars(bot_module("itertools"))) - {"_module_name"}  # the module's own name, a str
    assert names == {n for n in dir(itertools) if not n.startswith("_")}  # every public name is a type or function
    assert "_tee" not in names and "_grouper" not in names and "__loader__" not in names
    assert bot_module("itertools").count is itertools.count and bot_module("itertools").tee is itertools.tee
    maths = bot_module("math")
    assert maths.pi == math.pi and maths.inf == math.inf and maths.isqrt(17) == 4
    assert "__name__" not in vars(maths) and "__doc__" not in vars(maths)
    assert bot_module("cmath").infj == complex(0, math.inf)
    assert bot_module("math") is maths  # made once


def test_an_allowlisted_module_gives_exactly_its_names() -> None:
    heapq = bot_module("heapq")
    assert sorted(vars(heapq)) == sorted([*(ns.BOT_MODULES["heapq"] or ()), "_module_name"])
    import heapq as real

    assert heapq.heappush is real.heappush
    with pytest.raises(RestrictedError, match=r"^a bot may not use heapq\._heapify_max: from heapq a bot may use only"):
        heapq._heapify_max  # noqa: B018


def test_operators_attrgetter_and_methodcaller_are_the_checking_ones() -> None:
    bot_operator = bot_module("operator")
    assert bot_operator.attrgetter is ns._attrgetter and bot_operator.methodcaller is ns._methodcaller
    assert bot_operator.add is operator.add
    assert bot_module("functools").reduce(operator.add, [1, 2, 3]) == 6


def test_attrgetter_checks_every_part_of_every_name_and_still_works() -> None:
    point = types.SimpleNamespace(x=3, inner=types.SimpleNamespace(y=4))
    assert ns._attrgetter("x")(point) == 3
    assert ns._attrgetter("x", "inner.y")(point) == (3, 4)
    assert ns._attrgetter(Sly("inner.y"))(point) == 4  # split as a plain str, not by the subclass
    for names, bad in (
        (("x", "__class__"), "__class__"),
        (("inner.__class__",), "__class__"),
        (("inner.f_back", "x"), "f_back"),
        ((Sly("__globals__"),), "__globals__"),
    ):
        with pytest.raises(RestrictedError, match=f"^a bot may not use the attribute {bad} "):
            ns._attrgetter(*names)
    with pytest.raises(RestrictedError, match=r"^a bot must give an attribute name as a str, not int$"):
        ns._attrgetter("x", 5)


def test_methodcaller_checks_its_name_and_passes_the_arguments_on() -> None:
    assert ns._methodcaller("replace", "a", "o")("banana") == "bonono"
    assert ns._methodcaller("split", sep="n", maxsplit=1)("banana") == ["ba", "ana"]
    assert ns._methodcaller("count", 1)([1, 2, 1]) == 2
    with pytest.raises(RestrictedError, match=r"^a bot may not use the attribute __getattribute__ \(a name"):
        ns._methodcaller("__getattribute__", "__globals__")
    with pytest.raises(RestrictedError, match=r"^a bot may not use the attribute format_map$"):
        ns._methodcaller(Sly("format_map"), {})


# -- sympy, curated --------------------------------------------------------------------------------


def test_whole_takes_whole_numbers_only() -> None:
    assert ns._whole(12) == 12 and type(ns._whole(True)) is int and ns._whole(True) == 1
    import numpy

    assert type(ns._whole(numpy.int64(7))) is int and ns._whole(numpy.int64(7)) == 7
    with pytest.raises(RestrictedError) as caught:
        ns._whole("12")
    assert str(caught.value) == "sympy's functions take whole numbers from a bot, not text"
    with pytest.raises(TypeError):
        ns._whole(1.5)


def test_plain_gives_plain_python_whole_numbers() -> None:
    import sympy

    for value, expected in (
        (True, True),
        (sympy.true, True),
        (sympy.false, False),
        (sympy.Integer(6), 6),
        ({sympy.Integer(2): sympy.Integer(3)}, {2: 3}),
        ((sympy.Integer(1), 2), (1, 2)),
        ([sympy.Integer(5)], [5]),
        (None, None),
    ):
        got = ns._plain(value)
        assert got == expected and type(got) is type(expected)
    assert type(ns._plain(True)) is bool and type(ns._plain(sympy.Integer(1))) is int
    assert [type(k) for k in ns._plain({sympy.Integer(2): 1})] == [int]  # type: ignore[union-attr]
    assert [type(v) for v in ns._plain({2: sympy.Integer(1)}).values()] == [int]  # type: ignore[union-attr]
    assert [type(v) for v in ns._plain((sympy.Integer(1),))] == [int]  # type: ignore[union-attr]
    assert [type(v) for v in ns._plain([sympy.true])] == [bool]  # type: ignore[union-attr]
    assert ns._plain(x * x for x in (1, 2, 3)) == [1, 4, 9]
    with pytest.raises(RestrictedError) as caught:
        ns._plain(sympy.Rational(1, 2))
    assert str(caught.value) == "sympy gave a Half, not whole numbers, so a bot may not have it"
    with pytest.raises(RestrictedError, match=r"^sympy gave a str, not whole numbers"):
        ns._plain(["x"])


def test_sympy_functions_are_wrapped_for_whole_numbers() -> None:
    divisors = ns._wrap_sympy("divisors")
    assert divisors(12) == [1, 2, 3, 4, 6, 12]
    assert divisors.__name__ == "divisors" and divisors.__qualname__ == "divisors"
    assert divisors.__doc__ == "sympy.divisors, for whole numbers only (keyword arguments are not taken)."
    assert ns._wrap_sympy("igcd")(12, 18) == 6  # every argument is passed on
    assert ns._wrap_sympy("factorint")(240) == {2: 4, 3: 1, 5: 1}
    with pytest.raises(RestrictedError, match="not text"):
        ns._wrap_sympy("igcd")(12, "18")
    bot_sympy = bot_module("sympy")
    assert sorted(vars(bot_sympy)) == sorted([*(ns.BOT_MODULES["sympy"] or ()), "_module_name"])
    assert bot_sympy.isprime(97) is True and bot_sympy.totient(12) == 4
    assert type(bot_sympy.totient(12)) is int  # the wrapped function: sympy's own gives a sympy Integer
    with pytest.raises(RestrictedError, match="not text"):  # sympy's own would sympify the text
        bot_sympy.isprime("97")


# -- the checker of the source -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("import os", "line 1: " + ONLY + ", not os"),
        ("x = 1\nimport math, os.path", "line 2: " + ONLY + ", not os.path"),
        ("import math as __m", "line 1: a bot may not use the name __m"),
        ("from os import path", "line 1: " + ONLY + ", not os"),
        ("from . import helper", "line 1: a bot may not import from its folder"),
        ("from .math import sqrt", "line 1: a bot may not import from its folder"),
        ("from math import __loader__", "line 1: a bot may not import __loader__ from math: " + MATH),
        (
            "from fractions import gcd",
            "line 1: a bot may not import gcd from fractions: from fractions a bot may use only Fraction",
        ),
        ("from math import sqrt as __s", "line 1: a bot may not use the name __s"),
        ("x = (1).__class__", "line 1: " + CLASS),
        ("x = (1).__class__.real", "line 1: " + CLASS),
        ("x = __builtins__", "line 1: a bot may not use the name __builtins__"),
        ("x = [y.f_back for y in z]", "line 1: a bot may not use the attribute f_back " + FRAMES),
        ("match x:\n    case int(real=__y):\n        pass", "line 2: a bot may not use the name __y"),
        (
            "class C:\n    match f:\n        case __del__:\n            pass",
            "line 3: a bot may not use the name __del__",
        ),
        ("match x:\n    case [1, *__rest]:\n        pass", "line 2: a bot may not use the name __rest"),
        ("match x:\n    case {1: y, **__rest}:\n        pass", "line 2: a bot may not use the name __rest"),
        ("match x:\n    case [1, (2 | 3) as __z]:\n        pass", "line 2: a bot may not use the name __z"),
        ("match x:\n    case {1: [y.__class__()]}:\n        pass", "line 2: " + CLASS),
        ("match x:\n    case (y.__class__() | 3) as z:\n        pass", "line 2: " + CLASS),
        ("match x:\n    case int(__class__=y):\n        pass", "line 2: " + CLASS),
        ("match x:\n    case y.__class__():\n        pass", "line 2: " + CLASS),
        ("def f(__a):\n    pass", "line 1: a bot may not use the name __a"),
        ("def f(a: b.__class__):\n    pass", "line 1: " + CLASS),
        ("try:\n    pass\nexcept Exception as __e:\n    pass", "line 3: a bot may not use the name __e"),
        (
            "try:\n    pass\nexcept Exception as e:\n    e.__traceback__",
            "line 4: a bot may not use the attribute __traceback__ (a name that starts with _)",
        ),
        ("def f():\n    global __g", "line 2: a bot may not use the name __g"),
        ("def f():\n    x = 1\n    def g():\n        nonlocal __n", "line 4: a bot may not use the name __n"),
        ("class C:\n    def __init__(self):\n        pass", "line 2: a bot may not define __init__"),
        ("async def __aiter__():\n    pass", "line 1: a bot may not define __aiter__"),
        ("def f():\n    return __import__('os')", "line 2: a bot may not use the name __import__"),
        ("async def f():\n    return g.gi_frame", "line 2: a bot may not use the attribute gi_frame " + FRAMES),
        ("class __C:\n    pass", "line 1: a bot may not use the name __C"),
        ("class C:\n    x = y.co_code", "line 2: a bot may not use the attribute co_code " + FRAMES),
        ("x = '{}'.format(1)", "line 1: a bot may not use the attribute format"),
    ],
)
def test_the_source_is_refused_naming_the_file_the_line_and_the_rule(source: str, message: str) -> None:
    assert refusal(source) == "bot.py, " + message  # the file's name, not its folder


@pytest.mark.parametrize(
    "source",
    [
        "import math\nimport math as m\nfrom math import sqrt as root, pi\nimport itertools, collections",
        "x = __name__",
        "_private = 1\ndef _helper(_a):\n    return _a",
        "from random import Random\nclass Mine(Random):\n    pass",
        "try:\n    pass\nexcept Exception:\n    pass",
        "match 3:\n    case int(real=r):\n        pass",
        "match 3:\n    case [1, *rest] | {1: 2, **rest}:\n        pass\n    case _:\n        pass",
        "def f():\n    global g\n    g = 1",
        "x = (1).real.imag",
    ],
)
def test_ordinary_bot_code_is_compiled(source: str) -> None:
    code = restricted_code(source, "/bots/mine.py")
    assert isinstance(code, types.CodeType) and code.co_filename == "/bots/mine.py"


def test_a_syntax_error_names_the_file() -> None:
    with pytest.raises(SyntaxError) as caught:
        restricted_code("x = (", "/bots/bad.py")
    assert caught.value.filename == "/bots/bad.py" and str(caught.value) == "'(' was never closed (bad.py, line 1)"


def test_compiled_code_is_the_whole_file() -> None:
    namespace: dict[str, object] = {"__builtins__": restricted_builtins()}
    exec(restricted_code("a = 6\nb = a * 7", "x.py"), namespace)  # test code running a literal of its own
    assert namespace["b"] == 42


def test_a_node_without_a_line_is_refused_with_a_question_mark() -> None:
    with pytest.raises(RestrictedError) as caught:
        ns._Checker("/a/b/c.py").fail(ast.Module(body=[], type_ignores=[]), "why")
    assert str(caught.value) == "c.py, line ?: why"


# -- the builtins ---------------------------------------------------------------------------------


def test_the_builtins_are_the_safe_ones_and_four_checking_hooks() -> None:
    table = restricted_builtins()
    assert set(table) == {*ns.SAFE_BUILTINS, "__import__", "getattr", "hasattr", "__build_class__"}
    assert table["len"] is len and table["None"] is None and table["ValueError"] is ValueError
    import builtins

    assert table["__build_class__"] is builtins.__build_class__
    for absent in ("open", "eval", "exec", "compile", "type", "object", "globals", "vars", "input"):
        assert absent not in table


def test_getattr_and_hasattr_check_the_name() -> None:
    table = restricted_builtins()
    point = types.SimpleNamespace(x=3)
    assert table["getattr"](point, "x") == 3
    assert table["getattr"](point, "y", "default") == "default"
    assert table["hasattr"](point, "x") is True and table["hasattr"](point, "y") is False
    assert table["getattr"](point, Sly("x")) == 3
    for hook, args in (("getattr", ()), ("getattr", (None,)), ("hasattr", ())):
        with pytest.raises(RestrictedError, match=r"^a bot may not use the attribute __class__ \(a name"):
            table[hook](point, Sly("__class__"), *args)


def test_the_import_hook_gives_bot_modules_only() -> None:
    importer = restricted_builtins()["__import__"]
    assert importer("math") is bot_module("math")
    assert importer("heapq", None, None, ("heappush",), 0) is bot_module("heapq")
    assert importer("heapq", {}, {}, None, 0) is bot_module("heapq")
    for args, message in (
        (("os",), f"{ONLY}, not os"),
        (("math", None, None, (), 1), f"{ONLY}, not math"),
        ((Liar("os"),), f"{ONLY}, not os"),
        (("heapq", None, None, ("_heapify_max",)), "a bot may not import _heapify_max from heapq: " + HEAPQ),
        (("math", None, None, ["sqrt"], 1), f"{ONLY}, not math"),
        (("math", None, None, ("sqrt", "__loader__")), "a bot may not import __loader__ from math: " + MATH),
    ):
        with pytest.raises(RestrictedError) as caught:
            importer(*args)
        assert str(caught.value) == message
    with pytest.raises(RestrictedError, match=r"^a bot must give a module name as a str, not bytes$"):
        importer(b"os")
    with pytest.raises(RestrictedError, match=r"^a bot must give a name to import as a str, not int$"):
        importer("math", None, None, (1,))


def test_c_code_importing_for_itself_gets_the_real_module() -> None:
    """A list for fromlist, no level and a plain str: what C code passes (numpy's lazy imports)."""
    importer = restricted_builtins()["__import__"]
    import json

    assert importer("json", None, None, ["loads"], 0) is json
    assert importer("json", None, None, [], 0) is json
    with pytest.raises(RestrictedError):
        importer("json", None, None, ("loads",), 0)  # a tuple: a bot's import statement
    with pytest.raises(RestrictedError):
        importer(Sly("json"), None, None, ["loads"], 0)  # not a plain str


def test_a_bot_file_runs_in_the_restricted_namespace() -> None:
    module = run_bot(
        "import math\nfrom heapq import heappush\nimport operator\n"
        "h = []\nheappush(h, 3)\n"
        "TOP = h[0] + int(math.sqrt(16))\n"
        "GOT = getattr(math, 'pi') > 3 and hasattr(math, 'tau')\n"
        "class Box:\n    size = 2\n"
        "SIZE = operator.attrgetter('size')(Box)\n"
    )
    assert module.TOP == 7 and module.GOT is True and module.SIZE == 2
    assert isinstance(module.math, BotModule)  # type: ignore[attr-defined]
    with pytest.raises(RestrictedError, match=r"^a bot may not use the attribute __class__"):
        run_bot("X = getattr(1, '__' + 'class__')")
    with pytest.raises(RestrictedError, match=r"^exact.py, line 1: a bot may import only .*, not sys$"):
        run_bot("import sys")


# -- what the worker imports early ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "modules"),
    [
        (
            "import math, os\nfrom heapq import heappush\nfrom os import path\nimport numpy as np",
            ["math", "heapq", "numpy"],
        ),
        ("def f():\n    import sympy\n    from . import x", ["sympy"]),
        ("import os.path, collections.abc", []),
        ("x = (", []),  # a SyntaxError
        ("x = 1\0", []),  # a null byte: SyntaxError (ValueError in older Pythons)
        ("import math\nx = '\ud800'", []),  # a lone surrogate (given as text, not read from a file): ValueError
        ("x = " + "+".join(["1"] * 200_000), []),  # too deep to build: RecursionError
        ("x = " + "-" * 200_000 + "1", []),  # too deep for the parser's own stack: MemoryError
        ("", []),
    ],
)
def test_imports_of_lists_the_allowed_modules_a_file_imports(source: str, modules: list[str]) -> None:
    assert imports_of(source) == modules


def test_imports_of_keeps_order_and_repeats() -> None:
    assert imports_of("import math\nimport random\nfrom math import pi") == ["math", "random", "math"]
