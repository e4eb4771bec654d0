"""The worker side of the bot sandbox: what runs in a bot's own process (see :mod:`duel_lessons.play.sandbox`).

A worker is a fresh Python interpreter (``python -m duel_lessons.play.bot_worker FD``, inside
bubblewrap where it is installed) that never held another bot's source.  It closes every other
file descriptor, reads its one bot from the referee's socket (a bot file's path and text, or a
function pickled by the referee), imports the few modules bots may use, sets its resource
limits, leaves the referee's user when the referee is root (a user id of its own), and only
then runs the bot's code.  It answers one JSON request per line: it rebuilds the state from
plain numbers, asks the bot, turns the answer into an ``int`` itself and replies with one line
of JSON, with the captured output.

A bot *file* runs in a restricted namespace (:func:`restricted_code`), built from allowlists: it
may import only :data:`ALLOWED_MODULES`, and from each only the names in :data:`BOT_MODULES`
(sympy's number theory, wrapped to take and give whole numbers; numpy's arrays), as a
:class:`BotModule` that refuses any other name by name.  Its builtins have no ``open``, ``eval``,
``exec``, ``type`` or ``__import__``, and ``getattr``, ``hasattr``, ``operator.attrgetter`` and
``operator.methodcaller`` check the name they are given, as an exact ``str``, by the same rule as
an attribute in the source (:func:`attribute_refusal`: no name that starts with ``_``, no frame,
traceback or code attribute, no formatting by name, no ctypes).  So no name a bot writes or makes
leads to evaluating a string, to a frame, to a module's globals or to ctypes.  Behind bubblewrap
this is a second line; without it, it is the guarantee against what the process layers leave
open (see :mod:`duel_lessons.play.sandbox`).

>>> from duel_lessons.engine.game import new_game
>>> state = new_game("divisor-duel", 12).play(2)
>>> decode_state(state.rules, encode_state(state)) == state
True
>>> restricted_code("import os", "bot.py")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
duel_lessons.play.bot_worker.RestrictedError: bot.py, line 1: a bot may import only math, cmath, ..., not os
"""

from __future__ import annotations

import ast
import base64
import builtins
import contextlib
import importlib
import io
import json
import operator
import os
import pickle
import signal
import socket
import sys
import traceback
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

from duel_lessons.engine.game import GameState, LostTurn, Moved, Passed
from duel_lessons.engine.rules import Rules

