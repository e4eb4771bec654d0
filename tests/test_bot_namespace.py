"""The restricted namespace of bot files, one test per route that broke it (issue 30).

Each route is tried as an attacker would, in a bot file run by the real sandbox, and where the
route worked the bot would go on to write a file in a folder every user may write and read a
sibling bot's file: it then raises ``ESCAPED``.  Every attempt must instead be refused *by name*
(a ``RestrictedError`` that names what was refused), and leave no file behind.

The worker runs without bubblewrap here (as on a machine without it), so that the namespace is
the only layer between the bot and those two files: the folder is world-writable and the sibling
world-readable, and a worker that ran the payload could reach both, as root or as a user.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import duel_lessons.play.sandbox as sandbox
from duel_lessons.engine.game import new_game
from duel_lessons.play.sandbox import BotFile, Forfeit, Sandbox

RULES = new_game().rules


@pytest.fixture(autouse=True)
def namespace_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """No bubblewrap (the namespace is judged alone); a start judged by CPU time, its clock only a safety net."""
    monkeypatch.setattr(sandbox, "bubblewrap", lambda: (None, "bubblewrap (bwrap) is not installed"))
    monkeypatch.setattr(sandbox, "LOAD_WALL_LIMIT", 600.0)


@pytest.fixture()
def shared() -> Iterator[Path]:
    """A folder any user may write (the target) holding a sibling's world-readable bot file."""
    folder = Path(tempfile.mkdtemp(prefix="duel-route-"))
    folder.chmod(0o777)
    sibling = folder / "sibling.py"
    sibling.write_text("# SIBLING-SECRET\ndef move(state):\n    return state.legal_moves[0]\n")
    sibling.chmod(0o644)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _header(folder: Path) -> str:
    return f"TARGET = {str(folder / 'pwned')!r}\nSIBLING = {str(folder / 'sibling.py')!r}\n"


#: What a bot does once it holds the ``os`` module (from some module's globals or a frame's).
WITH_OS = (
    "def escape(os):\n"
    "    os.close(os.open(TARGET, os.O_WRONLY | os.O_CREAT, 0o644))\n"
    "    raise RuntimeError('ESCAPED: ' + repr(os.read(os.open(SIBLING, os.O_RDONLY), 40)))\n"
)
#: The same, as text for a function that evaluates strings.
EVALUATED = (
    'CODE = (\'open(%r, "w").write("x") or __import__("os").read(__import__("os").open(%r, 0), 40)\''
    " % (TARGET, SIBLING))\n"
)


def attempt(folder: Path, body: str) -> Forfeit:
    """Run a bot file (a header naming the two files, then ``body``) and return its forfeit."""
    path = folder / "attacker.py"
    path.write_text(_header(folder) + WITH_OS + EVALUATED + body)
    with Sandbox(BotFile.snapshot(path), RULES, 5.0) as box, pytest.raises(Forfeit) as caught:
        box.ask(new_game("divisor-duel", 12))
    return caught.value


def refused(folder: Path, body: str, *names: str) -> None:
    """The attempt forfeits with a RestrictedError naming each of ``names``, and leaves no file."""
    forfeit = attempt(folder, body)
    assert "ESCAPED" not in forfeit.reason, forfeit.reason
    assert "RestrictedError" in forfeit.reason, forfeit.reason
    for name in names:
        assert name in forfeit.reason, (name, forfeit.reason)
    assert not (folder / "pwned").exists(), "the bot wrote a file"
    assert sorted(p.name for p in folder.iterdir()) == ["attacker.py", "sibling.py"]


# -- 1. a str subclass that overrides startswith, fed to the wrapped getattr ----------------------

SLY = "class Sly(str):\n    def startswith(self, *args):\n        return False\n"


@pytest.mark.parametrize(
    "how",
    [
        "getattr(collections.Counter.most_common, Sly('__globals__'))",
        "getattr(collections.Counter.most_common, Sly('__globals__'), None)",  # a default changes nothing
        "hasattr(collections.Counter.most_common, Sly('__globals__')) and None",
    ],
)
def test_a_str_subclass_given_to_getattr_is_checked_as_the_plain_str(shared: Path, how: str) -> None:
    body = (
        "import collections\n" + SLY + f"def move(state):\n    found = {how}\n    escape(found['_sys'].modules['os'])\n"
    )
    refused(shared, body, "__globals__")


# -- 2. operator.attrgetter("__globals__") -------------------------------------------------------


@pytest.mark.parametrize(
    "how",
    [
        "operator.attrgetter('__globals__')(collections.Counter.most_common)",
        "operator.attrgetter('most_common.__globals__')(collections.Counter)",
        "operator.attrgetter('real', Sly('__globals__'))(collections.Counter.most_common)[1]",
        "operator.methodcaller('__getattribute__', '__globals__')(collections.Counter.most_common)",
    ],
)
def test_attrgetter_and_methodcaller_check_every_name(shared: Path, how: str) -> None:
    body = (
        "import collections, operator\n" + SLY + "def move(state):\n"
        f"    found = {how}\n"
        "    escape(found['_sys'].modules['os'])\n"
    )
    refused(shared, body, "__")


