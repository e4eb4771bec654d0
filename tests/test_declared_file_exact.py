"""A lesson's declarations file, exactly: what is read, what is refused (and how it is named), the student copy.

Fast (small texts and temporary files, no notebook): the mutation area ``content`` runs these first.
The student copy is unpacked here by hand (base64, zlib, JSON) and its digests worked out with
``hashlib``, so the test does not trust the code that made it.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import zlib
from pathlib import Path

import pytest

import duel_lessons.teaching.declared as declared
from duel_lessons.teaching.declared import (
    FOLDER_VARIABLE,
    MAX_BYTES,
    STUDENT_HEADER,
    SUFFIX,
    DeclarationError,
    check_folder,
    find,
    lessons,
    load,
    parse,
)
from duel_lessons.teaching.declared.guesses import Guess, Reveal, Truth

ROOT = Path(__file__).resolve().parents[1]
S = "99-x.lesson.toml"


def refusal(text: str) -> str:
    with pytest.raises(DeclarationError) as caught:
        parse(text, S)
    return str(caught.value)


def sha(salt: str, value: object) -> str:
    return hashlib.sha256(f"{salt}\n{json.dumps(value, sort_keys=True)}".encode()).hexdigest()


def unpack(sealed: str) -> object:
    return json.loads(zlib.decompress(base64.b64decode(sealed)))


def test_the_constants() -> None:
    assert (SUFFIX, FOLDER_VARIABLE, MAX_BYTES) == (".lesson.toml", "DUEL_LESSONS_FOLDER", 200_000)
    assert STUDENT_HEADER == "# The student edition of this lesson's exercises, made by duel-lessons student-copies."


# -- reading -------------------------------------------------------------------------------------------------


def test_the_smallest_file_is_a_lesson_number() -> None:
    found = parse('lesson = "4"', S)
    assert (found.lesson, found.source, found.edition) == ("04", S, "teacher")
    assert (found.exercises, found.discoveries, found.texts, found.needs, found.offers) == ({}, {}, {}, (), {})
    assert found.sections == {"guess": {}, "truth": {}, "reveal": {}}
    assert parse('lesson = "123"').source == "declarations"


def test_a_file_may_be_as_big_as_the_bound_and_no_bigger() -> None:
    head = 'lesson = "99"\n#'
    assert parse(head + "x" * (MAX_BYTES - len(head)), S).lesson == "99"
    assert refusal(head + "x" * (MAX_BYTES - len(head) + 1)) == f"{S}: the file is bigger than 200,000 bytes."


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("lesson = ", f"{S}: not valid TOML (Invalid value (at end of document))."),
        ("", f'{S}: the first line must name the lesson, such as lesson = "04".'),
        ("lesson = 4", f'{S}: the first line must name the lesson, such as lesson = "04".'),
        ('lesson = "4a"', f'{S}: the first line must name the lesson, such as lesson = "04".'),
        ('lesson = "04"\nedition = "pupil"', f'{S}: edition must be "teacher" or "student", not \'pupil\'.'),
        (
            'lesson = "04"\n[zeta]\n[alpha]',
            f"{S}: unknown section 'alpha' (use [exercise.NAME], [guess.NAME], [truth.NAME], [reveal.NAME], "
            "[text.NAME] or [discoveries]).",
        ),
        (
            'lesson = "04"\nneeds = "rules"',
            f'{S}: needs: give the parameters the checks read, such as ["rules", "upto"].',
        ),
        (
            'lesson = "04"\nneeds = ["rules", 3]',
            f'{S}: needs: give the parameters the checks read, such as ["rules", "upto"].',
        ),
        (
            'lesson = "04"\nneeds = ["up to"]',
            f'{S}: needs: give the parameters the checks read, such as ["rules", "upto"].',
        ),
        ('lesson = "04"\noffers = 3', f"{S}: offers must be a table."),
        (
            'lesson = "04"\n[offers]\nrules = "factor-duel"',
            f'{S}: offers: give the other values of each parameter as a list, such as rules = ["factor-duel"].',
        ),
        ('lesson = "04"\ndiscoveries = 3', f"{S}: [discoveries] must be a table."),
        ('lesson = "04"\n[discoveries]\ng = "odd"', f"{S}: [discoveries] g: give a list of patterns in quotes."),
        ('lesson = "04"\n[discoveries]\ng = ["odd", 2]', f"{S}: [discoveries] g: give a list of patterns in quotes."),
        (
            'lesson = "04"\n[discoveries]\ng = ["odd", "(x"]',
            f"{S}: [discoveries] g: '(x' is not a pattern (missing ), unterminated subpattern at position 0).",
        ),
        ('lesson = "04"\nexercise = 3', f"{S}: [exercise] must be a table."),
        ('lesson = "04"\n[exercise]\ne = 3', f"{S}: [exercise.e] must be a table."),
        (
            'lesson = "04"\n[exercise.e]\nkind = "essay"',
            f"{S}: [exercise.e] kind: 'essay' is not a kind; use one of " + ", ".join(declared.KINDS) + ".",
        ),
        ('lesson = "04"\n[exercise.e]\nanswer = 3', f"{S}: [exercise.e] kind: None is not a kind; use one of number,"),
        ('lesson = "04"\nguess = 3', f"{S}: [guess] must be a table."),
        ('lesson = "04"\n[truth]\nt = 3', f"{S}: [truth.t] must be a table."),
        ('lesson = "04"\n[reveal.r]\nafter = "g"', f"{S}: [reveal.r] after: give after (the guess or truth"),
        ('lesson = "04"\n[guess.g]\nform = "colour"', f"{S}: [guess.g] form: 'colour' is not a form;"),
        ('lesson = "04"\ntext = 3', f"{S}: [text] must be a table."),
        ('lesson = "04"\n[text]\nt = 3', f"{S}: [text.t] must be a table."),
        (
            'lesson = "04"\n[text.t]\nmarkdown = "m"',
            f"{S}: [text.t] after: name the guess (or conjecture test) that opens this text.",
        ),
        (
            'lesson = "04"\n[text.t]\nafter = ""\nmarkdown = "m"',
            f"{S}: [text.t] after: name the guess (or conjecture test) that opens this text.",
        ),
        (
            'lesson = "04"\n[text.t]\nafter = "g"',
            f"{S}: [text.t]: give after and markdown (the text, in triple quotes).",
        ),
        (
            'lesson = "04"\n[text.t]\nafter = "g"\nmarkdown = 3',
            f"{S}: [text.t]: give after and markdown (the text, in triple quotes).",
        ),
        (
            'lesson = "04"\n[text.t]\nafter = "g"\nmarkdown = "m"\ncolour = 1',
            f"{S}: [text.t]: give after and markdown (the text, in triple quotes).",
        ),
    ],
)
def test_a_file_that_is_not_right_is_named_with_its_section_and_field(text: str, message: str) -> None:
    assert refusal(text).startswith(message)


def test_every_part_of_a_teachers_file_is_read() -> None:
    text = """lesson = "07"