#: Function names a bot file may define, in order of preference.
BOT_FUNCTIONS = ("move", "strategy")
#: What a bot file may import, module by module: the names it sees (an allowlist; nothing else of the module,
#: no submodule). ``None``: every public function, type and number of a module written in C that computes
#: with numbers only (math, cmath, itertools). Each module reaches the bot as a :class:`BotModule`.
BOT_MODULES: dict[str, tuple[str, ...] | None] = {
    "math": None,
    "cmath": None,
    "itertools": None,
    "random": (
        "random", "randint", "randrange", "choice", "choices", "shuffle", "sample", "uniform", "seed",
        "getrandbits", "gauss", "triangular", "Random",
    ),
    "functools": ("reduce", "partial", "lru_cache", "cache", "cmp_to_key"),  # not update_wrapper or wraps
    "collections": ("Counter", "deque", "defaultdict", "OrderedDict", "namedtuple", "ChainMap"),
    "fractions": ("Fraction",),
    "statistics": (
        "mean", "fmean", "median", "median_low", "median_high", "mode", "multimode", "stdev", "pstdev",
        "variance", "pvariance", "quantiles", "geometric_mean", "harmonic_mean",
    ),
    "bisect": ("bisect", "bisect_left", "bisect_right", "insort", "insort_left", "insort_right"),
    "heapq": ("heappush", "heappop", "heapify", "heappushpop", "heapreplace", "nlargest", "nsmallest", "merge"),
    "operator": (  # attrgetter and methodcaller are wrapped: they check the names they are given
        "abs", "add", "and_", "attrgetter", "call", "concat", "contains", "countOf", "eq", "floordiv", "ge",
        "getitem", "gt", "index", "indexOf", "inv", "invert", "is_", "is_not", "itemgetter", "le", "lshift",
        "lt", "matmul", "methodcaller", "mod", "mul", "ne", "neg", "not_", "or_", "pos", "pow", "rshift",
        "sub", "truediv", "truth", "xor",
    ),
    "string": (  # the constants, not Formatter (it looks attributes up by name) or Template
        "ascii_letters", "ascii_lowercase", "ascii_uppercase", "digits", "hexdigits", "octdigits",
        "punctuation", "printable", "whitespace", "capwords",
    ),
    "re": (
        "compile", "match", "search", "fullmatch", "findall", "finditer", "split", "sub", "subn", "escape",
        "error", "IGNORECASE", "I", "MULTILINE", "M", "DOTALL", "S", "VERBOSE", "X", "ASCII", "A",
    ),
    "numpy": (  # arrays and their arithmetic: no file, pickle, ctypes, string-evaluating or frame helper
        "array", "asarray", "zeros", "ones", "full", "empty", "zeros_like", "ones_like", "full_like", "arange",
        "linspace", "eye", "identity", "sum", "prod", "cumsum", "cumprod", "diff", "mean", "median", "average",
        "std", "var", "min", "max", "amin", "amax", "argmin", "argmax", "argsort", "sort", "unique", "where",
        "nonzero", "flatnonzero", "count_nonzero", "any", "all", "abs", "absolute", "sqrt", "square", "floor",
        "ceil", "round", "rint", "trunc", "mod", "remainder", "floor_divide", "divmod", "gcd", "lcm", "maximum",
        "minimum", "fmax", "fmin", "clip", "sign", "dot", "matmul", "outer", "inner", "add", "subtract",
        "multiply", "divide", "power", "log", "log2", "log10", "exp", "isin", "searchsorted", "bincount",
        "concatenate", "stack", "vstack", "hstack", "column_stack", "reshape", "ravel", "transpose", "flip",
        "roll", "tile", "repeat", "diag", "trace", "triu", "tril", "array_equal", "allclose", "isclose", "isnan",
        "isinf", "isfinite", "logical_and", "logical_or", "logical_not", "logical_xor", "bitwise_and",
        "bitwise_or", "bitwise_xor", "invert", "left_shift", "right_shift", "equal", "not_equal", "less",
        "less_equal", "greater", "greater_equal", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
        "uint64", "float32", "float64", "bool_", "integer", "floating", "number", "ndarray", "inf", "nan", "pi",
        "e", "newaxis", "iinfo", "finfo",
    ),
    "sympy": (  # number theory only, wrapped: whole numbers in, plain ints (lists, dicts, tuples) out
        "isprime", "factorint", "divisors", "proper_divisors", "primefactors", "divisor_count",
        "proper_divisor_count", "divisor_sigma", "totient", "nextprime", "prevprime", "prime", "primepi",
        "primerange", "igcd", "ilcm", "integer_nthroot", "multiplicity", "mobius", "perfect_power", "n_order",
        "primitive_root", "legendre_symbol", "jacobi_symbol", "is_primitive_root",
    ),
}  # fmt: skip
#: The modules a bot file may import.
ALLOWED_MODULES = tuple(BOT_MODULES)
#: Modules every worker imports before its limits start (the others in ALLOWED_MODULES only when the bot imports them).
PRELOAD = ("math", "random", "itertools", "functools", "collections", "fractions", "operator", "bisect", "heapq")
#: Beginnings of the attribute names of frames, tracebacks, code, generators and coroutines (``f_globals``,
#: ``tb_frame``, ``co_code``, ``gi_frame``, ``cr_frame``, ``ag_frame``...): a bot may use none of them.
FRAME_PREFIXES = ("f_", "tb_", "co_", "gi_", "cr_", "ag_")
#: Public attribute names a bot may not use either: formatting that looks attributes up by name, the class
#: hierarchy, and numpy's files, pickles and ctypes.
BLOCKED_ATTRIBUTES = frozenset(
    {
        "format", "format_map", "mro", "func_globals", "ctypes", "ctypeslib", "load_library", "tofile", "dump",
        "lib", "testing", "f2py", "distutils",
    }
)  # fmt: skip
#: Builtins a bot file may use (no open, eval, exec, compile, input, __import__, globals, vars, type, object;
#: getattr and hasattr are wrapped to check the name).
SAFE_BUILTINS = (
    "abs", "all", "any", "ascii", "bin", "bool", "bytes", "callable", "chr", "complex", "dict", "divmod",
    "enumerate", "filter", "float", "frozenset", "hash", "hex", "int", "isinstance", "issubclass",
    "iter", "len", "list", "map", "max", "min", "next", "oct", "ord", "pow", "print", "range", "repr",
    "reversed", "round", "set", "slice", "sorted", "str", "sum", "tuple", "zip", "None", "True", "False",
    "Exception", "ArithmeticError", "AssertionError", "IndexError", "KeyError", "LookupError", "OverflowError",
    "RuntimeError", "StopIteration", "TypeError", "ValueError", "ZeroDivisionError", "NotImplemented",
)  # fmt: skip


#: The parent this process started with (set again by the worker's entry points).
_PARENT = os.getppid()


# -- the state as plain data ---------------------------------------------------------------


