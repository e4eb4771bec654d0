"""Where rule books are found by name: the shipped books (read-only) and custom variants.

Every module in the :mod:`duel_lessons.books` package is a shipped rule book: it defines
``RULES`` (its :class:`~duel_lessons.engine.rules.Rules`) and ``BOOK_NUMBERS`` (the file
numbers of its books, such as ``("003",)``).  The package is scanned with :mod:`pkgutil`
on the first lookup, so adding a book is adding one file; nothing imports the books by name.

Custom variants live in a registry of their own.  Lookups try the shipped books first, so a
custom variant can never change what a shipped name means, and registering one under a
shipped name is refused.

This module knows nothing about what a book holds besides ``RULES``, ``BOOK_NUMBERS`` and
``name``; :mod:`duel_lessons.engine.rules` builds the rule book registry from it.

>>> shelf = Registry("duel_lessons.books", "RULES")
>>> shelf.get("003").name
'factor-duel'
"""

from __future__ import annotations

import difflib
import importlib
import pkgutil
import threading
from collections.abc import Iterator, Mapping
from types import ModuleType
from typing import Generic, Protocol, TypeVar

from duel_lessons.engine.errors import RulesError


class Named(Protocol):
    """Anything with a name: what a registry holds."""

    @property
    def name(self) -> str: ...


T = TypeVar("T", bound=Named)


def normalise(name: object) -> str:
    """The lookup key of a name: lower case, spaces and underscores as hyphens.

    >>> normalise(" Divisor_Duel ")
    'divisor-duel'
    """
    return str(name).strip().lower().replace("_", "-").replace(" ", "-")


class Registry(Generic[T]):
    """Shipped entries (one per module of ``package``, read-only) and custom ones (added by :meth:`register`)."""

    def __init__(self, package: str, attribute: str, kind: str = "rule book") -> None:
        self.package = package
        self.attribute = attribute
        self.kind = kind
        self._lock = threading.RLock()
        self._modules: tuple[ModuleType, ...] | None = None
        self._shipped: dict[str, T] = {}
        self._numbers: dict[str, str] = {}
        self._custom: dict[str, T] = {}

    # -- the shipped books -------------------------------------------------------

    def modules(self) -> tuple[ModuleType, ...]:
        """Every module of the package that defines the attribute, in name order (scanned once)."""
        with self._lock:
            if self._modules is None:
                self._scan()
            assert self._modules is not None
            return self._modules

    def _scan(self) -> None:
        package = importlib.import_module(self.package)
        found: list[ModuleType] = []
        shipped: dict[str, T] = {}
        numbers: dict[str, str] = {}
        modules = [
            importlib.import_module(f"{self.package}.{info.name}")
            for info in pkgutil.iter_modules(package.__path__)
            if not info.name.startswith("_")
        ]
        # Books in the order of their book numbers (000, 001, ...); books without a number last, by name.
        modules.sort(key=lambda m: (min(getattr(m, "BOOK_NUMBERS", ()) or ("~",)), m.__name__))
        for module in modules:
            entry = getattr(module, self.attribute, None)
            if entry is None:
                continue
            key = normalise(entry.name)
            if key in shipped:
                raise RulesError(f"Two {self.kind}s are named {entry.name!r} ({module.__name__}).")
            shipped[key] = entry
            for number in getattr(module, "BOOK_NUMBERS", ()):
                numbers[str(number)] = key
            found.append(module)
        self._modules, self._shipped, self._numbers = tuple(found), shipped, numbers

    def rescan(self) -> None:
        """Scan the package again (after a book module was added at run time, e.g. in a test)."""
        with self._lock:
            self._modules = None
            self.modules()

    @property
    def shipped(self) -> Mapping[str, T]:
        """The shipped entries by name (a read-only view)."""
        return ShippedView(self)

    def _shipped_dict(self) -> dict[str, T]:
        self.modules()
        return self._shipped

    # -- custom entries ----------------------------------------------------------

    @property
    def custom(self) -> Mapping[str, T]:
        """The custom entries by name (a copy)."""
        with self._lock:
            return dict(self._custom)

    def register(self, entry: T) -> T:
        """Add a custom entry so that it can be named; a shipped name is refused (RulesError)."""
        key = normalise(entry.name)
        with self._lock:
            self.modules()
            if key in self._shipped or key in self._numbers:
                raise RulesError(
                    f"{entry.name!r} is the name of a shipped {self.kind}, which cannot be replaced. "
                    f"Give the variant a name of its own, e.g. {entry.name + '-custom'!r}."
                )
            self._custom[key] = entry
        return entry

    def unregister(self, name: str) -> None:
        """Forget a custom entry (shipped ones cannot be removed)."""
        with self._lock:
            self._custom.pop(normalise(name), None)

    # -- lookup ------------------------------------------------------------------

    def get(self, name: object) -> T:
        """The entry with this name or book number: shipped first, then custom (RulesError if unknown)."""
        if not isinstance(name, str):
            raise RulesError(f"A {self.kind} is named by text such as 'divisor-duel', not {name!r}.")
        key = normalise(name)
        with self._lock:
            shipped = self._shipped_dict()
            key = self._numbers.get(key, key)
            if key in shipped:
                return shipped[key]
            if key in self._custom:
                return self._custom[key]
            known = [*shipped, *self._custom]
        close = difflib.get_close_matches(key, known, n=1)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        shown = name if len(name) <= 60 else name[:60] + "…"
        raise RulesError(f"Unknown {self.kind} {shown!r}.{hint} Known: {', '.join(known)}.")


class ShippedView(Mapping[str, T]):
    """A read-only, always current view of a registry's shipped entries."""

    def __init__(self, registry: Registry[T]) -> None:
        self._registry = registry

    def __getitem__(self, key: str) -> T:
        return self._registry._shipped_dict()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._registry._shipped_dict())

    def __len__(self) -> int:
        return len(self._registry._shipped_dict())

    def __repr__(self) -> str:
        return f"ShippedView({list(self)})"
