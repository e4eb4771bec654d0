"""Mutation testing of the critical modules, one area at a time (mutmut 3.8.1; not part of CI: slow).

    pip install mutmut==3.8.1                 # or the dev extra, which pins it
    python .ci/mutation.py --list             # the areas, their modules and tests
    python .ci/mutation.py engine             # one area: prints the score per module and the survivors
    python .ci/mutation.py engine "duel_lessons.engine.game*"   # only the mutants whose names match

The areas live in pyproject.toml, ``[tool.duel-lessons.mutation.AREA]``: the modules to mutate and
the tests that judge them. mutmut reads one configuration (``[tool.mutmut]``), so this script
copies the working tree to a temporary folder, writes the area's modules and tests into that
copy's ``[tool.mutmut]``, and runs ``mutmut run`` there: the repository is never changed, and two
areas can run side by side. docs/authoring.md ("Mutation testing") has the scores and times
measured, and the survivors judged equivalent.

The command cannot report a score it did not measure: it exits 1, with mutmut's own last lines,
when mutmut fails (its first, clean run of the tests included), when it made no mutant to check,
and when any mutant chosen was left unchecked (an interrupted run) or none got a verdict.
"""

from __future__ import annotations

import argparse
import collections
import fnmatch
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import tomllib

ROOT = Path(__file__).resolve().parents[1]


def areas(root: Path = ROOT) -> dict[str, dict[str, Any]]:
    """Area name -> {"modules": [...], "tests": [...]} (and an optional ``env`` table), from pyproject.toml."""
    tool = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
    return dict(tool["duel-lessons"]["mutation"])


def problems(root: Path = ROOT) -> list[str]:
    """Modules or test files an area names that do not exist (a renamed file leaves a stale area)."""
    found = []
    for name, area in areas(root).items():
        if not area.get("modules") or not area.get("tests"):
            found.append(f"area {name}: give both modules and tests")
        for path in [*area.get("modules", []), *(t.split("::")[0] for t in area.get("tests", []))]:
            if not (root / path).is_file():
                found.append(f"area {name}: {path} does not exist")
    return found


def with_area(pyproject: str, area: dict[str, Any]) -> str:
    """pyproject.toml's text with ``[tool.mutmut]``'s only_mutate and test selection set to the area's."""

    def toml_list(items: list[str]) -> str:
        return "[" + ", ".join('"' + item.replace("\\", "\\\\").replace('"', '\\"') + '"' for item in items) + "]"

    text, count = re.subn(r"(?m)^only_mutate = .*$", lambda _: f"only_mutate = {toml_list(area['modules'])}", pyproject)
    text, count_tests = re.subn(
        r"(?ms)^pytest_add_cli_args_test_selection = \[.*?\]$",
        lambda _: f"pytest_add_cli_args_test_selection = {toml_list(area['tests'])}",
        text,
    )
    if count != 1 or count_tests != 1:
        raise SystemExit("[tool.mutmut] needs one only_mutate and one pytest_add_cli_args_test_selection")
    return text


def scores(results: str) -> dict[str, collections.Counter[str]]:
    """Module -> Counter of statuses, from ``mutmut results --all true`` lines ``name__mutmut_N: status``."""
    by_module: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for line in results.splitlines():
        name, _, status = line.strip().rpartition(": ")
        if "__mutmut_" in name:
            module = re.split(r"\.x_|\.x\u01c1", name, maxsplit=1)[0]
            by_module[module][status] += 1
    return dict(by_module)


#: mutmut's statuses that are a verdict on the mutant (the first three count as detected).
DETECTED = ("killed", "timeout", "segfault")
VERDICTS = (*DETECTED, "survived", "suspicious", "caught by type check")


def statuses(results: str, patterns: list[str] | tuple[str, ...] = ()) -> dict[str, str]:
    """Mutant -> status, from ``mutmut results --all true``, for the mutants ``patterns`` chose (all if none).

    mutmut chooses as ``mutmut run`` does: a name equal to a pattern or matching it as a glob.

    >>> statuses("    m.x_f__mutmut_1: killed\\n    m.x_g__mutmut_1: not checked\\n", ["m.x_f*"])
    {'m.x_f__mutmut_1': 'killed'}
    """
    found = {}
    for line in results.splitlines():
        name, _, status = line.strip().rpartition(": ")
        if "__mutmut_" in name and (
            not patterns or name in patterns or any(fnmatch.fnmatchcase(name, p) for p in patterns)
        ):
            found[name] = status
    return found


def what_is_wrong(found: dict[str, str]) -> str | None:
    """Why these results are no score (nothing checked, mutants left unchecked), or None when they are one.

    >>> what_is_wrong({"m.x_f__mutmut_1": "killed", "m.x_f__mutmut_2": "survived"}) is None
    True
    >>> what_is_wrong({"m.x_f__mutmut_1": "killed", "m.x_f__mutmut_2": "not checked"})
    'mutmut left 1 of the 2 mutants unchecked (an interrupted run?): the score is incomplete'
    """
    if not found:
        return "mutmut made no mutant to check (or none matches the names given)"
    judged = sum(status in VERDICTS for status in found.values())
    if judged == 0:
        counts = dict(collections.Counter(found.values()))
        return f"mutmut checked none of the {len(found)} mutants ({counts}): there is no score"
    unchecked = sum(status in ("not checked", "check was interrupted by user") for status in found.values())
    if unchecked:
        return (
            f"mutmut left {unchecked} of the {len(found)} mutants unchecked (an interrupted run?): "
            "the score is incomplete"
        )
    return None