def encode_state(state: GameState) -> dict[str, Any]:
    """The state as JSON-ready numbers (the rules travel once, when the worker starts)."""
    history: list[list[Any]] = []
    for e in state.history:
        if isinstance(e, Moved):
            history.append(["moved", e.player, e.before, e.divisor, e.after])
        elif isinstance(e, Passed):
            history.append(["passed", e.player, e.number])
        else:
            history.append(["lost", e.player, e.number, e.value, e.reason])
    return {"number": state.number, "to_move": state.to_move, "passes": state.passes, "history": history}


def decode_state(rules: Rules, data: dict[str, Any]) -> GameState:
    """The state rebuilt from :func:`encode_state`'s data (in the worker)."""
    events: list[Moved | Passed | LostTurn] = []
    for kind, *fields in data["history"]:
        events.append({"moved": Moved, "passed": Passed, "lost": LostTurn}[kind](*fields))
    return GameState(rules, data["number"], data["to_move"], data["passes"], tuple(events))


# -- the restricted namespace of a bot file ----------------------------------------------------


class RestrictedError(Exception):
    """A bot file uses something a bot may not (an import, a private name, a frame)."""


def exact_name(name: object, what: str = "an attribute name") -> str:
    """``name`` as an exact ``str``, so that a subclass's own ``startswith`` or ``__eq__`` is never asked.

    >>> class Sly(str):
    ...     def startswith(self, prefix):
    ...         return False
    >>> type(exact_name(Sly("_x"))) is str
    True
    >>> exact_name(3)
    Traceback (most recent call last):
    ...
    duel_lessons.play.bot_worker.RestrictedError: a bot must give an attribute name as a str, not int
    """
    if not isinstance(name, str):
        raise RestrictedError(f"a bot must give {what} as a str, not {type(name).__name__}")
    return str.__str__(name)


def attribute_refusal(name: str) -> str | None:
    """Why a bot may not use the attribute ``name`` (an exact str), or None when it may.

    >>> attribute_refusal("legal_moves") is None
    True
    >>> attribute_refusal("__globals__")
    'a bot may not use the attribute __globals__ (a name that starts with _)'
    >>> attribute_refusal("tb_frame")
    'a bot may not use the attribute tb_frame (frames, tracebacks, code, generators)'
    """
    if str.startswith(name, "_"):
        return f"a bot may not use the attribute {name} (a name that starts with _)"
    if str.startswith(name, FRAME_PREFIXES):
        return f"a bot may not use the attribute {name} (frames, tracebacks, code, generators)"
    if name in BLOCKED_ATTRIBUTES:
        return f"a bot may not use the attribute {name}"
    return None


def checked_attribute(name: object) -> str:
    """The attribute name ``name`` as an exact str, or RestrictedError when a bot may not use it."""
    text = exact_name(name)
    why = attribute_refusal(text)
    if why is not None:
        raise RestrictedError(why)
    return text


class BotModule:
    """A module as a bot sees it: only the names :data:`BOT_MODULES` allows; any other name is refused by name."""

    def __init__(self, name: str, values: dict[str, Any]) -> None:
        self.__dict__.update(values)
        object.__setattr__(self, "_module_name", name)

    def __getattr__(self, name: str) -> Any:
        module = object.__getattribute__(self, "_module_name")
        raise RestrictedError(f"a bot may not use {module}.{name}: {allowed_summary(module)}")

    def __repr__(self) -> str:
        return f"<module {object.__getattribute__(self, '_module_name')} as a bot sees it>"


def allowed_summary(module: str) -> str:
    """Which names of ``module`` a bot may use, in words."""
    names = BOT_MODULES[module]
    if names is None:
        return f"from {module} a bot may use its functions and numbers"
    return f"from {module} a bot may use only {', '.join(names)}"


def _whole(value: object) -> int:
    """A whole-number argument for sympy, as an exact int (a str or a sympy object is refused)."""
    if isinstance(value, str):
        raise RestrictedError("sympy's functions take whole numbers from a bot, not text")
    return int.__index__(operator.index(value))  # type: ignore[arg-type]


def _plain(value: object) -> object:
    """sympy's answer as plain Python: ints, bools, lists, tuples and dicts of them (anything else is refused)."""
    import sympy

    if isinstance(value, bool | sympy.logic.boolalg.BooleanAtom):
        return bool(value)
    if isinstance(value, int | sympy.Integer):
        return int(value)
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    if isinstance(value, list | types.GeneratorType):
        return [_plain(v) for v in value]
    if value is None:
        return None
    raise RestrictedError(f"sympy gave a {type(value).__name__}, not whole numbers, so a bot may not have it")


def _wrap_sympy(name: str) -> Callable[..., object]:
    import sympy

    function = getattr(sympy, name)

    def wrapped(*args: object) -> object:
        return _plain(function(*(_whole(a) for a in args)))

    wrapped.__name__ = wrapped.__qualname__ = name
    wrapped.__doc__ = f"sympy.{name}, for whole numbers only (keyword arguments are not taken)."
    return wrapped


