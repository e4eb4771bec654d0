"""Each lesson's time is stated once in its notebook, at most 50 minutes, and the README and teacher guide agree."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))
TIME = re.compile(r"\bTime:\**\s*(\d+)\s+minutes")


def stated_times(path: Path) -> list[int]:
    """Every "Time: N minutes" in a notebook's markdown cells."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return [int(m) for m in TIME.findall(text)]


def lessons() -> list[Any]:
    params = []
    for path in LESSONS:
        marks = []
        if not stated_times(path):
            marks = [pytest.mark.xfail(reason=f"{path.name} does not yet say 'Time: N minutes'", strict=True)]
        params.append(pytest.param(path, id=path.stem, marks=marks))
    return params


def readme_time(stem: str) -> list[int]:
    """The README lessons table's time for a lesson (rows like | `04-name` | ... | 50 min |)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return [int(m) for m in re.findall(rf"^\| `{re.escape(stem)}` \|.*\| (\d+) min \|\s*$", readme, re.M)]


def guide_times(number: str) -> list[int]:
    """Every time the teacher guide gives a lesson: "**NN title** (T min)" and "Lesson NN: title (T min)"."""
    guide = (ROOT / "docs" / "teacher-guide.md").read_text(encoding="utf-8")
    found = re.findall(rf"\*\*{number} [^*]*\*\* \((\d+)[^)]*min", guide)
    found += re.findall(rf"^### Lesson {number}: .*\((\d+) min\)\s*$", guide, re.M)
    return [int(t) for t in found]


@pytest.mark.parametrize("path", lessons())
def test_time_is_stated_once_and_fits_a_period(path: Path) -> None:
    times = stated_times(path)
    assert len(times) == 1, f"{path.name} states its time {len(times)} times: {times}"
    assert times[0] <= 50


@pytest.mark.parametrize("path", lessons())
def test_readme_and_teacher_guide_agree(path: Path) -> None:
    (minutes,) = stated_times(path)
    assert readme_time(path.stem) == [minutes], f"README's lessons table for {path.stem}"
    guide = guide_times(path.stem[:2])
    assert guide and set(guide) == {minutes}, f"teacher guide for lesson {path.stem[:2]}: {guide}"


def test_the_time_readers_can_fail(tmp_path: Path) -> None:
    nb = tmp_path / "99-x.ipynb"
    nb.write_text(
        json.dumps({"cells": [{"cell_type": "markdown", "source": ["**Time:** 60 minutes\nTime: 5 minutes"]}]})
    )
    assert stated_times(nb) == [60, 5]
    assert readme_time("99-no-such-lesson") == []


def map_rows() -> dict[str, int]:
    """Lesson 00's map: linked file name -> the time it gives."""
    cells = json.loads((ROOT / "notebooks" / "00-start-here.ipynb").read_text(encoding="utf-8"))["cells"]
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return {
        name: int(t) for name, t in re.findall(r"^\| \[[^]]+\]\(([\w-]+\.ipynb)\) \|.*\| (\d+) min \|$", text, re.M)
    }


@pytest.mark.parametrize("path", lessons())
def test_lesson_00s_map_links_every_lesson_with_its_time(path: Path) -> None:
    (minutes,) = stated_times(path)
    assert map_rows().get(path.name) == minutes, f"lesson 00's map row for {path.name}"
