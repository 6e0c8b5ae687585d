"""The spec's own ``purchases`` and ``wishlist`` (issue 26): honoured in the world, the shop, the bank and the mail, or
refused in one line naming the path."""

from __future__ import annotations

import copy
import datetime as dt
import json
import sqlite3
from pathlib import Path

import pytest

from builder.persona import SpecError, complete, load
from builder.persona.model import Persona
from builder.reference.retail import catalogue as retail
from builder.world import simulate

REPO = Path(__file__).resolve().parents[2]
# A catalogue product's en_US title: a wish without a price must name one.
CATALOGUE_TITLE = retail.title(retail.catalogue()[0], "en_US")
PURCHASES = [
    # Online, an item the catalogue lacks: 2 x 27.50 = 55.00, shipping free from 35.00.
    {"date": "2026-03-08", "item": "Hario V60 <ceramic> dripper", "price": 27.5, "quantity": 2, "category": "home"},
    # Online, a catalogue product's title, at the price the author paid: 19.99 + 5.99 shipping.
    {"date": "2026-07-14", "item": CATALOGUE_TITLE, "price": 19.99, "merchant": "Shopwell"},
    # In a store: 3 x 12.40 on the card, the item in the bank line's memo.
    {"date": "2026-09-07", "item": "Brass door hinge", "price": "12.40", "quantity": 3, "merchant": "Corner Hardware"},
]
WISHLIST = [
    {"item": CATALOGUE_TITLE},
    {"item": "Fellow Stagg EKG kettle", "price": 165, "added": "2026-10-02", "category": "Electronics"},
    {"item": "Black Diamond Spot 400 headlamp", "price": 49.95},
]


def _spec() -> dict:
    spec = json.loads((REPO / "personas" / "jordan-lee.json").read_text())
    return {**spec, "purchases": copy.deepcopy(PURCHASES), "wishlist": copy.deepcopy(WISHLIST)}


@pytest.fixture(scope="module")
def shopped():
    """(persona, world) of the minimal persona with three purchases and three wishes."""
    p = complete(Persona.model_validate(_spec()))
    return p, simulate(p)


def test_online_purchases_are_shop_orders_charged_mailed_and_delivered(shopped):
    p, world = shopped
    orders = {e.data["items"][0]["name"]: e for e in world.of_kind("retail_order")}
    account = "credit_card" if any(a.kind == "credit_card" for a in p.accounts) else "checking"
    for buy, sub, shipping in [(PURCHASES[0], 5500, 0), (PURCHASES[1], 1999, 599)]:
        e = orders[buy["item"]]
        line = e.data["items"][0]
        assert e.at.date() == dt.date.fromisoformat(buy["date"]) and e.status == "done"
        assert (line["qty"], line["price_cents"]) == (buy.get("quantity", 1), round(float(buy["price"]) * 100))
        assert (e.data["subtotal_cents"], e.data["shipping_cents"], e.data["total_cents"]) == (
            sub,
            shipping,
            sub + shipping,
        )
        # The bank's card line: price x quantity + the shop's shipping, no tax.
        assert [(x.account, x.amount_cents) for x in e.postings] == [(account, -(sub + shipping))]
        mails = [m for m in world.of_kind("email") if m.data.get("ref") == e.id]
        assert "order_confirmation" in {m.data.get("series") for m in mails}
        delivery = [d for d in world.of_kind("retail_delivery") if d.data["order_id"] == e.data["order_id"]]
        assert len(delivery) == 1 and delivery[0].data["items"] == [buy["item"]] and delivery[0].at > e.at
    own, listed = orders[PURCHASES[0]["item"]].data["items"][0], orders[CATALOGUE_TITLE].data["items"][0]
    assert own["product_id"].startswith("SP") and own["category"] == "home"
    assert listed["product_id"] == retail.catalogue()[0]["id"]


def test_a_store_purchase_is_a_card_line_noting_the_item(shopped):
    p, world = shopped
    [e] = [e for e in world.of_kind("card_purchase") if e.data["merchant"] == "Corner Hardware"]
    assert e.at.date() == dt.date(2026, 9, 7) and e.data["amount_cents"] == 3720 and e.data["category"] == "shopping"
    assert (e.data["item"], e.data["quantity"]) == ("Brass door hinge", 3)
    [posting] = e.postings
    assert (posting.amount_cents, posting.memo) == (-3720, "3 × Brass door hinge")


def test_the_worlds_own_orders_stay(shopped):
    p, world = shopped
    plain = simulate(complete(Persona.model_validate({**_spec(), "purchases": None, "wishlist": None})))
    mine = {e.data["order_id"] for e in world.of_kind("retail_order")}
    theirs = {e.data["order_id"] for e in plain.of_kind("retail_order")}
    assert theirs < mine and len(mine - theirs) == 2


