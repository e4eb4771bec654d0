"""The class report's page and table: one row per hand-in, the class's numbers, what to teach tomorrow.

:mod:`.class_report` grades the hand-ins; this module shows the result.  The page starts with
*What to teach tomorrow* (the commonest mistakes with the students who made them, per step who is
not right yet, the explanations to discuss), prints on one or two pages (print CSS), and names each
exercise by its title in the notebook; its chart is readable in greyscale (hatches as well as colours).

>>> r = ClassReport(Plan("04", {}, checks={"1": "answer_1"}), [Row("ana", "ana.ipynb", verdicts={"1": "wrong"},
...     mistakes={"1": "Halving leaves an even number."})], titles={"1": "Exercise 1 (a winning move)"})
>>> r.title("1"), r.misconceptions()
('Exercise 1 (a winning move)', [('Exercise 1 (a winning move)', 'Halving leaves an even number.', ['ana'])])
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from dataclasses import dataclass, field
from html import escape

from duel_lessons.teaching.notebook_plan import Plan

#: The verdict names of the report, in the order its tables and charts use.
OUTCOMES = ("right", "partial", "wrong", "blank")
#: Their colours (Okabe–Ito, safe for colour-blind readers) and hatches (readable in black and white).
COLOURS = {"right": "#009E73", "partial": "#E69F00", "wrong": "#D55E00", "blank": "#BBBBBB"}
#: The page's style: large type for a projector, plain tables.
STYLE = (
    "body{font:18px/1.5 system-ui,sans-serif;max-width:70em;margin:1em auto;padding:0 1em;color:#111;background:#fff}"
    "table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #888;padding:.25em .6em;text-align:left}"
    "th{background:#eee}img{max-width:100%}.note{color:#444}blockquote{margin:.3em 0 .8em 1em}"
    # Printed: one or two A4 or Letter pages for a class of 30 (tests/browser/test_class_report_page.py).
    "@media print{@page{size:auto;margin:12mm}body{font-size:9pt;line-height:1.25;max-width:none;margin:0}"
    "h1{font-size:14pt;margin:0 0 .3em}h2{font-size:11pt;margin:.6em 0 .2em}table{margin:.2em 0 .5em}"
    "td,th{padding:0 .25em}img{max-width:40%;break-inside:avoid}tr{break-inside:avoid}"
    ".students td,.students th,li,blockquote{font-size:8.5pt;line-height:1.15}li{margin:0}"
    "h3{font-size:10pt;margin:.3em 0 0}"
    ".detail{display:none}}"  # printed, the chart and the first section say what the per-exercise table says
    # A screen in dark mode: light text on dark (axe-core finds no contrast problem in either: test_axe_views.py);
    # the chart keeps its white paper.
    "@media screen and (prefers-color-scheme:dark){body{color:#eee;background:#121212}th{background:#2a2a2a}"
    "td,th{border-color:#999}.note{color:#c8c8c8}a{color:#9fcbff}img{background:#fff}}"
)
HATCHES = {"right": "", "partial": "//", "wrong": "xx", "blank": ".."}


@dataclass
class Row:
    """One handed-in notebook: who, whether it could be graded (and why not), and what it shows."""

    student: str
    file: str
    status: str = "graded"
    verdicts: dict[str, str] = field(default_factory=dict)  # check -> right / partial / wrong / blank
    mistakes: dict[str, str] = field(default_factory=dict)  # check -> the named mistake of the final answer
    tries: dict[str, int] = field(default_factory=dict)  # check -> answers judged in the student's session
    history: Counter[str] = field(default_factory=Counter)  # "check:key" -> times met while trying
    guesses: dict[str, str] = field(default_factory=dict)  # guess -> what was guessed first
    counterexamples: dict[str, str] = field(default_factory=dict)  # test -> first counterexample met
    final_tests: dict[str, str] = field(default_factory=dict)  # test -> the re-run rule's result
    not_borne_out: list[str] = field(default_factory=list)  # saved "right" that the re-run answer is not
    #: check -> in words, what disagreed (the saved record said right; the re-run's answer is judged ...)
    disagreed: dict[str, str] = field(default_factory=dict)
    explanations: dict[str, str] = field(default_factory=dict)  # explanation exercise -> the student's text
    note: str = ""

    @property
    def graded(self) -> bool:
        return self.status == "graded"


#: What a spreadsheet reads as the start of a formula (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(cell: object) -> object:
    """A CSV cell no spreadsheet runs as a formula: text starting with ``= + - @``, a tab or a carriage return
    gets a ``'`` in front, as OWASP recommends; numbers are kept.

    >>> print(spreadsheet_safe('=HYPERLINK("http://x", "y")'), spreadsheet_safe("ana"), spreadsheet_safe(-3))
    '=HYPERLINK("http://x", "y") ana -3
    """
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return cell


# -- the class -----------------------------------------------------------------------------------------


@dataclass
class ClassReport:
    """Every submission's row, and the class's numbers per exercise, guess and conjecture test."""

    plan: Plan
    rows: list[Row]
    #: check -> its title in the notebook ("Proof step 1 (N − d as a product)"); "Exercise 2" when it has none
    titles: dict[str, str] = field(default_factory=dict)

    @property
    def checks(self) -> list[str]:
        """The exercises in the order of the notebook (the teacher's copy)."""
        return list(self.plan.checks)

    def counts(self, check: str) -> Counter[str]:
        """How many graded students were right, partial, wrong or blank on one check."""
        return Counter(row.verdicts.get(check, "blank") for row in self.rows if row.graded)

    def mistakes(self, check: str) -> Counter[str]:
        """The named mistakes of the final answers on one check, with how many students made each."""
        return Counter(row.mistakes[check] for row in self.rows if row.graded and check in row.mistakes)

    def met_while_trying(self, check: str) -> Counter[str]:
        """The mistakes students met on the way (from the saved attempts), with how many students met each."""
        found: Counter[str] = Counter()
        for row in self.rows:
            for key in {k for k in row.history if k.startswith(f"{check}:")}:
                found[key.split(":", 1)[1]] += 1
        return found

    def guesses(self, name: str) -> Counter[str]:
        return Counter(row.guesses[name] for row in self.rows if name in row.guesses)

    def counterexamples(self, name: str) -> Counter[str]:
        return Counter(row.counterexamples[name] for row in self.rows if name in row.counterexamples)

    def title(self, check: str) -> str:
        """The exercise's title in the notebook, or "Exercise 2" / its name."""
        return self.titles.get(check) or (f"Exercise {check}" if check.isdigit() else check)

    def short(self, check: str) -> str:
        """The title in a few words, for a column head: "Proof step 1", "Exercise 2", "Explain"."""
        return self.title(check).split(" (")[0].split(":")[0][:24]

    def misconceptions(self) -> list[tuple[str, str, list[str]]]:
        """The mistakes in the final answers, commonest first: (exercise title, the words, the students)."""
        held: dict[tuple[str, str], list[str]] = {}
        for row in self.rows:
            for check, words in row.mistakes.items():
                if row.graded and not words.startswith("not judged"):
                    held.setdefault((check, words), []).append(row.student)
        ranked = sorted(held.items(), key=lambda item: (-len(item[1]), item[0]))
        return [(self.title(check), words, students) for (check, words), students in ranked]

    def explanations(self) -> dict[str, list[tuple[str, str]]]:
        """Explanation exercise -> (student, text): collected for the teacher to read, never judged."""
        found: dict[str, list[tuple[str, str]]] = {}
        for row in self.rows:
            for name, text in row.explanations.items():
                found.setdefault(name, []).append((row.student, text))
        return found

    def stuck(self) -> dict[str, list[str]]:
        """Check -> the graded students who are not right there yet."""
        return {c: [r.student for r in self.rows if r.graded and r.verdicts.get(c) != "right"] for c in self.checks}

    # -- outputs -------------------------------------------------------------------------------------

    def csv_text(self) -> str:
        """One row per submission, for a gradebook: its columns keep the exercises' short names
        (``exercise proof-1``), so an import set up once keeps working; the page shows their titles."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        header = ["student", "file", "status", "right"]
        for check in self.checks:
            header += [f"exercise {check}", f"exercise {check} mistake", f"exercise {check} tries"]
        writer.writerow([spreadsheet_safe(cell) for cell in header])
        for row in self.rows:
            right = sum(v == "right" for v in row.verdicts.values()) if row.graded else ""
            line: list[object] = [row.student, row.file, row.status, right]
            for check in self.checks:
                line += [
                    row.verdicts.get(check, "") if row.graded else "",
                    row.mistakes.get(check, ""),
                    row.tries.get(check, ""),
                ]
            writer.writerow([spreadsheet_safe(cell) for cell in line])
        return out.getvalue()

    def _chart(self) -> str:
        """A stacked bar chart of right / partial / wrong / blank per exercise, as an inline PNG."""
        import base64

        from matplotlib.figure import Figure
        from matplotlib.ticker import MaxNLocator

        colours = COLOURS
        fig = Figure(figsize=(10, 4.5), layout="constrained")
        ax = fig.subplots()
        bottoms = [0] * len(self.checks)
        for outcome in OUTCOMES:
            heights = [self.counts(c)[outcome] for c in self.checks]
            hatch = HATCHES[outcome]
            ax.bar(
                [self.short(c).replace("Exercise ", "Ex. ").replace("Proof step ", "Step ") for c in self.checks],
                heights,
                bottom=bottoms,
                label=outcome,
                color=colours[outcome],
                hatch=hatch,
                edgecolor="black",
            )
            bottoms = [b + h for b, h in zip(bottoms, heights, strict=True)]
        ax.set_title(f"Lesson {self.plan.lesson}: answers per exercise", fontsize=16)
        ax.set_xlabel("exercise", fontsize=14)
        ax.set_ylabel("students", fontsize=14)
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # whole students
        ax.tick_params(labelsize=12)
        ax.legend(fontsize=12, loc="upper left", bbox_to_anchor=(1.01, 1))
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=100)
        return base64.b64encode(buffer.getvalue()).decode("ascii")

    def html(self) -> str:
        """The whole report as one HTML page (charts inline, nothing from the internet)."""
        graded = [r for r in self.rows if r.graded]
        parts = [
            "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
            f"<title>Class report: lesson {escape(self.plan.lesson)}</title>",
            f"<style>{STYLE}</style></head><body>",
            f"<h1>Class report: lesson {escape(self.plan.lesson)}</h1>",
            f"<p>{len(self.rows)} notebooks handed in; {len(graded)} re-run and judged with the teacher's parameters "
            f"({escape(', '.join(f'{k}={v!r}' for k, v in self.plan.params.items()))}).</p>",
        ]
        parts += self._tomorrow()
        if graded and self.checks:
            parts.append(
                "<img alt='Answers per exercise: right, partial, wrong and blank' "
                f"src='data:image/png;base64,{self._chart()}'>"
            )
        parts.append(
            "<h2 class='detail'>Per exercise</h2><table class='detail'><tr><th>exercise</th>"
            + "".join(f"<th>{o}</th>" for o in OUTCOMES)
            + "<th class='detail'>mistakes in the final answers</th><th class='detail'>mistakes met while trying</th>"
            "<th class='detail'>not right yet</th></tr>"
        )
        stuck = self.stuck()
        for check in self.checks:
            counts = self.counts(check)
            named = ", ".join(f"{escape(k)} ({n})" for k, n in self.mistakes(check).most_common())
            met = ", ".join(f"{escape(k)} ({n})" for k, n in self.met_while_trying(check).most_common())
            parts.append(
                f"<tr><td>{escape(self.title(check))}</td>"
                + "".join(f"<td>{counts[o]}</td>" for o in OUTCOMES)
                + f"<td class='detail'>{named or '—'}</td><td class='detail'>{met or '—'}</td>"
                f"<td class='detail'>{escape(', '.join(stuck[check])) or '—'}</td></tr>"
            )
        parts.append("</table>")
        if self.plan.guesses:
            parts.append(
                "<h2>What the class guessed first</h2><table><tr><th>guess</th><th>answers (students)</th></tr>"
            )
            for name in self.plan.guesses:
                said = ", ".join(f"{escape(g)} ({n})" for g, n in self.guesses(name).most_common())
                parts.append(f"<tr><td>{escape(name)}</td><td>{said or '—'}</td></tr>")
            parts.append("</table>")
        if self.plan.tests:
            parts.append(
                "<h2>Conjecture tests: the first counterexamples the class met</h2>"
                "<table><tr><th>test</th><th>n (students)</th></tr>"
            )
            for name in self.plan.tests:
                said = ", ".join(f"n = {escape(g)} ({n})" for g, n in self.counterexamples(name).most_common())
                parts.append(f"<tr><td>{escape(name)}</td><td>{said or '—'}</td></tr>")
            parts.append("</table>")
        parts.append(
            "<h2>Per student</h2><table class='students'><tr><th>student</th><th>status</th>"
            + "".join(f"<th>{escape(self.short(c))}</th>" for c in self.checks)
            + "<th>note</th></tr>"
        )
        for row in self.rows:
            cells = "".join(f"<td>{escape(row.verdicts.get(c, '')) if row.graded else ''}</td>" for c in self.checks)
            note = row.note
            for check in row.not_borne_out:
                why = row.disagreed.get(check, "the record saved in the file says right; the re-run does not")
                note += f" {self.title(check)}: {why}."
            parts.append(
                f"<tr><td>{escape(row.student)}</td><td>{escape(row.status)}</td>{cells}<td>{escape(note)}</td></tr>"
            )
        parts.append(
            "</table><p class='note'>Verdicts come from re-running each notebook in a sandbox and judging its "
            "answers with the lesson's checks; the attempts saved in the files give only the history.</p></body></html>"
        )
        return "\n".join(parts)

    def _tomorrow(self) -> list[str]:
        """The first section: the commonest mistakes, who is not right yet per step, the explanations to read."""
        parts = ["<h2>What to teach tomorrow</h2>"]
        common = self.misconceptions()[:6]
        if common:
            parts.append("<h3>The commonest mistakes</h3><ul>")
            for title, words, students in common:
                who = escape(", ".join(students[:12]) + (" …" if len(students) > 12 else ""))
                parts.append(f"<li><b>{escape(title)}</b>: {escape(words)} <i>({len(students)}: {who})</i></li>")
            parts.append("</ul>")
        stuck = {c: names for c, names in self.stuck().items() if names}
        if stuck:
            parts.append("<h3>Not right yet, per step</h3><ul>")
            for check, names in stuck.items():
                shown = escape(", ".join(names[:15]) + (" …" if len(names) > 15 else ""))
                parts.append(f"<li><b>{escape(self.title(check))}</b> ({len(names)}): {shown}</li>")
            parts.append("</ul>")
        for name, said in self.explanations().items():
            parts.append(f"<h3>Explanations to discuss: {escape(self.title(name))}</h3>")
            longest = sorted(said, key=lambda item: -len(item[1]))[:4]  # the fullest first, to read aloud
            parts += [f"<blockquote><b>{escape(who)}</b>: {escape(text)}</blockquote>" for who, text in longest]
            if len(said) > len(longest):
                rest = ", ".join(who for who, _ in said if (who, _) not in longest)
                parts.append(f"<p class='note'>Also written by: {escape(rest)}.</p>")
        if len(parts) == 1:
            parts.append("<p>Nothing to follow up: every graded student is right on every step.</p>")
        return parts

    def _repr_html_(self) -> str:
        body = self.html()
        return body[body.index("<h1>") : body.rindex("</body>")]