def last_lines(output: str, count: int = 15) -> str:
    """The last ``count`` lines a terminal would show of ``output`` (a spinner redraws one line with ``\\r``).

    >>> last_lines("a\\r- working\\r- done\\n\\nFailed to run clean test\\n", 2)
    '- done\\nFailed to run clean test'
    """
    shown = [line.rsplit("\r", 1)[-1].rstrip() for line in output.split("\n")]
    return "\n".join([line for line in shown if line][-count:])


def environment(area: dict[str, object], base: dict[str, str]) -> dict[str, str]:
    """The environment mutmut runs in: ``base`` with the area's own ``env`` table laid over it.

    >>> environment({"env": {"NUMBA_DISABLE_JIT": "1"}}, {"PATH": "/bin", "NUMBA_DISABLE_JIT": "0"})
    {'PATH': '/bin', 'NUMBA_DISABLE_JIT': '1'}
    >>> environment({}, {"PATH": "/bin"})
    {'PATH': '/bin'}
    """
    extra = area.get("env", {})
    if not isinstance(extra, dict) or not all(isinstance(v, str) for v in extra.values()):
        raise SystemExit('an area\'s env is a table of text values, e.g. env = { NUMBA_DISABLE_JIT = "1" }')
    return {**base, **extra}


def mutmut(args: list[str], cwd: Path, echo: bool, env: dict[str, str] | None = None) -> tuple[int, str]:
    """Run ``python -m mutmut ARGS`` in ``cwd``: its exit status and output (echoed as it comes when ``echo``)."""
    chunks = []
    with subprocess.Popen([sys.executable, "-m", "mutmut", *args], cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, env=env) as process:  # fmt: skip
        assert process.stdout is not None
        pipe = process.stdout.fileno()
        for chunk in iter(lambda: os.read(pipe, 65536), b""):
            chunks.append(chunk)
            if echo:
                sys.stdout.buffer.write(chunk)
                sys.stdout.flush()
    return process.returncode, b"".join(chunks).decode("utf-8", "replace")


def failed(what: str, output: str = "") -> int:
    """Say on stderr that the run measured nothing trustworthy, with mutmut's last lines; exit status 1."""
    sys.stdout.flush()
    message = f"\nMUTATION RUN FAILED: {what}."
    if output.strip():
        message += f"\nmutmut's last lines:\n{last_lines(output)}"
    print(message, file=sys.stderr)
    return 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("area", nargs="?", help="an area of pyproject's [tool.duel-lessons.mutation]")
    parser.add_argument("mutants", nargs="*", help="only the mutants matching these names (mutmut's globs)")
    parser.add_argument("--list", action="store_true", help="list the areas and stop")
    parser.add_argument("--max-children", type=int, default=2, help="mutants run at once (default 2)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary copy (its mutants/ folder)")
    args = parser.parse_intermixed_args(argv)  # options before or after the area
    known = areas()
    if args.list or args.area is None:
        for name, area in known.items():
            print(f"{name}: {', '.join(area['modules'])}\n    tests: {', '.join(area['tests'])}")
        return 0
    if args.area not in known:
        parser.error(f"no area {args.area!r}; the areas are {', '.join(known)}")
    if importlib.util.find_spec("mutmut") is None:  # run below as `python -m mutmut`
        parser.error("mutmut is not installed: pip install mutmut==3.8.1")
    env = environment(known[args.area], dict(os.environ))  # a malformed env stops here, before the copy
    copy = Path(tempfile.mkdtemp(prefix=f"duel-mutation-{args.area}-"))
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.splitlines()  # fmt: skip
    for name in files:
        if (ROOT / name).is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, copy / name)
    pyproject = copy / "pyproject.toml"
    pyproject.write_text(with_area(pyproject.read_text(encoding="utf-8"), known[args.area]), encoding="utf-8")
    for name, value in known[args.area].get("env", {}).items():
        print(f"(the area runs with {name}={value})")
    began = time.monotonic()
    try:
        run = ["run", "--max-children", str(args.max_children), *args.mutants]
        code, output = mutmut(run, copy, echo=True, env=env)
        if code != 0:
            return failed(f"`mutmut run` exited with status {code}", output)
        code, results = mutmut(["results", "--all", "true"], copy, echo=False, env=env)
        if code != 0:
            return failed(f"`mutmut results` exited with status {code}", results)
    finally:
        if not args.keep:
            shutil.rmtree(copy, ignore_errors=True)
        else:
            print(f"The copy is kept in {copy} (mutmut show NAME there).")
    found = statuses(results, args.mutants)
    minutes = (time.monotonic() - began) / 60
    chosen = f" (the mutants matching {' '.join(args.mutants)})" if args.mutants else ""
    print(f"\nArea {args.area}{chosen}: {minutes:.1f} minutes")
    for module, counts in sorted(scores("\n".join(f"{k}: {v}" for k, v in found.items())).items()):
        total = sum(counts.values())
        detected = sum(counts[status] for status in DETECTED)
        print(f"  {module}: {detected} of {total} detected ({dict(counts)})")
    survivors = [name for name, status in found.items() if status == "survived"]
    print("Survivors (each needs a test, or a line in docs/authoring.md saying why it is equivalent):")
    print("\n".join(f"  {s}" for s in survivors) or "  none")
    unjudged = [f"{name}: {status}" for name, status in found.items() if status not in (*VERDICTS, "not checked")]
    if unjudged:
        print("No verdict (no test ran them, or skipped):")
        print("\n".join(f"  {s}" for s in unjudged))
    wrong = what_is_wrong(found)
    return failed(wrong, output) if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