def test_shop_and_bank_show_them(shopped, tmp_path):
    from apps.bank.seed import seed as seed_bank
    from apps.shop.seed import seed as seed_shop

    p, world = shopped
    con = sqlite3.connect(seed_shop(world, tmp_path / "shop.sqlite"))
    rows = con.execute(
        "SELECT substr(o.placed_at, 1, 10), i.name, i.qty, i.price_cents, o.total_cents, p.title, p.slug "
        "FROM orders o JOIN order_items i ON i.order_id = o.id JOIN products p ON p.id = i.product_id "
        "WHERE i.name IN (?, ?)",
        (PURCHASES[0]["item"], CATALOGUE_TITLE),
    ).fetchall()
    assert sorted(rows) == [
        ("2026-03-08", "Hario V60 <ceramic> dripper", 2, 2750, 5500, "Hario V60 <ceramic> dripper", rows[0][6]),
        ("2026-07-14", CATALOGUE_TITLE, 1, 1999, 2598, CATALOGUE_TITLE, retail.catalogue()[0]["slug"]),
    ]
    # Exactly the spec's wish list, in order, at its prices (the catalogue's without one), on its day when given.
    wishes = con.execute(
        "SELECT p.title, p.min_price_cents, w.added_at, w.world_ref FROM wishlist w JOIN products p "
        "ON p.id = w.product_id ORDER BY w.world_ref"
    ).fetchall()
    first_price = min(retail.local_price(v["price_usd"], world.currency) for v in retail.catalogue()[0]["variants"])
    assert [(t, c, ref) for t, c, _, ref in wishes] == [
        (CATALOGUE_TITLE, first_price, "spec:wishlist/0"),
        ("Fellow Stagg EKG kettle", 16500, "spec:wishlist/1"),
        ("Black Diamond Spot 400 headlamp", 4995, "spec:wishlist/2"),
    ]
    assert wishes[1][2].startswith("2026-10-02T") and all(w[2] < world.now.isoformat() for w in wishes)
    # The kettle's category names a department; the headlamp's listing goes to the everyday aisle.
    departments = dict(con.execute("SELECT title, department FROM products WHERE id LIKE 'SP%'").fetchall())
    assert departments == {
        "Hario V60 <ceramic> dripper": "home",
        "Fellow Stagg EKG kettle": "electronics",
        "Black Diamond Spot 400 headlamp": "household",
    }
    con.close()
    bank = sqlite3.connect(seed_bank(world, tmp_path / "bank.sqlite"))
    ids = [
        e.id
        for e in world.of_kind("retail_order", "card_purchase")
        if e.data.get("items", [{}])[0].get("name") in (PURCHASES[0]["item"], CATALOGUE_TITLE)
        or e.data.get("merchant") == "Corner Hardware"
    ]
    lines = bank.execute(
        f"SELECT substr(posted_at, 1, 10), counterparty, amount_cents, memo FROM transactions "
        f"WHERE world_ref IN ({', '.join('?' for _ in ids)}) ORDER BY posted_at",
        ids,
    ).fetchall()
    assert lines == [
        ("2026-03-08", "Shopwell", -5500, None),
        ("2026-07-14", "Shopwell", -2598, None),
        ("2026-09-07", "Corner Hardware", -3720, "3 × Brass door hinge"),
    ]
    bank.close()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s["purchases"][0].update(date="2026-11-16"), "purchases[0].date: must be a day of the history"),
        (lambda s: s["purchases"][1].update(date="2024-01-01"), "purchases[1].date: must be a day of the history"),
        (lambda s: s["purchases"][2].update(quantity=0), "purchases[2].quantity"),
        (lambda s: s["purchases"][0].update(price=0), "purchases[0].price"),
        (lambda s: s["wishlist"][1].update(added="2026-11-17"), "wishlist[1].added: must be a day of the history"),
        (lambda s: s["wishlist"][2].update(item="fellow stagg  EKG kettle"), "wishlist[2].item: also wishlist[1]'s"),
        (lambda s: s["wishlist"][2].pop("price"), "wishlist[2].price: needed: the shop's catalogue has no product"),
        (lambda s: s["purchases"].extend([s["purchases"][0]] * 48), "purchases: list should have at most 50 items"),
    ],
)
def test_what_cannot_be_honoured_is_refused_naming_the_path(tmp_path, change, message):
    spec = _spec()
    change(spec)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(spec))
    with pytest.raises(SpecError) as err:
        load(path)
    assert any(message in line for line in err.value.lines), err.value.lines