def _attrgetter(*names: object) -> Callable[[object], object]:
    """operator.attrgetter, each part of each dotted name checked as an attribute."""
    exact = [exact_name(n) for n in names]
    for name in exact:
        for part in name.split("."):
            checked_attribute(part)
    return operator.attrgetter(*exact)


def _methodcaller(name: object, *args: object, **kwargs: object) -> Callable[[object], object]:
    """operator.methodcaller, its method name checked as an attribute."""
    return operator.methodcaller(checked_attribute(name), *args, **kwargs)


_bot_modules: dict[str, BotModule] = {}


def bot_module(name: str) -> BotModule:
    """The module ``name`` as a bot sees it (imported here, in the worker)."""
    if name not in _bot_modules:
        module = importlib.import_module(name)
        allowed = BOT_MODULES[name]
        values: dict[str, Any] = {}
        if allowed is None:  # a C module of numbers: its functions, types and numbers
            kinds = types.BuiltinFunctionType | type | int | float | complex
            values = {k: v for k, v in vars(module).items() if not k.startswith("_") and isinstance(v, kinds)}
        elif name == "sympy":
            values = {key: _wrap_sympy(key) for key in allowed}
        else:
            values = {key: getattr(module, key) for key in allowed}
        if name == "operator":
            values.update(attrgetter=_attrgetter, methodcaller=_methodcaller)
        _bot_modules[name] = BotModule(name, values)
    return _bot_modules[name]


def _allowed_names(module: str) -> frozenset[str]:
    return frozenset(vars(bot_module(module)))


class _Checker(ast.NodeVisitor):
    def __init__(self, path: str) -> None:
        self.path = path

    def fail(self, node: ast.AST, why: str) -> None:
        raise RestrictedError(f"{Path(self.path).name}, line {getattr(node, 'lineno', '?')}: {why}")

    def _module(self, node: ast.AST, name: str | None) -> None:
        if name not in BOT_MODULES:
            self.fail(node, f"a bot may import only {', '.join(ALLOWED_MODULES)}, not {name}")

    def _name(self, node: ast.AST, name: str | None) -> None:
        if name is not None and name.startswith("__") and name != "__name__":
            self.fail(node, f"a bot may not use the name {name}")

    def _attribute(self, node: ast.AST, name: str) -> None:
        why = attribute_refusal(name)
        if why is not None:
            self.fail(node, why)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._module(node, alias.name)
            self._name(node, alias.asname)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            self.fail(node, "a bot may not import from its folder")
        self._module(node, node.module)
        assert node.module is not None
        for alias in node.names:
            if alias.name not in _allowed_names(node.module):
                self.fail(node, f"a bot may not import {alias.name} from {node.module}: {allowed_summary(node.module)}")
            self._name(node, alias.asname)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self._attribute(node, node.attr)
        self.generic_visit(node)

    def visit_MatchClass(self, node: ast.MatchClass) -> None:  # case C(attr=...) looks attributes up by name
        for name in node.kwd_attrs:
            self._attribute(node, name)
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        self._name(node, node.id)

    def visit_arg(self, node: ast.arg) -> None:
        self._name(node, node.arg)
        self.generic_visit(node)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        self._name(node, node.name)
        self.generic_visit(node)

    def visit_Global(self, node: ast.Global) -> None:
        for name in node.names:
            self._name(node, name)

    def visit_Nonlocal(self, node: ast.Nonlocal) -> None:
        for name in node.names:
            self._name(node, name)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        if node.name.startswith("__"):
            self.fail(node, f"a bot may not define {node.name}")
        self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._name(node, node.name)
        self.generic_visit(node)


def restricted_code(source: str, path: str) -> types.CodeType:
    """The bot file's code, compiled after checking it names nothing a bot may not (RestrictedError)."""
    tree = ast.parse(source, path)
    _Checker(path).visit(tree)
    return compile(tree, path, "exec")


def _restricted_builtins() -> dict[str, Any]:
    table: dict[str, Any] = {name: getattr(builtins, name) for name in SAFE_BUILTINS}

    def importer(name: object, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0) -> Any:
        if type(fromlist) is list and not level and type(name) is str:
            # C code importing for itself (numpy's lazy imports, PyImport_Import) while a bot's frame runs: it
            # passes a list, and keeps only the side effect. A bot's import statement passes None or a tuple.
            return importlib.import_module(name)
        text = exact_name(name, "a module name")
        if level or text not in BOT_MODULES:
            raise RestrictedError(f"a bot may import only {', '.join(ALLOWED_MODULES)}, not {text}")
        module = bot_module(text)
        for item in fromlist or ():
            if exact_name(item, "a name to import") not in vars(module):
                raise RestrictedError(f"a bot may not import {item} from {text}: {allowed_summary(text)}")
        return module

    def getattr_(obj: object, name: object, *default: object) -> object:
        return getattr(obj, checked_attribute(name), *default)

    def hasattr_(obj: object, name: object) -> bool:
        return hasattr(obj, checked_attribute(name))

    table["__import__"] = importer
    table["getattr"] = getattr_
    table["hasattr"] = hasattr_
    table["__build_class__"] = builtins.__build_class__
    return table


