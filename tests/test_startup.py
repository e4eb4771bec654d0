"""Every command starts fast: only the command's own module is imported, and start-up costs at most 0.5 s of CPU.

Start-up used to import every command's module, and with it nbformat (which builds jsonschema's
and rfc3987_syntax's grammars), numba and sympy: 1.5-3.7 s of CPU before anything happened. Now
``duel_lessons.cli.app`` imports only the module of the command being run. These tests check
which heavy libraries each start-up imports (deterministic), and measure the CPU time (not wall
time, which load changes) of each start-up in a fresh process, with Python's bytecode cache
warm as in an installed package, taking the least of three runs.
"""

from __future__ import annotations

import io
import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from duel_lessons.cli.app import COMMANDS, build_parser, main

ROOT = Path(__file__).resolve().parents[1]
#: Libraries a start-up must not import unless its command needs them.
HEAVY = ("nbformat", "jsonschema", "numba", "sympy", "matplotlib", "ipywidgets")
#: The start-ups measured: help, every command's help, and commands up to their first work.
STARTS = [["--help"], *([name, "--help"] for summaries in COMMANDS.values() for name in summaries),
          ["rules", "divisor-duel"], ["play"]]  # fmt: skip
LIMIT_S = 0.5


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment, with bytecode as an installed package has it (pip compiles on install): a private cache."""
    variables = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    variables["PYTHONPYCACHEPREFIX"] = str(tmp_path_factory.mktemp("pycache"))
    return variables


def test_the_summaries_match_the_commands_own() -> None:
    """app.COMMANDS lists each module's subcommands with the summary the module itself gives."""
    parser = build_parser("*")
    (action,) = parser._subparsers._group_actions  # type: ignore[union-attr]
    real = {choice.dest: choice.help for choice in action._choices_actions}
    listed = {name: summary for summaries in COMMANDS.values() for name, summary in summaries.items()}
    assert listed == real


def test_help_lists_every_command_without_importing_them() -> None:
    out = io.StringIO()
    assert main(["--help"], stdout=out, stderr=io.StringIO()) == 0
    for summaries in COMMANDS.values():
        for name, summary in summaries.items():
            assert name in out.getvalue() and summary[:40] in " ".join(out.getvalue().split())


def imported(args: list[str], env: dict[str, str]) -> set[str]:
    """The heavy libraries imported by ``duel-lessons ARGS`` (stdin empty) in a fresh process."""
    with tempfile.TemporaryDirectory() as folder:
        found = Path(folder) / "imported.txt"  # not stderr: a command that ends its input may silence that
        script = (
            "import sys\n"
            "from duel_lessons.cli import main\n"
            f"code = main({args!r})\n"
            f"open({str(found)!r}, 'w').write(' '.join(m for m in {HEAVY!r} if m in sys.modules))\n"
        )
        subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300,
                       stdin=subprocess.DEVNULL, cwd=ROOT, check=False)  # fmt: skip
        return set(found.read_text(encoding="utf-8").split())


@pytest.mark.parametrize("args", STARTS, ids=" ".join)
def test_a_start_imports_only_what_the_command_needs(args: list[str], env: dict[str, str]) -> None:
    needs = {"play": {"sympy"}}.get(args[0], set()) if args[-1] != "--help" else set()
    assert imported(args, env) <= needs


def cpu_seconds(args: list[str], env: dict[str, str]) -> float:
    """CPU time (user + system) of ``python -m duel_lessons ARGS`` in a fresh process, stdin empty."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "duel_lessons", *args], env=env, stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300, cwd=ROOT)  # fmt: skip
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def test_every_start_takes_at_most_half_a_second_of_cpu(env: dict[str, str]) -> None:
    for args in STARTS:  # warm the bytecode cache
        cpu_seconds(args, env)
    times = {" ".join(args): min(cpu_seconds(args, env) for _ in range(3)) for args in STARTS}
    print("\n" + "\n".join(f"  {name}: {seconds:.2f} s CPU" for name, seconds in times.items()))
    slow = {name: round(seconds, 2) for name, seconds in times.items() if seconds > LIMIT_S}
    assert not slow, f"start-ups over {LIMIT_S} s of CPU: {slow}"


#: The modules that run bots in the sandbox (separate processes, measured with psutil): they need psutil.
#: The tournament, its league plot and lesson 12's checks do not: without processes (JupyterLite) the bots
#: run in the kernel (play/in_kernel.py), and tests/test_lite.py runs every lesson so.
SANDBOXED = {
    "duel_lessons.play.sandbox",
    "duel_lessons.play.isolation",
    "duel_lessons.play.bot_worker",
    "duel_lessons.play.bot_copies",
}


def test_the_library_imports_without_numba_and_psutil(tmp_path: Path) -> None:
    """Where neither installs (Pyodide/JupyterLite), every module but the sandbox's imports, and the solver runs."""
    for name in ("numba", "psutil"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(f"raise ImportError('{name} hidden by the test')\n")
    script = (
        "import importlib, json, pkgutil, duel_lessons\n"
        "failed = {}\n"
        "for module in pkgutil.walk_packages(duel_lessons.__path__, 'duel_lessons.'):\n"
        "    if not module.name.endswith('__main__'):\n"
        "        try:\n"
        "            importlib.import_module(module.name)\n"
        "        except ImportError as error:\n"
        "            failed[module.name] = str(error)\n"
        "from duel_lessons.solving.tables import compiled, tabulate\n"
        "print(json.dumps([failed, compiled(), tabulate('factor-duel', 3000).outcome[:6].tolist()]))\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    failed, compiled, outcome = json.loads(run.stdout.strip().splitlines()[-1])
    assert set(failed) <= SANDBOXED, failed
    assert all("psutil hidden" in reason for reason in failed.values()), failed
    assert compiled is False and outcome[:2] == [-1, 1]
