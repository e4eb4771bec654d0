"""The restricted namespace a bot file runs in: allowlists of modules and names, and one rule for attributes.

A bot file may import only :data:`ALLOWED_MODULES`, and from each only the names in
:data:`BOT_MODULES`, as a :class:`BotModule` that refuses any other name by name.  Its builtins
have no ``open``, ``eval``, ``exec``, ``type`` or ``__import__``; ``getattr``, ``hasattr``,
``operator.attrgetter`` and ``operator.methodcaller`` check the name they are given, as an exact
``str``, by the rule :func:`attribute_refusal` applies to an attribute in the source.  Used by the
worker (:mod:`duel_lessons.play.bot_worker`), in the bot's own process.

>>> restricted_code("import os", "bot.py")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
duel_lessons.play.bot_namespace.RestrictedError: bot.py, line 1: a bot may import only math, cmath, ..., not os
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import importlib
import operator
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

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
    duel_lessons.play.bot_namespace.RestrictedError: a bot must give an attribute name as a str, not int
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

    def visit_MatchAs(self, node: ast.MatchAs) -> None:  # case __del__: binds a name, as an assignment does
        self._name(node, node.name)
        self.generic_visit(node)

    def visit_MatchStar(self, node: ast.MatchStar) -> None:  # case [*__rest]
        self._name(node, node.name)

    def visit_MatchMapping(self, node: ast.MatchMapping) -> None:  # case {**__rest}
        self._name(node, node.rest)
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


def restricted_builtins() -> dict[str, Any]:
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


def imports_of(source: str) -> list[str]:
    """The allowed modules a bot file imports (imported before the worker leaves the referee's user)."""
    with contextlib.suppress(SyntaxError, ValueError, RecursionError, MemoryError):
        found = []
        for node in ast.walk(ast.parse(source)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            found += [n for n in names if n in BOT_MODULES]
        return found
    return []