def _imports(source: str) -> list[str]:
    """The allowed modules a bot file imports (imported before the worker leaves the referee's user)."""
    with contextlib.suppress(SyntaxError, ValueError, RecursionError):
        found = []
        for node in ast.walk(ast.parse(source)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            found += [n for n in names if n in BOT_MODULES]
        return found
    return []


# -- the worker ----------------------------------------------------------------------------------


class _CappedText(io.TextIOBase):
    """A text stream that keeps the first ``cap`` characters written to it."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.parts: list[str] = []
        self.size = 0
        self.cut = False

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        text = str(text)
        room = self.cap - self.size
        if len(text) > room:
            self.cut = True
            text = text[: max(room, 0)]
        self.parts.append(text)
        self.size += len(text)
        return len(text)

    def take(self) -> str:
        text = "".join(self.parts) + ("\n[output cut]\n" if self.cut else "")
        self.parts, self.size, self.cut = [], 0, False
        return text


def _safe(describe: Callable[[], str], fallback: str) -> str:
    try:
        return str.__str__(describe())[:4000]
    except BaseException:  # an evil __repr__ or __str__
        return fallback


def limit_resources(memory: int, files: int = 64, file_size: int = 2**20) -> None:
    """Resource limits of this process (POSIX): memory, no core files, no new processes, small files, few files."""
    try:
        import resource
    except ImportError:  # Windows: no resource limits
        return
    with contextlib.suppress(OSError, ValueError):
        os.setpgid(0, 0)  # its own process group: the referee kills the group
    try:
        import psutil  # type: ignore[import-untyped]

        base = psutil.Process().memory_info().vms
    except Exception:
        base = 0
    for limit, value in (
        (resource.RLIMIT_AS, base + memory),
        (resource.RLIMIT_CORE, 0),
        (resource.RLIMIT_NPROC, 0),
        (resource.RLIMIT_FSIZE, file_size),
        (resource.RLIMIT_NOFILE, files),
    ):
        with contextlib.suppress(OSError, ValueError):
            resource.setrlimit(limit, (value, value))


def drop_privileges(uid: int | None) -> bool:
    """Become user ``uid`` (a user of its own, given by a root referee); whether this process is now not root.

    Clearing the groups and changing the group and user needs root's CAP_SETUID/CAP_SETGID; in a
    container without them the worker stays root, and the referee says so.
    """
    if uid is None or not hasattr(os, "setuid"):
        return not hasattr(os, "geteuid") or os.geteuid() != 0
    with contextlib.suppress(OSError):
        os.setgroups([])
    with contextlib.suppress(OSError):
        os.setgid(uid)
    with contextlib.suppress(OSError):
        os.setuid(uid)
    return os.geteuid() != 0


def die_with_parent() -> None:
    """Linux: the kernel kills this process when its parent dies; also not dumpable (no ptrace by its peers)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes  # imported before the change of user (see serve): the new user may not read Python's files

        libc = ctypes.CDLL(None)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        libc.prctl(4, 0)  # PR_SET_DUMPABLE 0: another process of the same user cannot ptrace it or read its memory
    except (OSError, AttributeError, ImportError):
        return
    if os.getppid() != _PARENT:
        os._exit(1)  # the parent is already gone


#: Linux's flags for unshare(2) and mount(2).
CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWNET, CLONE_NEWIPC = 0x00020000, 0x10000000, 0x40000000, 0x08000000
CLONE_NEWPID = 0x20000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REC, MS_PRIVATE = 1, 2, 4, 8, 0x4000, 1 << 18


def _user_namespace(libc: Any, uid: int, gid: int, more: int = 0) -> bool:
    """Enter a new user and mount namespace (and ``more``) in which this process keeps its user and group ids."""
    if libc.unshare(CLONE_NEWUSER | CLONE_NEWNS | more) != 0:
        return False
    try:
        for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
            with open(f"/proc/self/{name}", "w") as file:
                file.write(text)
    except OSError:
        return False
    return True


def _wait_and_end_alike(pid: int, signals: bool) -> None:
    """Hold nothing (every file closed), wait for child ``pid``, and end as it ended: its exit code, or, with
    ``signals``, killed by the same signal (the first process of a pid namespace, which cannot kill itself
    so, ends with 128 + the signal's number, and is read back the same way)."""
    os.closerange(0, 65536)
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            break
        except InterruptedError:
            continue
    code = os.waitstatus_to_exitcode(status)
    if signals and code > 128:
        code = 128 - code
    if code < 0 and signals:
        with contextlib.suppress(OSError, ValueError):  # (SIGKILL has no handler to reset)
            signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    os._exit(128 - code if code < 0 else code & 0xFF)


def _fork_waiting(libc: Any, signals: bool) -> None:
    """Fork; this process waits for the child and ends alike (never returns); the child returns."""
    libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: the waiting parent dies with its own parent
    pid = os.fork()
    if pid:
        _wait_and_end_alike(pid, signals)
    libc.prctl(1, signal.SIGKILL)  # and the child with the waiting parent


#: The folders every user may write on a Linux system: each gets a fresh, private tmpfs in a worker's namespace.
SCRATCH_FOLDERS = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")


def _read_only_but_scratch(libc: Any) -> bool:
    """Make every mount read-only (mount_setattr, Linux 5.12+), then give each of :data:`SCRATCH_FOLDERS` a fresh
    tmpfs: whatever the bot writes is gone with its namespace, and nothing of the teacher's is writable."""
    import ctypes

    attr = (ctypes.c_uint64 * 4)(1, 0, 0, 0)  # struct mount_attr: attr_set = MOUNT_ATTR_RDONLY
    at_fdcwd, at_recursive, sys_mount_setattr = -100, 0x8000, 442
    if libc.syscall(sys_mount_setattr, at_fdcwd, b"/", at_recursive, ctypes.byref(attr), ctypes.sizeof(attr)) != 0:
        return False
    done = True
    needed = [os.path.realpath(p) for p in (*sys.path, sys.prefix, sys.base_prefix) if p]
    for folder in SCRATCH_FOLDERS:  # (one that holds Python or the package, a venv in /tmp say, stays as it is)
        if any(n.startswith(folder + "/") for n in needed):
            continue
        if os.path.isdir(folder) and libc.mount(
            b"tmpfs", folder.encode(), b"tmpfs", MS_NOSUID | MS_NODEV, b"mode=1777"
        ):
            done = False
    return done


def own_namespaces(folders: list[str] | tuple[str, ...]) -> bool:
    """Linux, where bubblewrap did not run: a pid, network, IPC and mount namespace of this process's own,
    in which each of ``folders`` is covered by an empty, read-only tmpfs; whether all of it was done.

    Every mount is made read-only, and the folders anyone may write (:data:`SCRATCH_FOLDERS`) fresh
    and private.  The worker goes on as the first process of the new pid namespace, with a ``/proc`` of its own: it
    sees, signals and traces no process outside (the referee, the other bots).  The new network
    namespace has no interface but a loopback that is down: no address, local or not, can be reached
    (the referee's socket, made before, still works).  Root (with CAP_SYS_ADMIN) needs
    no more; anyone else needs a user namespace too, where the kernel allows them, and then a second
    one, so that the covers are locked: neither this process nor anything it runs can lift them (nor
    bind-mount what is under them), whatever namespace it makes later.  A bot that becomes another
    user afterwards (a root referee's worker) holds no capability at all.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        uid, gid = os.getuid(), os.getgid()
        nested = False
        more = CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWPID
        if libc.unshare(CLONE_NEWNS | more) != 0:
            if uid == 0 or not _user_namespace(libc, uid, gid, more):
                return False  # (root may map itself into a user namespace only with CAP_SETFCAP)
            nested = True
        if libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None) != 0:
            return False
        done = True
        flags = MS_NOSUID | MS_NODEV | MS_NOEXEC
        for folder in folders:  # (a folder removed since is skipped: there is nothing left to read)
            if os.path.isdir(folder) and libc.mount(
                b"tmpfs", os.fsencode(folder), b"tmpfs", flags | MS_RDONLY, b"mode=0555"
            ):
                done = False
        done = _read_only_but_scratch(libc) and done
        _fork_waiting(libc, signals=True)  # here, the first process of the new pid namespace
        if libc.mount(b"proc", b"/proc", b"proc", flags, None) != 0:
            done = False
        locked = not nested or _user_namespace(libc, uid, gid)  # covers made in the parent: locked
        _fork_waiting(libc, signals=False)  # the worker is its second process (the first ignores its own signals)
        global _PARENT
        _PARENT = os.getppid()
        return locked and done
    except (OSError, AttributeError, ImportError):
        return False


def read_own_copy(path: str) -> str:
    """The text of this worker's private copy of its bot file (the only bot file it reads), kept for tracebacks."""
    import linecache

    with open(path, encoding="utf-8") as file:
        source = file.read()
    linecache.cache[path] = (len(source), None, source.splitlines(True), path)  # kept when the file is hidden
    return source


def _close_inherited_files(keep: int) -> None:
    os.closerange(3, keep)
    os.closerange(keep + 1, 65536)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)  # output written straight to the descriptors goes nowhere
    os.close(null)


