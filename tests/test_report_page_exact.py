"""teaching.report_page, value by value: the class's numbers, the CSV, the HTML page and its chart.

A class of four hand-ins is built by hand (no notebook is run) and every expected value below is
worked out from it by hand (issue 30: the `report` area's mutants; the older class-report tests
re-execute notebooks, too slow to judge mutants).

The class: lesson 04 with exercises 1, order and why (titles: "order" is "Proof step 1 (N − d as a
product)", "why" is "Explain: why 12 wins", 1 has none), a guess "first" and a test "even".

- ana, graded: 1 right, order wrong ("B comes before A."), met with-1 twice and swap, guessed 1,
  first counterexample 6, explained "It is even.".
- ben, graded: 1 wrong ("Is 1 allowed?"), order wrong ("B comes before A."), met with-1, zero and
  "a:b" (a key holding a colon), guessed 2, counterexample 6, explained at length.
- cy, not graded (another lesson), with a stale right verdict, mistake and history.
- dee, graded: 1 partial but its mistake was not judged, why right, its saved "right" on 1 not
  borne out, and a note.
"""

from __future__ import annotations

import base64
import csv
import io
import struct
from collections import Counter
from typing import Any, ClassVar

import pytest

from duel_lessons.teaching import report_page
from duel_lessons.teaching.notebook_plan import Plan
from duel_lessons.teaching.report_page import ClassReport, Row, spreadsheet_safe

PLAN = Plan(
    "04",
    {"start": 12, "rules": "divisor-duel"},
    checks={"1": "answer_1", "order": "", "why": "why_1"},
    guesses={"first": "guess_1"},
    tests={"even": ("rule_1", 50)},
)
TITLES = {"order": "Proof step 1 (N − d as a product)", "why": "Explain: why 12 wins"}
DEE_WHY = "the record saved in the file says right, but the answer re-run here is only partly right"
BEN_SAID = "Because twelve has a proper divisor."


def class_of_four() -> ClassReport:
    ana = Row(
        "ana",
        "ana.ipynb",
        verdicts={"1": "right", "order": "wrong"},
        mistakes={"order": "B comes before A."},
        tries={"1": 2, "order": 3},
        history=Counter({"1:with-1": 2, "order:swap": 1, "10:far": 1}),
        guesses={"first": "1"},
        counterexamples={"even": "6"},
        explanations={"why": "It is even."},
    )
    ben = Row(
        "ben",
        "ben.ipynb",
        verdicts={"1": "wrong", "order": "wrong"},
        mistakes={"1": "Is 1 allowed?", "order": "B comes before A."},
        history=Counter({"1:with-1": 1, "1:zero": 1, "order:a:b": 1}),
        guesses={"first": "2"},
        counterexamples={"even": "6"},
        explanations={"why": BEN_SAID},
    )
    cy = Row(
        "cy",
        "cy.ipynb",
        status="is lesson 03, not lesson 04",
        verdicts={"1": "right"},
        mistakes={"1": "Ignored."},
        history=Counter({"1:with-1": 1}),
        guesses={"first": "1"},
    )
    dee = Row(
        "dee",
        "dee.ipynb",
        verdicts={"1": "partial", "why": "right"},
        mistakes={"1": "not judged: it ran out of time"},
        not_borne_out=["1"],
        disagreed={"1": DEE_WHY},
        note="another file has the same student name",
    )
    return ClassReport(PLAN, [ana, ben, cy, dee], titles=dict(TITLES))


def test_the_fixed_names_colours_and_hatches() -> None:
    assert report_page.OUTCOMES == ("right", "partial", "wrong", "blank")
    assert report_page.COLOURS == {"right": "#009E73", "partial": "#E69F00", "wrong": "#D55E00", "blank": "#BBBBBB"}
    assert report_page.HATCHES == {"right": "", "partial": "//", "wrong": "xx", "blank": ".."}
    assert report_page.FORMULA_STARTS == ("=", "+", "-", "@", "\t", "\r")


def test_a_row_starts_empty_and_graded() -> None:
    row = Row("ana", "ana.ipynb")
    assert (row.status, row.note, row.graded) == ("graded", "", True)
    assert row.verdicts == row.mistakes == row.tries == row.guesses == row.counterexamples == {}
    assert row.final_tests == row.disagreed == row.explanations == {} and row.not_borne_out == []
    assert row.history == Counter() and isinstance(row.history, Counter)
    other = Row("ben", "ben.ipynb")
    other.verdicts["1"] = "right"
    other.history["1:k"] += 1
    assert row.verdicts == {} and row.history == Counter()  # each row its own
    assert not Row("cy", "cy.ipynb", status="is not a regular file").graded


