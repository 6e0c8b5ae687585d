"""Checks that cannot be gamed: for every answer check of every shipped persona's bundle, the right answer passes
and every adversarial answer made from the persona's own data fails (other candidates, near misses, a value
without its unit, every candidate at once); and the matching rules behind it (whole words, times, money)."""

from __future__ import annotations

import pytest

from builder.apps import discover
from builder.tasks import collect
from builder.tasks.adversary import adversaries, harden, kind_of
from builder.tasks.grade import run_check
from builder.tasks.matching import amounts, numbers, text_match
from builder.tasks.model import Check, RubricItem, Task
from tests.conftest import shared
from tests.tasks.test_categories import _answer


def _bundle_tasks(world):
    return shared(f"bundle-tasks-{world.persona.id}", lambda: collect.tasks(world, list(discover())))


def test_no_adversarial_answer_passes_and_the_right_one_does(any_world):
    persona, world = any_world
    currency = persona.finances.currency
    tried, passed, right_failed, with_reject = 0, [], [], 0
    for t in _bundle_tasks(world):
        items = [i for i in t.rubric if i.check.type.startswith("answer_")]
        if not items:
            continue
        answer = _answer(t, currency) if t.kind != "action" else None
        for i in items:
            with_reject += bool(i.check.reject)
            if answer is not None and not run_check(i.check, {}, answer)[0]:
                right_failed.append((t.id, i.id, answer))
            for label, bad in adversaries(i.check, currency):
                tried += 1
                if run_check(i.check, {}, bad)[0]:
                    passed.append((t.id, i.id, label, bad[:120]))
    assert tried >= 2000, tried
    assert with_reject >= 300, with_reject
    assert not right_failed, right_failed[:10]
    assert not passed, passed[:10]


def test_every_candidate_at_once_fails_where_a_reviewer_found_it_scoring():
    """The reviewer's attack: name every restaurant (or amount) any task of the kind expects, plus the right one."""

    def task(tid: str, check: Check, instruction: str = "Which one?") -> Task:
        return Task(
            id=f"p/dining/{tid}",
            persona="p",
            kind="lookup",
            instruction=instruction,
            apps_involved=["dining"],
            difficulty="easy",
            time_limit_seconds=60,
            rubric=[RubricItem(id="a", requirement="r", weight=100, check=check)],
            expected={},
        )

    names = ["Khao Hom", "Abyssinia House", "Addis Table"]
    ts = harden([task(f"t{k}", Check(type="answer_text", any_of=[n])) for k, n in enumerate(names)])
    every = ", ".join(names)
    for t in ts:
        assert t.rubric[0].check.reject, t.id
        assert not run_check(t.rubric[0].check, {}, every)[0]
        assert run_check(t.rubric[0].check, {}, t.rubric[0].check.any_of[0])[0]
    money = harden([task(f"m{k}", Check(type="answer_amount", cents=c)) for k, c in enumerate([9180, 1530, 4200])])
    assert not run_check(money[0].rubric[0].check, {}, "$91.80, $15.30 or $42.00")[0]
    assert run_check(money[0].rubric[0].check, {}, "It came to $91.80.")[0]


@pytest.mark.parametrize(
    ("answer", "spellings", "reject", "met"),
    [
        ("It is at 11 PM", ["1 PM"], [], False),
        ("It is at 1pm", ["1 PM", "13:00"], [], True),
        ("booked for 19:45 Uhr", ["7:45 PM"], [], True),
        ("Senior Product Designer", ["Senior Product Designer"], ["Product Designer"], True),
        ("Product Designer", ["Senior Product Designer"], [], False),
        ("Theo Baker came", ["Theo Nakamura", "Theo"], ["Theo Baker"], False),
        ("Café Müller", ["cafe muller"], [], True),
        ("TT12345678", ["TT1234567"], [], False),
    ],
)
def test_text_matching_is_whole_word_and_normalised(answer, spellings, reject, met):
    assert text_match(answer, spellings, reject)[0] is met


def test_money_needs_its_currency_and_reads_every_locale():
    assert amounts("You spent $1,234.56 and 12.50, not 7") == {123456}
    assert amounts("1.234,56 € und 12 Euro") == {123456, 1200}
    assert amounts("USD 3 222.31; ¥1,850; £7") == {322231, 185000, 700}
    assert amounts("all 16 of them") == set()  # a lower-case word is not a currency code
    # The symbols CLDR writes for currencies without a sign: as the apps show them, glued or spaced.
    assert amounts("F\u202fCFA18,829; -F CFA 7,750; S/ 1,234.50; 1 234,56 zł; Rs 19,495") == {
        1882900,
        775000,
        123450,
        123456,
        1949500,
    }


def test_parse_money_keeps_the_minus_before_a_written_currency():
    from builder.tasks.reader import parse_money

    assert [parse_money(t) for t in ("-F CFA 7,750", "\u2212$5.00", "-CHF 1'234.50", "R$ 12,00")] == [
        -775000,
        -500,
        -123450,
        1200,
    ]


def test_numbers_leave_out_dates_times_and_money():
    assert numbers("16 times, last on November 12, 2026 at 7:45 PM for $91.80; 3 people") == {16, 3}
    assert numbers("am 12.11. um 19:45 Uhr, 2026-11-03") == set()


def test_kinds():
    assert [kind_of(x) for x in ("7:45 PM", "November 18", "18.11.", "TT78177857", "16 times", "Abyssinia House")] == [
        "time",
        "date",
        "date",
        "code",
        "count",
        "name",
    ]