def _preload(names: tuple[str, ...] | list[str]) -> None:
    """Import modules while the worker can still read every file."""
    for name in names:
        with contextlib.suppress(Exception):
            importlib.import_module(name)


def load_bot(
    bot: Callable[[GameState], object] | tuple[str, str], restricted: bool = True
) -> Callable[[GameState], object]:
    """The bot's function; a bot file's (path, source) is run here, in the worker, as a module."""
    if not isinstance(bot, tuple):
        return bot
    path, source = bot
    module = types.ModuleType(f"duel_bot_{Path(path).stem}")
    module.__file__ = path
    if restricted:
        code = restricted_code(source, path)
        module.__dict__["__builtins__"] = _restricted_builtins()
    else:
        code = compile(source, path, "exec")
    sys.modules[module.__name__] = module
    exec(code, module.__dict__)  # the student's bot file, inside its sandbox (never in the referee)
    for name in BOT_FUNCTIONS:
        function = module.__dict__.get(name)
        if callable(function):
            return function  # type: ignore[no-any-return]
    raise LookupError(f"{Path(path).name} defines no function named {' or '.join(BOT_FUNCTIONS)}")


def _answer(function: Callable[[GameState], object], state: GameState) -> dict[str, Any]:
    """Ask the bot and check its answer is a whole number (all in the worker, inside the time limit)."""
    try:
        answer = function(state)
        if type(answer) is bool:
            return {"refused": f"returned {answer!r} (bool), not a whole number"}
        if not hasattr(type(answer), "__index__"):
            what = _safe(lambda: repr(answer)[:80], "an object")
            kind = _safe(lambda: type(answer).__name__, "?")
            return {"refused": f"returned {what} ({kind}), not a whole number"}
        move = operator.index(answer)  # type: ignore[arg-type]  # an exact int (Python >= 3.10), whatever __index__ does
        if move.bit_length() > 64:
            return {"refused": f"returned a number of {move.bit_length()} bits, far larger than any legal move"}
        return {"move": move}
    except BaseException as error:  # the bot's failure, whatever it raised, is its forfeit
        return {"raised": f"raised {_describe(error)}", "traceback": _trace()}