needs = ["rules", "upto"]
[offers]
rules = ["factor-duel", "divisor-duel"]
[discoveries]
pattern = ["odd", "power of (two|2)"]
[exercise.5]
kind = "number"
answer = 12
why = "Count the divisors of {upto}."
[guess.g]
form = "number"
answer = 3
[truth.t]
value = "is_p(rules, n)"
yes = "loses"
no = "wins"
[reveal.r]
after = "g"
text = "More."
[text.t]
after = "g"
markdown = "**Open.**"
"""
    found = parse(text, S)
    assert found.lesson == "07" and found.edition == "teacher"
    assert found.needs == ("rules", "upto")
    assert found.offers == {"rules": ("factor-duel", "divisor-duel")}
    assert found.discoveries == {"pattern": ("odd", "power of (two|2)")}
    assert list(found.exercises) == ["5"] and found.exercises["5"].kind == "number"
    assert found.exercises["5"].name == "5"
    assert found.exercises["5"].fields == {"kind": "number", "answer": 12, "why": "Count the divisors of {upto}."}
    assert found.sections["guess"] == {"g": Guess("g", {"form": "number", "answer": 3})}
    assert found.sections["truth"] == {"t": Truth("t", {"value": "is_p(rules, n)", "yes": "loses", "no": "wins"})}
    assert found.sections["reveal"] == {"r": Reveal("r", {"after": "g", "text": "More."})}
    assert found.texts == {"t": ("g", "**Open.**")}
    assert found.check("5", 12, {}).kind == "right" and found.check("5", 11, {}).kind != "right"
    assert found.model("5", {"upto": 72}) == (12, "Count the divisors of 72.")
    assert found.model("5", {}) == (12, "Count the divisors of {upto}.")


def test_a_model_without_a_reason_has_an_empty_one() -> None:
    found = parse('lesson = "99"\n[exercise.e]\nkind = "number"\nanswer = 2\n', S)
    assert found.model("e", {}) == (2, "")


# -- the student copy ----------------------------------------------------------------------------------------

TEACHER = """lesson = "7"
needs = ["upto"]
[exercise.one]
kind = "number"
answer = 12
why = "secret reason"
hint = "Count."
[exercise."two words"]
kind = "numbers"
answer = [3, 1, 3]
[exercise.free]
kind = "number"
value = "divisor_count(upto)"
[exercise.order]
kind = "order"
model = ["A", "B"]
[exercise.order.lines.A]
text = "a"
shows = "fact a"
[exercise.order.lines.B]
text = "b"
uses = ["A"]
[guess.g]
form = "number"
answer = 3
[text.t]
after = "g"
markdown = "**Open.**"
"""


def test_a_student_copy_holds_no_answer_and_seals_the_rest() -> None:
    teacher = parse(TEACHER, S)
    text = teacher.student_text()
    lines = text.split("\n")
    assert lines[:6] == [
        STUDENT_HEADER,
        "# It holds no model answers; edit the teacher's file, not this one.",
        'lesson = "07"',
        'edition = "student"',
        'needs = ["upto"]',
        "",
    ]
    assert "secret" not in text
    at = lines.index('[exercise."one"]')
    assert lines[at + 1] == f"label = {json.dumps(teacher.exercises['one'].label)}"
    assert lines[at + 2].startswith('sealed = "') and lines[at + 3] == ""
    one = unpack(lines[at + 2][len('sealed = "') : -1])
    assert one == {"kind": "number", "hint": "Count.", "answer_digest": sha("07:one", 12)}
    two = unpack(lines[lines.index('[exercise."two words"]') + 2][len('sealed = "') : -1])
    assert two == {
        "kind": "numbers",
        "answer_digests": sorted({sha("07:two words", 1), sha("07:two words", 3)}),
        "answer_count": 2,
        "answer_digest": sha("07:two words", [1, 3, 3]),
    }
    free = unpack(lines[lines.index('[exercise."free"]') + 2][len('sealed = "') : -1])
    assert free == {"kind": "number", "value": "divisor_count(upto)"}
    order = unpack(lines[lines.index('[exercise."order"]') + 2][len('sealed = "') : -1])
    assert "model" not in order and set(order) == {"kind", "lines"}  # type: ignore[arg-type]
    at = lines.index('[guess."g"]')
    assert unpack(lines[at + 1][len('sealed = "') : -1]) == {"form": "number", "answer": 3} and lines[at + 2] == ""
    at = lines.index('[text."t"]')
    assert lines[at + 1] == 'after = "g"' and lines[at + 3] == ""
    assert zlib.decompress(base64.b64decode(lines[at + 2][len('sealed = "') : -1])).decode() == "**Open.**"


def test_a_student_copy_reads_back_and_judges_as_the_teachers() -> None:
    student = parse(parse(TEACHER, S).student_text(), S)
    assert student.edition == "student" and student.lesson == "07" and student.needs == ("upto",)
    assert list(student.exercises) == ["one", "two words", "free", "order"]
    assert student.exercises["one"].label == parse(TEACHER, S).exercises["one"].label
    assert student.check("one", 12, {}).kind == "right" and student.check("one", 13, {}).kind != "right"
    assert student.check("two words", [1, 3], {}).kind == "right"
    assert student.check("free", 6, {"upto": 12}).kind == "right"  # 12 has 6 divisors
    assert student.check("order", ["A", "B"], {}).kind == "right"
    assert student.sections["guess"]["g"] == Guess("g", {"form": "number", "answer": 3})
    assert student.texts == {"t": ("g", "**Open.**")}
    with pytest.raises(DeclarationError) as caught:
        student.model("one", {})
    assert str(caught.value) == f"{S}: the student edition holds no model answers."


@pytest.mark.parametrize(
    ("section", "sealed", "damage"),
    [
        ("exercise", "not base64!", "(Error)"),  # binascii.Error is a ValueError
        ("exercise", base64.b64encode(b"not zlib").decode(), "(error)"),
        ("exercise", base64.b64encode(zlib.compress(b"[1, 2]")).decode(), ""),
        ("exercise", base64.b64encode(zlib.compress(b"{no json")).decode(), "(JSONDecodeError)"),
        ("guess", base64.b64encode(zlib.compress(b"3")).decode(), ""),
    ],
)
def test_a_damaged_student_copy_says_so(section: str, sealed: str, damage: str) -> None:
    text = f'lesson = "07"\nedition = "student"\n[{section}.e]\nsealed = "{sealed}"\n'
    message = f"{S}: [{section}.e] sealed: this student copy is damaged{' ' + damage if damage else ''}; make it again."
    assert refusal(text) == message


def test_a_student_copy_without_its_seal_says_so() -> None:
    assert refusal('lesson = "07"\nedition = "student"\n[exercise.e]\nlabel = "E"\n') == (
        f"{S}: [exercise.e] sealed: this student copy is damaged (KeyError); make it again."
    )


def test_a_damaged_student_text_says_so() -> None:
    for sealed in (
        "not base64!",
        base64.b64encode(b"not zlib").decode(),
        base64.b64encode(zlib.compress(b"\xff")).decode(),
    ):
        text = f'lesson = "07"\nedition = "student"\n[text.t]\nafter = "g"\nsealed = "{sealed}"\n'
        assert refusal(text) == f"{S}: [text.t] sealed: this student copy is damaged; make it again.", sealed
    assert refusal('lesson = "07"\nedition = "student"\n[text.t]\nafter = "g"\n') == (
        f"{S}: [text.t] sealed: this student copy is damaged; make it again."
    )  # no seal: nothing to open


def test_a_student_seal_bigger_than_zlibs_first_buffer_is_read_whole() -> None:
    big = base64.b64encode(zlib.compress(json.dumps({"kind": "number", "hint": "x" * 300_000}).encode())).decode()
    found = parse(f'lesson = "07"\nedition = "student"\n[exercise.e]\nsealed = "{big}"\n', S)
    assert len(found.exercises["e"].fields["hint"]) == 300_000  # bufsize is zlib's first buffer, not a limit
    text = base64.b64encode(zlib.compress(b"m" * 300_000)).decode()
    found = parse(f'lesson = "07"\nedition = "student"\n[text.t]\nafter = "g"\nsealed = "{text}"\n', S)
    assert found.texts["t"] == ("g", "m" * 300_000)


# -- finding and loading files -------------------------------------------------------------------------------


def test_find_looks_in_the_folders_in_order_and_takes_the_first_name(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    (b / "04-zeta.lesson.toml").write_text('lesson = "04"')
    (b / "04-alpha.lesson.toml").write_text('lesson = "04"')
    (a / "40-other.lesson.toml").write_text('lesson = "40"')
    (a / "04-x.toml").write_text('lesson = "04"')
    assert find("4", [a, b]) == b / "04-alpha.lesson.toml"
    assert find("04", [b, a]) == b / "04-alpha.lesson.toml"
    assert find("40", [a, b]) == a / "40-other.lesson.toml"
    assert find("05", [a, b]) is None
    assert find("04", [tmp_path / "missing", b]) == b / "04-alpha.lesson.toml"


def test_find_and_lessons_skip_a_folder_they_cannot_read(tmp_path: Path) -> None:
    unreadable = tmp_path / ("x" * 300)  # a name too long for the file system: listing it raises OSError
    (tmp_path / "04-a.lesson.toml").write_text('lesson = "04"')
    assert find("04", [unreadable, tmp_path]) == tmp_path / "04-a.lesson.toml"
    assert find("04", [unreadable]) is None
    assert lessons([unreadable, tmp_path]) == ["04"]


def test_find_and_lessons_look_where_the_class_report_says_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    chosen, here = tmp_path / "chosen", tmp_path / "here"
    chosen.mkdir(), here.mkdir(), (here / "notebooks").mkdir()
    (chosen / "98-a.lesson.toml").write_text('lesson = "98"')
    (here / "98-b.lesson.toml").write_text('lesson = "98"')
    (here / "notebooks" / "97-c.lesson.toml").write_text('lesson = "97"')
    monkeypatch.chdir(here)
    monkeypatch.setenv(FOLDER_VARIABLE, str(chosen))
    assert find("98") == chosen / "98-a.lesson.toml"
    assert find("97") == here / "notebooks" / "97-c.lesson.toml"
    assert find("01") == ROOT / "notebooks" / next(
        p.name for p in sorted((ROOT / "notebooks").glob("01-*.lesson.toml"))
    )
    assert {"97", "98", "01"} <= set(lessons())
    monkeypatch.delenv(FOLDER_VARIABLE)
    assert find("98") == here / "98-b.lesson.toml"
    monkeypatch.setenv(FOLDER_VARIABLE, "")
    assert find("98") == here / "98-b.lesson.toml"


def test_lessons_lists_the_numbers_of_the_files_found(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    for name in ["05-x.lesson.toml", "03-y.lesson.toml"]:
        (a / name).write_text("")
    for name in ["05-z.lesson.toml", "1-w.lesson.toml", "07-v.toml", "ab-u.lesson.toml"]:
        (b / name).write_text("")
    assert lessons([a, b]) == ["03", "05"]
    assert lessons([tmp_path / "missing"]) == []


def test_load_reads_a_file_once_until_it_changes(tmp_path: Path) -> None:
    path = tmp_path / "99-x.lesson.toml"
    path.write_text('lesson = "99"\n', encoding="utf-8")
    os.utime(path, ns=(10**18, 10**18))
    first = load(path)
    assert first.lesson == "99" and first.source == "99-x.lesson.toml"
    assert load(path) is first
    path.write_text('lesson = "98"\n', encoding="utf-8")  # the same size, a new time
    os.utime(path, ns=(10**18 + 1, 10**18 + 1))
    assert load(path).lesson == "98"
    path.write_text('lesson = "097"\n', encoding="utf-8")  # a new size, the same time
    os.utime(path, ns=(10**18 + 1, 10**18 + 1))
    assert load(path).lesson == "097"


def test_load_tells_two_files_of_the_same_size_and_time_apart(tmp_path: Path) -> None:
    first, second = tmp_path / "98-a.lesson.toml", tmp_path / "97-b.lesson.toml"
    first.write_text('lesson = "98"\n', encoding="utf-8")
    second.write_text('lesson = "97"\n', encoding="utf-8")
    for path in (first, second):
        os.utime(path, ns=(10**18, 10**18))
    assert (load(first).lesson, load(second).lesson) == ("98", "97")


def test_load_refuses_a_big_file_a_missing_one_and_one_not_in_utf8(tmp_path: Path) -> None:
    big = tmp_path / "99-big.lesson.toml"
    big.write_text('lesson = "99"\n#' + "x" * MAX_BYTES, encoding="utf-8")
    with pytest.raises(DeclarationError) as caught:
        load(big)
    assert str(caught.value) == "99-big.lesson.toml: the file is bigger than 200,000 bytes."
    with pytest.raises(DeclarationError) as caught:
        load(tmp_path / "none.lesson.toml")
    assert str(caught.value) == f"{tmp_path / 'none.lesson.toml'}: cannot be read (No such file or directory)."
    latin = tmp_path / "99-latin.lesson.toml"
    latin.write_bytes('lesson = "99"\n# café'.encode("latin-1"))
    with pytest.raises(DeclarationError) as caught:
        load(latin)
    assert str(caught.value) == "99-latin.lesson.toml: not text in UTF-8."


def test_a_file_exactly_at_the_bound_is_loaded(tmp_path: Path) -> None:
    path = tmp_path / "99-edge.lesson.toml"
    head = 'lesson = "99"\n#'
    path.write_text(head + "x" * (MAX_BYTES - len(head)), encoding="utf-8")
    assert load(path).lesson == "99"


def test_check_folder_names_each_problem(tmp_path: Path) -> None:
    (tmp_path / "01-good.lesson.toml").write_text('lesson = "01"\n', encoding="utf-8")
    (tmp_path / "02-bad.lesson.toml").write_text('lesson = "02"\nedition = "x"\n', encoding="utf-8")
    (tmp_path / "03-wrong.lesson.toml").write_text('lesson = "30"\n', encoding="utf-8")
    (tmp_path / "304-near.lesson.toml").write_text('lesson = "30"\n', encoding="utf-8")
    (tmp_path / "notes.toml").write_text("not toml at all [", encoding="utf-8")
    assert check_folder(tmp_path) == [
        '02-bad.lesson.toml: edition must be "teacher" or "student", not \'x\'.',
        "03-wrong.lesson.toml: it declares lesson 30, but its name starts otherwise.",
        "304-near.lesson.toml: it declares lesson 30, but its name starts otherwise.",
    ]
    assert check_folder(tmp_path / "01-good.lesson.toml") == [f"{tmp_path / '01-good.lesson.toml'}: not a folder."]


def test_a_sealed_field_that_unpacks_beyond_the_limit_is_refused_without_unpacking_it() -> None:
    """A student copy under 100 kB whose sealed text would unpack to 50 MB: refused as damaged (4 MB at most)."""
    import base64
    import zlib

    from duel_lessons.teaching import declared

    bomb = base64.b64encode(zlib.compress(b" " * 50_000_000, 9)).decode()
    assert len(bomb) < 100_000
    with pytest.raises(ValueError, match="more than 4,000,000 bytes"):
        declared._inflate(bomb)
    with pytest.raises(declared.DeclarationError, match="damaged"):
        declared._unseal({"sealed": bomb}, "x.lesson.toml: [exercise.a]")
    cut = base64.b64encode(zlib.compress(b'{"a": 1}')[:-3]).decode()
    with pytest.raises(declared.DeclarationError, match="damaged"):
        declared._unseal({"sealed": cut}, "x.lesson.toml: [exercise.a]")
    assert declared._unseal({"sealed": base64.b64encode(zlib.compress(b'{"a": 1}')).decode()}, "w") == {"a": 1}


PAIR = """lesson = "09"
[exercise.p]
kind = "pair"
label = "The reply"
what = "(heap 1, heap 2)"
first = { answer = 3, what = "heap 1" }
second = { answer = "Equal ", what = "how the heaps are" }
[exercise.q]
kind = "pair"
first = { value = "2 + 1", what = "heap 1" }
second = { answer = 7, what = "heap 2" }
"""


def test_a_pairs_literal_parts_are_kept_only_as_digests_and_judged_alike() -> None:
    """A pair's literal parts are answers too: the student copy keeps their digests (salted per part), never
    the values, and judges as the teacher's file does (a text without case or spaces, 3.0 as 3)."""
    teacher = parse(PAIR, "09-x.lesson.toml")
    text = teacher.student_text()
    lines = text.split("\n")
    p = unpack(lines[lines.index('[exercise."p"]') + 2][len('sealed = "') : -1])
    assert p["first"] == {"answer_digest": sha("09:p:first", 3), "what": "heap 1"}  # type: ignore[index]
    assert p["second"] == {"answer_digest": sha("09:p:second", "equal"), "what": "how the heaps are"}  # type: ignore[index]
    q = unpack(lines[lines.index('[exercise."q"]') + 2][len('sealed = "') : -1])
    assert q["first"] == {"value": "2 + 1", "what": "heap 1"}  # type: ignore[index]
    assert q["second"] == {"answer_digest": sha("09:q:second", 7), "what": "heap 2"}  # type: ignore[index]
    student = parse(text, "09-x.lesson.toml")
    for answer, kind in [((3, "equal"), "right"), ((3.0, " EQUAL"), "right"), ((3, "bigger"), "partial"),
                         ((4, "equal"), "partial"), ((True, "no"), "miss"), ((2, 3), "miss")]:  # fmt: skip
        assert student.check("p", answer, {}).kind == kind == teacher.check("p", answer, {}).kind, answer
    for answer, kind in [((3, 7), "right"), ((3, 8), "partial"), ((1, 1), "miss")]:
        assert student.check("q", answer, {}).kind == kind == teacher.check("q", answer, {}).kind, answer


def test_a_sealed_field_is_unpacked_only_as_far_as_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Exactly MAX_UNPACKED bytes are read whole; a bomb is never unpacked past the limit (bounded memory)."""
    import base64
    import zlib

    from duel_lessons.teaching import declared

    full = b"7" * declared.MAX_UNPACKED
    assert declared._inflate(base64.b64encode(zlib.compress(full)).decode()) == full
    largest = []
    real = zlib.decompressobj

    class Recording:
        def __init__(self) -> None:
            self.inner = real()

        def decompress(self, data: bytes, max_length: int = 0) -> bytes:
            out = self.inner.decompress(data, max_length)
            largest.append(len(out))
            return out

        @property
        def eof(self) -> bool:
            return self.inner.eof

    monkeypatch.setattr(declared.zlib, "decompressobj", Recording)
    with pytest.raises(ValueError, match="more than"):
        declared._inflate(base64.b64encode(zlib.compress(b" " * 50_000_000, 9)).decode())
    assert largest == [declared.MAX_UNPACKED + 1]
