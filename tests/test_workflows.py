"""The GitHub workflow that runs the tests (.github/workflows/test.yml): when it runs, what it runs, on what."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]


def workflow(name: str) -> dict[Any, Any]:
    loaded = yaml.safe_load((ROOT / ".github" / "workflows" / name).read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def triggers(flow: dict[Any, Any]) -> Any:
    """The ``on:`` of a workflow (YAML 1.1, which PyYAML reads, takes a bare ``on`` for True)."""
    return flow["on"] if "on" in flow else flow[True]


def test_the_tests_run_on_every_push_and_pull_request() -> None:
    on = triggers(workflow("test.yml"))
    assert set(on) == {"push", "pull_request"}
    assert on["push"] is None and on["pull_request"] is None  # no branch or path filter: every one


def test_the_job_runs_ci_run_with_chromium_and_bubblewrap_from_debian() -> None:
    flow = workflow("test.yml")
    (job,) = flow["jobs"].values()
    assert job["container"]["image"] == "python:3.11-bookworm"  # Debian 12, Python 3.11, root
    assert "--privileged" in job["container"]["options"]  # bubblewrap's namespaces in a container
    assert job["env"]["CI"] == "true"  # tests/test_quality.py fails rather than skips without the linters
    runs = [step["run"] for step in job["steps"] if "run" in step]
    installs = [run for run in runs if "apt-get install" in run]
    assert len(installs) == 1 and {"chromium", "bubblewrap"} <= set(installs[0].split())
    assert runs.index(installs[0]) < runs.index("bash .ci/run")  # installed first: .ci/run finds them
    assert runs[-1] == "bash .ci/run"


def test_ci_run_runs_the_readmes_command_2() -> None:
    """.ci/run, which the workflow runs, holds the two halves of the README's command 2, in a fresh venv."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    set_up = readme.split("## Set up", 1)[1].split("\n## ", 1)[0]
    block = set_up.split("```bash\n", 1)[1].split("```", 1)[0]
    command = [line for line in block.splitlines() if line.strip() and not line.startswith("#")][1]
    install, test = command.split(" && ")[-2:]
    assert (install, test) == ('pip install -e ".[dev]"', "python -m pytest")
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert lines.index(install) < lines.index(test)
    assert lines.index("python3 -m venv .venv") < lines.index(install)
    assert "export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_PROGRESS_BAR=off CI=true" in lines


def test_the_workflow_uses_only_githubs_own_actions_at_a_major_version() -> None:
    (job,) = workflow("test.yml")["jobs"].values()
    uses = [step["uses"] for step in job["steps"] if "uses" in step]
    assert uses == ["actions/checkout@v4"]
    for name in ("test.yml", "student.yml", "release.yml"):  # the same pins everywhere
        for job in workflow(name)["jobs"].values():
            for step in job["steps"]:
                if step.get("uses", "").startswith("actions/"):
                    assert re.fullmatch(r"actions/[a-z-]+@v\d+", step["uses"]), (name, step["uses"])


def test_the_student_workflow_builds_the_jupyterlite_site_and_publishes_it_only_when_asked() -> None:
    """The job `lite` builds the site with the project's own command (tests/test_lite.py builds it for real)."""
    from duel_lessons.cli.app import build_parser

    jobs = workflow("student.yml")["jobs"]
    lite, pages = jobs["lite"], jobs["pages"]
    runs = [step["run"] for step in lite["steps"] if "run" in step]
    assert 'python -m pip install -e ".[lite]"' in runs  # the extra that holds jupyterlite-core and the kernel
    (build,) = [run for run in runs if run.startswith("duel-lessons ")]
    args = build_parser("student-lite").parse_args(build.split()[1:])
    assert args.func.__name__ == "run_student_lite"
    (upload,) = [step for step in lite["steps"] if step.get("uses", "").startswith("actions/upload-pages-artifact")]
    assert upload["with"]["path"] == args.dest  # the folder built is the one kept
    assert lite["permissions"] == {"contents": "read"}
    # Published on GitHub Pages only where the repository asks (a fork without Pages stays green).
    assert pages["needs"] == "lite" and "vars.PUBLISH_LITE == 'true'" in pages["if"]
    assert [step["uses"] for step in pages["steps"]] == ["actions/deploy-pages@v4"]
    assert pages["permissions"] == {"pages": "write", "id-token": "write"}