def _describe(error: BaseException) -> str:
    """``Name: message`` of an exception, even one whose __str__ fails."""
    name = _safe(lambda: type(error).__name__, "an exception")
    text = _safe(lambda: str(error), "(message could not be shown)")
    return f"{name}: {text}" if text else name


def _trace() -> str:
    return _safe(traceback.format_exc, "(traceback could not be shown)")[-4000:]


#: Below this, a worker finds divisors, primes and factors by trial division (so it need not import sympy,
#: which takes a fresh interpreter over a second of CPU time); from here on it asks sympy, as the referee does.
SMALL = 10**8


def _trial_factors(n: int) -> dict[int, int]:
    factors: dict[int, int] = {}
    p = 2
    while p * p <= n:
        while n % p == 0:
            factors[p] = factors.get(p, 0) + 1
            n //= p
        p += 1 if p == 2 else 2
    if n > 1:
        factors[n] = factors.get(n, 0) + 1
    return factors


def small_number_theory() -> None:
    """Give the engine trial-division divisors, primality and factors below :data:`SMALL` (in this worker only).

    >>> import sympy
    >>> from duel_lessons.engine import rules
    >>> saved = rules.divisors, rules.is_prime, rules.factorint
    >>> small_number_theory()
    >>> all(rules.divisors(n) == [int(d) for d in sympy.divisors(n)] for n in range(1, 3000))
    True
    >>> all(rules.is_prime(n) == sympy.isprime(n) and rules.factorint(n) == sympy.factorint(n) for n in range(1, 3000))
    True
    >>> rules.divisors, rules.is_prime, rules.factorint = saved
    """
    from duel_lessons.engine import numbers, rules

    def divisors(n: int) -> list[int]:
        if not 1 <= n < SMALL:
            return numbers.divisors(n)
        low, high = [], []
        d = 1
        while d * d <= n:
            if n % d == 0:
                low.append(d)
                if d * d != n:
                    high.append(n // d)
            d += 1
        return low + high[::-1]

    def is_prime(n: int) -> bool:
        if not 0 <= n < SMALL:
            return numbers.is_prime(n)
        return n >= 2 and _trial_factors(n) == {n: 1}

    def factorint(n: int) -> dict[int, int]:
        if not 1 <= n < SMALL:
            return numbers.factorint(n)
        return _trial_factors(n)

    vars(rules).update(divisors=divisors, is_prime=is_prime, factorint=factorint)


def warm_up(rules: Rules) -> None:
    """Compute one position's moves, so imports and caches are ready before a bot's clock runs."""
    _ = GameState(rules, max(rules.default_start, 2)).legal_moves


def serve(
    sock: socket.socket,
    bot: Callable[[GameState], object] | tuple[str, str | None],
    rules: Rules,
    memory: int,
    output_limit: int,
    uid: int | None = None,
    restricted: bool = True,
    hide: list[str] | tuple[str, ...] = (),
) -> None:
    """Prepare this process (imports, folders, limits, user), load the bot, then answer the referee's requests.

    A bot file given as ``(path, None)`` is the worker's private copy, read here; ``hide`` are the folders
    of the other bot files and their copies, given where bubblewrap did not run: they are covered in
    namespaces of the worker's own, without a network (:func:`own_namespaces`).
    """
    failed = None
    if isinstance(bot, tuple) and bot[1] is None:
        try:
            bot = (bot[0], read_own_copy(bot[0]))
        except (OSError, UnicodeDecodeError) as error:
            failed = f"could not read its copy: {_describe(error)}"
    if "sympy" not in sys.modules:
        small_number_theory()
    wanted = _imports(bot[1]) if isinstance(bot, tuple) and bot[1] is not None else []
    _preload(["ctypes", "encodings.idna", "json.decoder", *PRELOAD, *wanted])
    warm_up(rules)
    hidden = own_namespaces(hide) if hide else None
    limit_resources(memory)
    not_root = drop_privileges(uid)
    die_with_parent()
    out = _CappedText(output_limit)
    reader = sock.makefile("rb")

    def send(message: dict[str, Any]) -> None:
        message["output"] = out.take()
        sock.sendall(json.dumps(message).encode("ascii") + b"\n")

    sys.stdout = sys.stderr = out
    if failed is not None:
        send({"seq": 0, "failed": failed})
        return
    try:
        function = load_bot(bot, restricted)  # type: ignore[arg-type]
    except BaseException as error:
        sys.stdout = sys.stderr = out
        send({"seq": 0, "failed": f"could not be loaded: {_describe(error)}", "traceback": _trace()})
        return
    send(
        {
            "seq": 0,
            "ready": True,
            "not_root": not_root,
            "hidden": hidden,
            "nested": bool(hide) and os.getpid() == 2,  # forked into a pid namespace of its own (no bubblewrap)
        }
    )
    for line in reader:
        request = json.loads(line)
        sys.stdout = sys.stderr = out  # the bot may have replaced them
        reply = _answer(function, decode_state(rules, request["state"]))
        reply["seq"] = request["seq"]
        sys.stdout = sys.stderr = out
        send(reply)


def worker_main(
    bot: Callable[[GameState], object] | tuple[str, str],
    rules: Rules,
    sock: socket.socket,
    memory: int,
    output_limit: int,
    uid: int | None = None,
    restricted: bool = True,
) -> None:
    """The entry point of a worker started by multiprocessing (fork on Linux for functions, spawn elsewhere)."""
    global _PARENT
    _PARENT = os.getppid()
    _forget_bot_files()
    _close_inherited_files(sock.fileno())
    serve(sock, bot, rules, memory, output_limit, uid, restricted)


def _forget_bot_files() -> None:
    """In a worker forked from a referee: drop the text of every bot file the referee read (not this bot's business)."""
    import gc

    for obj in gc.get_objects():  # (found by name: this module may not import the sandbox, which imports it)
        kind = type(obj)
        if kind.__name__ == "BotFile" and kind.__module__ == "duel_lessons.play.sandbox":
            object.__setattr__(obj, "source", None)
    gc.collect()


def main(argv: list[str] | None = None) -> None:
    """``python -m duel_lessons.play.bot_worker FD``: a fresh interpreter whose socket is file descriptor FD."""
    args = sys.argv[1:] if argv is None else argv
    fd = int(args[0])
    _close_inherited_files(fd)
    sock = socket.socket(fileno=fd)
    reader = sock.makefile("rb")
    spec = pickle.loads(base64.b64decode(json.loads(reader.readline())["spec"]))  # from the referee, trusted
    del reader
    bot = spec["bot"]
    if isinstance(bot, bytes):  # a function pickled by reference: its module is imported here, before any limit
        bot = pickle.loads(bot)
    serve(sock, bot, spec["rules"], spec["memory"], spec["output_limit"], spec["uid"], spec["restricted"], spec["hide"])


if __name__ == "__main__":
    main()
