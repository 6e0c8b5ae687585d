"""Tidewell's answers summed over several apps (ids ``<persona>/brokerage/x-...``)."""

from __future__ import annotations

from apps.brokerage import reader as seen
from apps.brokerage.tasks import APP, in_use
from builder.money import money, to_unit
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.tasks.reader import Reading, See, Unreadable, reader
from builder.world import World, brokerage_book, brokerage_value_cents
from scenarios import RECAPS, bankbook


def crossapp_tasks(world: World) -> list[Task]:
    """Net worth across the bank (checking, savings, the card's balance owed), Tidewell (the account's value, cash
    included) and Hunchline (cash), when the persona has a Tidewell account. A brokerage account of the spec is
    Tidewell's: the bank lists it with Tidewell's cash, which Tidewell's value already holds, so it is counted once
    (in Tidewell) and the instruction says so."""
    from builder.tasks import answers as A

    p = world.persona
    if not world.of_kind("brokerage_opening"):
        return []
    pid, cur = p.id, world.currency
    kinds = world.account_kinds()
    listed = "brokerage" in kinds
    parts = [
        (k, next(a.name for a in p.accounts if a.kind == k), world.closing_balance_cents(k))
        for k in kinds
        if k != "brokerage"
    ]
    # The overview's headline: the exact value written in the currency's unit (whole yen where it has no cents).
    tidewell = to_unit(brokerage_value_cents(world, world.now.date(), brokerage_book(world)), cur)
    apps = ["bank", APP]
    extra = [("tidewell", "Tidewell account", tidewell)]
    if world.of_kind("forecast_deposit"):
        from builder.world import forecasts

        extra.append(("hunchline", "Hunchline cash", forecasts.account(world)["cash_cents"]))
        apps.append("markets")
    net = sum(c for _, _, c in parts) + sum(c for _, _, c in extra)
    items = parts + extra
    ws = [80 // len(items)] * len(items)
    ws[0] += 80 - sum(ws)
    return [
        Task(
            id=f"{pid}/{APP}/x-net-worth",
            persona=pid,
            apps_involved=sorted(apps),
            kind="aggregation",
            difficulty="hard",
            time_limit_seconds=1200,
            instruction="What am I worth right now, all told? List the balance of each of my bank accounts (count "
            "what I owe on the card as negative), my Tidewell account including its cash"
            + (", my Hunchline cash" if len(extra) > 1 else "")
            + ", and the net total."
            + (
                " The brokerage account the bank lists is my Tidewell cash: count it only once, in Tidewell."
                if listed
                else ""
            ),
            expected={"parts_cents": {k: c for k, _, c in items}, "net_cents": net},
            rubric=[
                RubricItem(id=k, weight=w, requirement=f"{name}: {money(c, cur)}", check=A.amount(c))
                for (k, name, c), w in zip(items, ws)
            ]
            + [RubricItem(id="net", weight=20, requirement=f"Net total {money(net, cur)}", check=A.amount(net))],
        )
    ]


@reader()
def read_net_worth(see: See, given: dict) -> Reading:
    """Each bank account's current balance (the card's as owed, negative), Tidewell's value with its cash,
    Hunchline's cash (when Hunchline is on the desktop), and their sum. A brokerage account the bank lists with
    the very amount of Tidewell's Cash is that cash, already in Tidewell's value: not counted twice."""
    from apps.markets import reader as hunchline

    values, steps = {}, []
    for a in bankbook.accounts(see):
        if a["kind"] == "brokerage":  # the broker's account the bank lists: Tidewell's cash, if it shows as much
            cash, cash_shown = seen.cash(see)
            if a["balance"] != cash:
                raise Unreadable(
                    f"the bank's {a['name']} ({a['shown']}) is not Tidewell's cash ({cash_shown}): another account?"
                )
            steps.append(f"bank: {a['name']} {a['shown']} is Tidewell's Cash {cash_shown}: counted in Tidewell's value")
            continue
        values[a["kind"]] = values.get(a["kind"], 0) + a["balance"]
        steps.append(f"bank: {a['name']} ({a['kind']}) current balance {a['shown']}")
    values["tidewell"], shown = seen.value(see)
    steps.append(f"Tidewell overview: account value {shown}")
    if "markets" in see.domains:
        values["hunchline"], shown = hunchline.cash(see)
        steps.append(f"Hunchline Portfolio: Cash {shown}")
    values["net"] = sum(values.values())
    return Reading(values=values, steps=[*steps, f"net {values['net']} cents"])


SCENARIOS = [
    Scenario(
        home="brokerage",
        apps=("brokerage",),
        tasks=crossapp_tasks,
        rank=RECAPS,
        when=in_use,
        readers={"x-net-worth": read_net_worth},
    )
]