# -- 3. string.Formatter().get_field ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("how", "name"),
    [
        ("string.Formatter().get_field('0.__globals__', [collections.Counter.most_common], {})[0]", "Formatter"),
        ("getattr('{0.__globals__}', 'format')", "format"),  # str.format, by a name made at run time
        ("operator.methodcaller('format_map', {})('{0}')", "format_map"),
    ],
)
def test_formatting_that_looks_attributes_up_by_name_is_refused(shared: Path, how: str, name: str) -> None:
    body = (
        "import collections, operator, string\ndef move(state):\n"
        f"    found = {how}\n"
        "    escape(found['_sys'].modules['os'])\n"
    )
    refused(shared, body, name)


def test_formatter_and_str_format_in_the_source_are_refused_when_the_bot_loads(shared: Path) -> None:
    for body, name in (
        ("from string import Formatter\ndef move(state):\n    return 2\n", "Formatter"),
        ("def move(state):\n    return '{0.__globals__}'.format(move)\n", "format"),
    ):
        forfeit = attempt(shared, body)
        assert forfeit.reason.startswith("could not be loaded: RestrictedError") and name in forfeit.reason
    assert not (shared / "pwned").exists()


# -- 4 to 7. sympy's functions that evaluate strings -----------------------------------------------


@pytest.mark.parametrize(
    ("how", "name"),
    [
        ("sympy.sympify(CODE)", "sympy.sympify"),
        ("sympy.parse_expr(CODE)", "sympy.parse_expr"),
        ("sympy.S(CODE)", "sympy.S"),
        ("sympy.lambdify('x', CODE)(1)", "sympy.lambdify"),
        ("sympy.isprime(CODE)", "not text"),  # the functions a bot may use take whole numbers only
        ("sympy.factorint(CODE)", "not text"),
        ("sympy.factorint(12, 10**6, 1, 1, 1, 1, 0, 1)", "Mul"),  # visual: a sympy object
        ("sympy.Symbol('x').subs('x', CODE)", "sympy.Symbol"),
    ],
)
def test_sympy_gives_no_way_to_evaluate_a_string(shared: Path, how: str, name: str) -> None:
    refused(shared, f"import sympy\ndef move(state):\n    return {how}\n", name)


@pytest.mark.parametrize(
    ("source", "name"),
    [
        ("from sympy import sympify", "sympify"),
        ("from sympy import parse_expr", "parse_expr"),
        ("from sympy.parsing.sympy_parser import parse_expr", "sympy.parsing.sympy_parser"),
        ("from sympy import S", "import S from sympy"),
        ("from sympy import lambdify", "lambdify"),
        ("import sympy.utilities.lambdify", "sympy.utilities.lambdify"),
    ],
)
def test_sympys_string_evaluators_cannot_be_imported(shared: Path, source: str, name: str) -> None:
    forfeit = attempt(shared, f"{source}\ndef move(state):\n    return 2\n")
    assert forfeit.reason.startswith("could not be loaded: RestrictedError"), forfeit.reason
    assert name in forfeit.reason
    assert not (shared / "pwned").exists()


def test_sympys_number_theory_answers_in_plain_whole_numbers(shared: Path) -> None:
    """The curated sympy: 60's divisors, 2**4 * 3 * 5 factored, the primes below 20, worked out by hand."""
    (shared / "theory.py").write_text(
        "import sympy\nfrom sympy import isprime, factorint, primerange, divisors\n"
        "def move(state):\n"
        "    assert divisors(60) == [1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60]\n"
        "    assert factorint(240) == {2: 4, 3: 1, 5: 1}\n"
        "    assert list(primerange(1, 20)) == [2, 3, 5, 7, 11, 13, 17, 19]\n"
        "    assert sympy.nextprime(13) == 17 and sympy.totient(12) == 4 and sympy.primepi(100) == 25\n"
        "    return max(d for d in state.legal_moves if isprime(d))\n"
    )
    with Sandbox(BotFile.snapshot(shared / "theory.py"), RULES, 5.0) as box:
        assert box.ask(new_game("divisor-duel", 60)) == 5


# -- 8. numpy.ctypeslib, as an imported name -------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "name"),
    [
        ("from numpy.ctypeslib import load_library", "numpy.ctypeslib"),
        ("import numpy.ctypeslib", "numpy.ctypeslib"),
        ("from numpy import ctypeslib", "ctypeslib"),
        ("import numpy\nload_library = numpy.ctypeslib.load_library", "load_library"),
        ("import numpy\nload_library = numpy.array([1]).ctypes", "ctypes"),
        ("from numpy import load", "load"),  # a pickle reader: not among numpy's curated names
    ],
)
def test_numpy_gives_no_way_to_ctypes_or_files(shared: Path, source: str, name: str) -> None:
    body = f"{source}\ndef move(state):\n    load_library('libc.so.6', '/lib').creat(TARGET.encode(), 420)\n"
    forfeit = attempt(shared, body)
    assert forfeit.reason.startswith("could not be loaded: RestrictedError"), forfeit.reason
    assert name in forfeit.reason
    assert not (shared / "pwned").exists()