@pytest.mark.parametrize(
    ("cell", "safe"),
    [
        ("=1+1", "'=1+1"),
        ("+1", "'+1"),
        ("-1", "'-1"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("a=1", "a=1"),
        ("", ""),
        ("ana", "ana"),
        (-3, -3),
        (2, 2),
    ],
)
def test_a_csv_cell_never_starts_a_formula(cell: object, safe: object) -> None:
    assert spreadsheet_safe(cell) == safe


def test_counts_per_exercise_are_of_graded_students_and_missing_is_blank() -> None:
    report = class_of_four()
    assert report.checks == ["1", "order", "why"]
    assert report.counts("1") == Counter({"right": 1, "wrong": 1, "partial": 1})
    assert report.counts("order") == Counter({"wrong": 2, "blank": 1})
    assert report.counts("why") == Counter({"blank": 2, "right": 1})


def test_the_named_mistakes_are_of_graded_students() -> None:
    report = class_of_four()
    assert report.mistakes("1") == Counter({"Is 1 allowed?": 1, "not judged: it ran out of time": 1})
    assert report.mistakes("order") == Counter({"B comes before A.": 2})
    assert report.mistakes("why") == Counter()


def test_met_while_trying_counts_students_not_times() -> None:
    report = class_of_four()
    # ana met with-1 twice: one student; cy's history counts (it is what the file shows); 10:far is not exercise 1's
    assert report.met_while_trying("1") == Counter({"with-1": 3, "zero": 1})
    assert report.met_while_trying("order") == Counter({"swap": 1, "a:b": 1})
    assert report.met_while_trying("why") == Counter()


def test_guesses_and_counterexamples_of_every_row() -> None:
    report = class_of_four()
    assert report.guesses("first") == Counter({"1": 2, "2": 1})
    assert report.counterexamples("even") == Counter({"6": 2})
    assert report.guesses("other") == Counter() == report.counterexamples("other")


def test_titles_and_short_titles() -> None:
    report = class_of_four()
    report.titles["long"] = "Abcdefghijklmnopqrstuvwxyz (more)"
    report.titles["2"] = ""  # an empty title is no title
    assert [report.title(c) for c in ("1", "order", "why", "first", "2")] == [
        "Exercise 1",
        "Proof step 1 (N − d as a product)",
        "Explain: why 12 wins",
        "first",
        "Exercise 2",
    ]
    assert [report.short(c) for c in ("1", "order", "why", "first", "long")] == [
        "Exercise 1",
        "Proof step 1",
        "Explain",
        "first",
        "Abcdefghijklmnopqrstuvwx",
    ]
    assert report.short("a (b: c)") == "a" and report.short("a: b (c)") == "a"


def test_misconceptions_commonest_first_without_the_unjudged_and_ungraded() -> None:
    assert class_of_four().misconceptions() == [
        ("Proof step 1 (N − d as a product)", "B comes before A.", ["ana", "ben"]),
        ("Exercise 1", "Is 1 allowed?", ["ben"]),
    ]


def test_misconceptions_tied_are_ordered_by_exercise_then_words() -> None:
    plan = Plan("04", {}, checks={"b": "", "a": ""})
    rows = [
        Row("ana", "a.ipynb", mistakes={"b": "Zed.", "a": "Why."}),
        Row("ben", "b.ipynb", mistakes={"b": "Alpha."}),
        Row("cy", "c.ipynb", mistakes={"b": "Zed."}),
    ]
    assert ClassReport(plan, rows).misconceptions() == [
        ("b", "Zed.", ["ana", "cy"]),
        ("a", "Why.", ["ana"]),
        ("b", "Alpha.", ["ben"]),
    ]
    # by exercise, not by who made them: ben's mistake on a comes before ana's on b
    rows = [Row("ana", "a.ipynb", mistakes={"b": "B."}), Row("ben", "b.ipynb", mistakes={"a": "A."})]
    assert ClassReport(plan, rows).misconceptions() == [("a", "A.", ["ben"]), ("b", "B.", ["ana"])]


def test_explanations_and_who_is_stuck() -> None:
    report = class_of_four()
    assert report.explanations() == {"why": [("ana", "It is even."), ("ben", BEN_SAID)]}
    assert report.stuck() == {"1": ["ben", "dee"], "order": ["ana", "ben", "dee"], "why": ["ana", "ben"]}


def test_the_csv_row_by_row() -> None:
    assert class_of_four().csv_text() == (
        "student,file,status,right,exercise 1,exercise 1 mistake,exercise 1 tries,exercise order,"
        "exercise order mistake,exercise order tries,exercise why,exercise why mistake,exercise why tries\n"
        "ana,ana.ipynb,graded,1,right,,2,wrong,B comes before A.,3,,,\n"
        "ben,ben.ipynb,graded,0,wrong,Is 1 allowed?,,wrong,B comes before A.,,,,\n"
        'cy,cy.ipynb,"is lesson 03, not lesson 04",,,Ignored.,,,,,,,\n'
        "dee,dee.ipynb,graded,1,partial,not judged: it ran out of time,,,,,right,,\n"
    )


def test_the_csv_runs_no_formula_in_any_cell() -> None:
    plan = Plan("04", {}, checks={"=1": ""})
    row = Row("=cmd()", "+x.ipynb", status="graded", verdicts={"=1": "right"}, mistakes={"=1": "-2 is no move."})
    assert ClassReport(plan, [row]).csv_text() == (
        "student,file,status,right,exercise =1,exercise =1 mistake,exercise =1 tries\n"
        "'=cmd(),'+x.ipynb,graded,1,right,'-2 is no move.,\n"
    )
    assert list(csv.reader(io.StringIO(ClassReport(plan, [row]).csv_text())))[1][:2] == ["'=cmd()", "'+x.ipynb"]


def test_the_csv_of_an_empty_class_is_its_header() -> None:
    assert ClassReport(Plan("00", {}), []).csv_text() == "student,file,status,right\n"


def expected_page(chart: str) -> str:
    tries = "ana, ben"
    return "\n".join(
        [
            "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
            "<title>Class report: lesson 04</title>",
            f"<style>{report_page.STYLE}</style></head><body>",
            "<h1>Class report: lesson 04</h1>",
            "<p>4 notebooks handed in; 3 re-run and judged with the teacher's parameters "
            "(start=12, rules=&#x27;divisor-duel&#x27;).</p>",
            "<h2>What to teach tomorrow</h2>",
            "<h3>The commonest mistakes</h3><ul>",
            f"<li><b>Proof step 1 (N − d as a product)</b>: B comes before A. <i>(2: {tries})</i></li>",
            "<li><b>Exercise 1</b>: Is 1 allowed? <i>(1: ben)</i></li>",
            "</ul>",
            "<h3>Not right yet, per step</h3><ul>",
            "<li><b>Exercise 1</b> (2): ben, dee</li>",
            "<li><b>Proof step 1 (N − d as a product)</b> (3): ana, ben, dee</li>",
            "<li><b>Explain: why 12 wins</b> (2): ana, ben</li>",
            "</ul>",
            "<h3>Explanations to discuss: Explain: why 12 wins</h3>",
            f"<blockquote><b>ben</b>: {BEN_SAID}</blockquote>",
            "<blockquote><b>ana</b>: It is even.</blockquote>",
            f"<img alt='Answers per exercise: right, partial, wrong and blank' src='data:image/png;base64,{chart}'>",
            "<h2 class='detail'>Per exercise</h2><table class='detail'><tr><th>exercise</th><th>right</th>"
            "<th>partial</th><th>wrong</th><th>blank</th><th class='detail'>mistakes in the final answers</th>"
            "<th class='detail'>mistakes met while trying</th><th class='detail'>not right yet</th></tr>",
            "<tr><td>Exercise 1</td><td>1</td><td>1</td><td>1</td><td>0</td>"
            "<td class='detail'>Is 1 allowed? (1), not judged: it ran out of time (1)</td>"
            "<td class='detail'>with-1 (3), zero (1)</td><td class='detail'>ben, dee</td></tr>",
            "<tr><td>Proof step 1 (N − d as a product)</td><td>0</td><td>0</td><td>2</td><td>1</td>"
            "<td class='detail'>B comes before A. (2)</td><td class='detail'>swap (1), a:b (1)</td>"
            "<td class='detail'>ana, ben, dee</td></tr>",
            "<tr><td>Explain: why 12 wins</td><td>1</td><td>0</td><td>0</td><td>2</td>"
            "<td class='detail'>—</td><td class='detail'>—</td><td class='detail'>ana, ben</td></tr>",
            "</table>",
            "<h2>What the class guessed first</h2><table><tr><th>guess</th><th>answers (students)</th></tr>",
            "<tr><td>first</td><td>1 (2), 2 (1)</td></tr>",
            "</table>",
            "<h2>Conjecture tests: the first counterexamples the class met</h2>"
            "<table><tr><th>test</th><th>n (students)</th></tr>",
            "<tr><td>even</td><td>n = 6 (2)</td></tr>",
            "</table>",
            "<h2>Per student</h2><table class='students'><tr><th>student</th><th>status</th>"
            "<th>Exercise 1</th><th>Proof step 1</th><th>Explain</th><th>note</th></tr>",
            "<tr><td>ana</td><td>graded</td><td>right</td><td>wrong</td><td></td><td></td></tr>",
            "<tr><td>ben</td><td>graded</td><td>wrong</td><td>wrong</td><td></td><td></td></tr>",
            "<tr><td>cy</td><td>is lesson 03, not lesson 04</td><td></td><td></td><td></td><td></td></tr>",
            "<tr><td>dee</td><td>graded</td><td>partial</td><td></td><td>right</td>"
            f"<td>another file has the same student name Exercise 1: {DEE_WHY}.</td></tr>",
            "</table><p class='note'>Verdicts come from re-running each notebook in a sandbox and judging its "
            "answers with the lesson's checks; the attempts saved in the files give only the history.</p>"
            "</body></html>",
        ]
    )


@pytest.fixture
def no_chart(monkeypatch: pytest.MonkeyPatch) -> list[ClassReport]:
    """The chart replaced by the word CHART (its own test below draws it)."""
    drawn: list[ClassReport] = []

    def chart(self: ClassReport) -> str:
        drawn.append(self)
        return "CHART"

    monkeypatch.setattr(ClassReport, "_chart", chart)
    return drawn


def test_the_whole_page_line_by_line(no_chart: list[ClassReport]) -> None:
    report = class_of_four()
    page = report.html()
    for got, expected in zip(page.split("\n"), expected_page("CHART").split("\n"), strict=True):
        assert got == expected
    assert page == expected_page("CHART") and no_chart == [report]


def test_in_a_notebook_the_page_is_shown_from_its_heading_to_its_end(no_chart: list[ClassReport]) -> None:
    page = expected_page("CHART")
    assert class_of_four()._repr_html_() == page[page.index("<h1>") : page.index("</body>")]


def test_no_chart_without_graded_students_or_exercises(no_chart: list[ClassReport]) -> None:
    ungraded = ClassReport(PLAN, [Row("cy", "cy.ipynb", status="is not a regular file")])
    no_checks = ClassReport(Plan("04", {}), [Row("ana", "ana.ipynb")])
    assert "<img" not in ungraded.html() and "<img" not in no_checks.html() and no_chart == []


def test_an_empty_class_has_its_tables_and_nothing_to_follow_up(no_chart: list[ClassReport]) -> None:
    page = ClassReport(Plan("00", {}), []).html()
    assert page.split("\n")[4:9] == [
        "<p>0 notebooks handed in; 0 re-run and judged with the teacher's parameters ().</p>",
        "<h2>What to teach tomorrow</h2>",
        "<p>Nothing to follow up: every graded student is right on every step.</p>",
        "<h2 class='detail'>Per exercise</h2><table class='detail'><tr><th>exercise</th><th>right</th>"
        "<th>partial</th><th>wrong</th><th>blank</th><th class='detail'>mistakes in the final answers</th>"
        "<th class='detail'>mistakes met while trying</th><th class='detail'>not right yet</th></tr>",
        "</table>",
    ]
    assert "guessed first" not in page and "Conjecture tests" not in page
    assert "<h2>Per student</h2><table class='students'><tr><th>student</th><th>status</th><th>note</th></tr>" in page


def test_a_guess_and_a_test_nobody_answered_show_a_dash(no_chart: list[ClassReport]) -> None:
    page = ClassReport(PLAN, []).html()
    assert "<tr><td>first</td><td>—</td></tr>" in page and "<tr><td>even</td><td>—</td></tr>" in page


def test_a_right_student_is_not_followed_up(no_chart: list[ClassReport]) -> None:
    plan = Plan("04", {}, checks={"1": "answer_1"})
    page = ClassReport(plan, [Row("ana", "ana.ipynb", verdicts={"1": "right"})]).html()
    tomorrow = page.split("\n")[5:7]
    assert tomorrow == [
        "<h2>What to teach tomorrow</h2>",
        "<p>Nothing to follow up: every graded student is right on every step.</p>",
    ]


def test_a_not_borne_out_answer_without_words_says_so_in_the_note(no_chart: list[ClassReport]) -> None:
    plan = Plan("04", {}, checks={"1": "answer_1", "2": "answer_2"})
    row = Row(
        "ana", "ana.ipynb", verdicts={"1": "wrong", "2": "wrong"}, not_borne_out=["1", "2"], disagreed={"2": "no"}
    )
    line = [x for x in ClassReport(plan, [row]).html().split("\n") if x.startswith("<tr><td>ana</td>")]
    assert line == [
        "<tr><td>ana</td><td>graded</td><td>wrong</td><td>wrong</td><td> Exercise 1: the record saved in the file "
        "says right; the re-run does not. Exercise 2: no.</td></tr>"
    ]


def test_everything_a_student_wrote_is_escaped(no_chart: list[ClassReport]) -> None:
    plan = Plan("<4>", {"s": "<b>"}, checks={"<x>": ""}, guesses={"<g>": ""}, tests={"<t>": ("", 5)})
    row = Row(
        "<i>ana</i>",
        "a.ipynb",
        status="graded",
        verdicts={"<x>": "<v>"},
        mistakes={"<x>": "a < b & c"},
        history=Counter({"<x>:<k>": 1}),
        guesses={"<g>": "<1>"},
        counterexamples={"<t>": "<6>"},
        explanations={"<x>": "<script>"},
        note="<n>",
    )
    page = ClassReport(plan, [row], titles={"<x>": "<T> (1)"}).html()
    body = page[page.index("</style>") :]
    assert "<i>ana" not in body and "<script>" not in body and "<T>" not in body and "<v>" not in body
    for shown in (
        "<title>Class report: lesson &lt;4&gt;</title>",
        "<h1>Class report: lesson &lt;4&gt;</h1>",
        "(s=&#x27;&lt;b&gt;&#x27;)",
        "<li><b>&lt;T&gt; (1)</b>: a &lt; b &amp; c <i>(1: &lt;i&gt;ana&lt;/i&gt;)</i></li>",
        "<li><b>&lt;T&gt; (1)</b> (1): &lt;i&gt;ana&lt;/i&gt;</li>",
        "<h3>Explanations to discuss: &lt;T&gt; (1)</h3>",
        "<blockquote><b>&lt;i&gt;ana&lt;/i&gt;</b>: &lt;script&gt;</blockquote>",
        "<tr><td>&lt;T&gt; (1)</td><td>0</td><td>0</td><td>0</td><td>0</td>"
        "<td class='detail'>a &lt; b &amp; c (1)</td><td class='detail'>&lt;k&gt; (1)</td>"
        "<td class='detail'>&lt;i&gt;ana&lt;/i&gt;</td></tr>",
        "<tr><td>&lt;g&gt;</td><td>&lt;1&gt; (1)</td></tr>",
        "<tr><td>&lt;t&gt;</td><td>n = &lt;6&gt; (1)</td></tr>",
        "<th>&lt;T&gt;</th><th>note</th>",
        "<tr><td>&lt;i&gt;ana&lt;/i&gt;</td><td>graded</td><td>&lt;v&gt;</td><td>&lt;n&gt;</td></tr>",
    ):
        assert shown in page, shown


def test_many_mistakes_students_and_explanations_are_cut_short(no_chart: list[ClassReport]) -> None:
    plan = Plan("04", {}, checks={"1": "", "why": ""})
    names = [f"s{i:02}" for i in range(16)]  # s00 ... s15
    rows = [
        Row(
            name,
            f"{name}.ipynb",
            verdicts={"1": "wrong"},
            # s00..s12 (13 students) share mistake M; the other three have mistakes A, B and C
            mistakes={"1": "M" if i < 13 else "ABC"[i - 13]},
            explanations={"why": "x" * (i + 1)} if i < 6 else {},
        )
        for i, name in enumerate(names)
    ]
    rows += [Row(f"t{i}", "t.ipynb", verdicts={"1": "wrong", "why": "right"}, mistakes={"1": w}) for i, w in
             enumerate("DEFG")]  # fmt: skip
    lines = ClassReport(plan, rows).html().split("\n")
    shown = lines[lines.index("<h3>The commonest mistakes</h3><ul>") + 1 : lines.index("</ul>")]
    first12 = ", ".join(names[:12])
    # six mistakes at most: M (13 students), then the single ones by their words: A, B, C, D, E (F and G left out)
    assert shown == [
        f"<li><b>Exercise 1</b>: M <i>(13: {first12} …)</i></li>",
        "<li><b>Exercise 1</b>: A <i>(1: s13)</i></li>",
        "<li><b>Exercise 1</b>: B <i>(1: s14)</i></li>",
        "<li><b>Exercise 1</b>: C <i>(1: s15)</i></li>",
        "<li><b>Exercise 1</b>: D <i>(1: t0)</i></li>",
        "<li><b>Exercise 1</b>: E <i>(1: t1)</i></li>",
    ]
    first15 = ", ".join(names[:15])
    assert f"<li><b>Exercise 1</b> (20): {first15} …</li>" in lines
    assert f"<li><b>why</b> (16): {first15} …</li>" in lines
    # six explanations: the four longest (s05's 6 letters first), then who else wrote one
    start = lines.index("<h3>Explanations to discuss: why</h3>")
    assert lines[start + 1 : start + 6] == [
        "<blockquote><b>s05</b>: xxxxxx</blockquote>",
        "<blockquote><b>s04</b>: xxxxx</blockquote>",
        "<blockquote><b>s03</b>: xxxx</blockquote>",
        "<blockquote><b>s02</b>: xxx</blockquote>",
        "<p class='note'>Also written by: s00, s01.</p>",
    ]


def test_exactly_twelve_and_fifteen_students_are_shown_whole(no_chart: list[ClassReport]) -> None:
    plan = Plan("04", {}, checks={"1": ""})
    names = [f"s{i:02}" for i in range(15)]
    rows = [Row(n, "f", verdicts={"1": "wrong"}, mistakes={"1": "M" if i < 12 else "N"}) for i, n in enumerate(names)]
    lines = ClassReport(plan, rows).html().split("\n")
    assert f"<li><b>Exercise 1</b>: M <i>(12: {', '.join(names[:12])})</i></li>" in lines
    assert f"<li><b>Exercise 1</b> (15): {', '.join(names)}</li>" in lines


def test_six_mistakes_are_all_shown(no_chart: list[ClassReport]) -> None:
    plan = Plan("04", {}, checks={"1": ""})
    rows = [Row(n, "f", verdicts={"1": "wrong"}, mistakes={"1": n}) for n in "abcdef"]
    lines = ClassReport(plan, rows).html().split("\n")
    assert (
        lines[lines.index("<h3>The commonest mistakes</h3><ul>") + 6] == "<li><b>Exercise 1</b>: f <i>(1: f)</i></li>"
    )


def test_four_explanations_are_all_quoted_and_the_same_text_twice_is_kept(no_chart: list[ClassReport]) -> None:
    plan = Plan("04", {}, checks={"why": ""})
    rows = [
        Row(n, "f", verdicts={"why": "right"}, explanations={"why": t}) for n, t in zip("abcde", "11223", strict=True)
    ]
    lines = ClassReport(plan, rows).html().split("\n")
    start = lines.index("<h3>Explanations to discuss: why</h3>")
    # by length, the fullest first; ties keep the class's order; e (one letter too) is left over
    assert lines[start + 1 :][:5] == [
        "<blockquote><b>a</b>: 1</blockquote>",
        "<blockquote><b>b</b>: 1</blockquote>",
        "<blockquote><b>c</b>: 2</blockquote>",
        "<blockquote><b>d</b>: 2</blockquote>",
        "<p class='note'>Also written by: e.</p>",
    ]
    four = ClassReport(plan, rows[:4]).html()
    assert "Also written by" not in four and four.count("<blockquote>") == 4


class Recorder:
    """matplotlib's Figure, remembered: the test reads the axes the chart drew."""

    made: ClassVar[list[Any]] = []
    figure: ClassVar[Any] = None  # matplotlib's own Figure

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        figure = cls.figure(*args, **kwargs)
        cls.made.append((figure, kwargs))
        return figure


def test_the_chart_stacks_the_outcomes_per_exercise(monkeypatch: pytest.MonkeyPatch) -> None:
    import matplotlib.figure
    from matplotlib.colors import to_hex
    from matplotlib.ticker import MaxNLocator

    Recorder.made, Recorder.figure = [], matplotlib.figure.Figure
    monkeypatch.setattr(matplotlib.figure, "Figure", Recorder)
    png = base64.b64decode(class_of_four()._chart(), validate=True)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", png[16:24]) == (1000, 450)  # 10 × 4.5 inches at 100 dots per inch
    ((figure, kwargs),) = Recorder.made
    assert kwargs == {"figsize": (10, 4.5), "layout": "constrained"}
    (ax,) = figure.axes
    assert [t.get_text() for t in ax.get_xticklabels()] == ["Ex. 1", "Step 1", "Explain"]
    # counts by hand: 1 -> right 1, partial 1, wrong 1; order -> wrong 2, blank 1; why -> right 1, blank 2
    bars = [(to_hex(p.get_facecolor()).upper(), p.get_hatch() or "", p.get_y(), p.get_height()) for p in ax.patches]
    assert bars == [
        ("#009E73", "", 0, 1), ("#009E73", "", 0, 0), ("#009E73", "", 0, 1),
        ("#E69F00", "//", 1, 1), ("#E69F00", "//", 0, 0), ("#E69F00", "//", 1, 0),
        ("#D55E00", "xx", 2, 1), ("#D55E00", "xx", 0, 2), ("#D55E00", "xx", 1, 0),
        ("#BBBBBB", "..", 3, 0), ("#BBBBBB", "..", 2, 1), ("#BBBBBB", "..", 1, 2),
    ]  # fmt: skip
    assert {to_hex(p.get_edgecolor(), keep_alpha=True) for p in ax.patches} == {"#000000ff"}  # hatches drawn black
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["right", "partial", "wrong", "blank"]
    assert ax.get_legend().get_texts()[0].get_fontsize() == 12
    # outside the axes, at their top right: the legend never hides a bar
    legend = ax.get_legend()
    assert legend._loc == 2  # "upper left" (of the legend, anchored at the point below)
    anchor = legend.get_bbox_to_anchor().transformed(ax.transAxes.inverted()).bounds
    assert anchor == pytest.approx((1.01, 1.0, 0.0, 0.0))
    assert ax.get_title() == "Lesson 04: answers per exercise" and ax.title.get_fontsize() == 16
    assert (ax.get_xlabel(), ax.xaxis.label.get_fontsize()) == ("exercise", 14)
    assert (ax.get_ylabel(), ax.yaxis.label.get_fontsize()) == ("students", 14)
    assert ax.get_xticklabels()[0].get_fontsize() == ax.get_yticklabels()[0].get_fontsize() == 12
    locator = ax.yaxis.get_major_locator()
    assert isinstance(locator, MaxNLocator) and locator._integer  # whole students


def test_an_exercise_everyone_got_right_and_counterexamples_that_differ(no_chart: list[ClassReport]) -> None:
    plan = Plan("04", {}, checks={"1": "answer_1"}, tests={"even": ("rule_1", 50)})
    rows = [
        Row("ana", "a.ipynb", verdicts={"1": "right"}, counterexamples={"even": "6"}),
        Row("ben", "b.ipynb", verdicts={"1": "right"}, counterexamples={"even": "8"}),
        Row("cy", "c.ipynb", status="is not a regular file", counterexamples={"even": "8"}),
    ]
    lines = ClassReport(plan, rows).html().split("\n")
    assert "<tr><td>Exercise 1</td><td>2</td><td>0</td><td>0</td><td>0</td><td class='detail'>—</td>" \
        "<td class='detail'>—</td><td class='detail'>—</td></tr>" in lines  # fmt: skip
    assert "<tr><td>even</td><td>n = 8 (2), n = 6 (1)</td></tr>" in lines


def test_the_chart_is_the_same_png_whatever_the_teachers_matplotlib_settings() -> None:
    import matplotlib

    with matplotlib.rc_context({"savefig.format": "svg", "savefig.dpi": 72, "figure.dpi": 50}):
        png = base64.b64decode(class_of_four()._chart(), validate=True)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", png[16:24]) == (1000, 450)