@pytest.mark.parametrize(
    ("how", "name"),
    [
        ("getattr(numpy, 'ctypeslib')", "ctypeslib"),
        ("getattr(numpy.array([1]), 'ctypes')", "ctypes"),
        ("getattr(numpy.array([1]), 'tofile')(TARGET)", "tofile"),
        ("numpy.save(TARGET, numpy.array([1]))", "numpy.save"),
    ],
)
def test_numpy_names_made_at_run_time_are_refused_too(shared: Path, how: str, name: str) -> None:
    refused(shared, f"import numpy\ndef move(state):\n    return {how}\n", name)


def test_numpys_curated_arrays_still_work(shared: Path) -> None:
    """The squares of 1..4 summed is 30, by hand."""
    (shared / "arrays.py").write_text(
        "import numpy as np\n"
        "def move(state):\n"
        "    assert int((np.arange(1, 5) ** 2).sum()) == 30\n"
        "    moves = np.array(state.legal_moves)\n"
        "    return int(moves[np.argmax(moves % 5 == 0)])\n"
    )
    with Sandbox(BotFile.snapshot(shared / "arrays.py"), RULES, 5.0) as box:
        assert box.ask(new_game("divisor-duel", 60)) == 5  # the first of 2, 3, 4, 5, ... divisible by 5


# -- 9. an exception's traceback frame --------------------------------------------------------------

#: Up the frames to a module that imported os (in the source: refused when the bot loads).
FRAME_WALK = (
    "    frame = tb.tb_frame\n"
    "    while frame is not None:\n"
    "        if 'os' in frame.f_globals:\n"
    "            escape(frame.f_globals['os'])\n"
    "        frame = frame.f_back\n"
    "    return 2\n"
)
#: The same walk with every name made at run time (so the bot loads, and the names are judged as it runs).
RUNTIME_FRAME_WALK = (
    "    frame = getattr(tb, Sly('tb_frame'))\n"
    "    while frame is not None:\n"
    "        if 'os' in getattr(frame, Sly('f_globals')):\n"
    "            escape(getattr(frame, Sly('f_globals'))['os'])\n"
    "        frame = getattr(frame, Sly('f_back'))\n"
    "    return 2\n"
)


@pytest.mark.parametrize(
    ("how", "name"),
    [
        ("getattr(error, '__traceback__')", "__traceback__"),
        ("operator.attrgetter('__traceback__')(error)", "__traceback__"),
        ("getattr(getattr(error, 'with_traceback')(None), 'tb_frame')", "tb_frame"),
        ("getattr((x for x in [1]), 'gi_frame')", "gi_frame"),
        ("getattr(error, Sly('__traceback__'))", "__traceback__"),
    ],
)
def test_no_frame_from_a_traceback_or_a_generator(shared: Path, how: str, name: str) -> None:
    body = (
        "import operator\n" + SLY + "def move(state):\n"
        "    try:\n        1 / 0\n    except ZeroDivisionError as error:\n"
        f"        tb = {how}\n" + RUNTIME_FRAME_WALK
    )
    refused(shared, body, name)


@pytest.mark.parametrize(
    ("source", "name"),
    [
        ("    except ZeroDivisionError as error:\n        tb = error.__traceback__\n", "__traceback__"),
        ("    except ZeroDivisionError as error:\n        tb = error.tb_frame\n", "tb_frame"),
        ("    except ZeroDivisionError as error:\n        tb = error.f_globals\n", "f_globals"),
        (  # a class pattern looks its keyword attributes up by name
            "    except ZeroDivisionError as error:\n        match error:\n"
            "            case ZeroDivisionError(__traceback__=tb):\n                pass\n",
            "__traceback__",
        ),
    ],
)
def test_frames_named_in_the_source_are_refused_when_the_bot_loads(shared: Path, source: str, name: str) -> None:
    body = "def move(state):\n    try:\n        1 / 0\n" + source + FRAME_WALK
    forfeit = attempt(shared, body)
    assert forfeit.reason.startswith("could not be loaded: RestrictedError"), forfeit.reason
    assert name in forfeit.reason
    assert not (shared / "pwned").exists()


# -- and one found on the way: functools.update_wrapper copies attributes by name ------------------


def test_functools_update_wrapper_is_not_among_the_names(shared: Path) -> None:
    body = (
        "import functools, collections\ndef move(state):\n"
        "    holder = functools.partial(move)\n"
        "    functools.update_wrapper(holder, collections.Counter.most_common, ('__globals__',), ())\n"
        "    return 2\n"
    )
    refused(shared, body, "functools.update_wrapper")
