"""What the ordering apps charged in a window, as the bank's card lines and each app's own history show it: the
sums the cross-app money questions (the bank's month tallies, DashBite's food months, ZipRide's and Shopwell's
yearly shares) all compute the same way. Pure: reads the world's events and the frozen now; no randomness.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

# The ordering apps whose charges reach the card, in the order a person lists them: (app, brand, noun, extra).
# ``extra`` names what the app shows on top of the goods (fees and tips, shipping, the tip).
SERVICES = (
    ("shop", "Shopwell", "orders", "shipping"),
    ("delivery", "DashBite", "orders", "fees and tips"),
    ("grocery", "Basketful", "orders", "fees and tips"),
    ("rides", "ZipRide", "rides", "tips"),
    ("dining", "TableTime", "meals", "tips"),
)


@dataclass
class Spend:
    """One app's charges in a window: how many, their total, the extra part (fees, tips, shipping), the largest."""

    app: str
    brand: str
    noun: str
    extra_name: str
    count: int = 0
    total_cents: int = 0
    extra_cents: int = 0
    largest_cents: int = 0
    events: list = field(default_factory=list)


# A food shop of one trade, which the bank files under Groceries like a grocery store but nobody calls one: a
# butcher, a baker, a greengrocer, a deli, a fishmonger, a weekly market (the merchant banks' names in English and
# German: builder/world/templates/money/merchants.yaml).
_SPECIALIST = re.compile(
    r"\b(?:butchers?|greengrocers?|deli|delicatessen|bakery|bakehouse|bakers?|fishmongers?|cheesemongers?|"
    r"patisserie|boulangerie|metzgerei|fleischerei|bäckerei|feinkost|wochenmarkt|konditorei)\b",
    re.IGNORECASE,
)


def specialist_shop(name: str) -> bool:
    """Whether the merchant ``name`` (as a statement line or the world names it) is a food shop of one trade
    rather than a grocery store: ``"Hale & Sons Butchers"``, ``"METZGEREI BRANDT"``, ``"The Abbey Deli"``."""
    return _SPECIALIST.search(name) is not None


def _in(day: dt.date, start: dt.date, end: dt.date) -> bool:
    return start <= day <= end


def service_spend(world, start: dt.date, end: dt.date) -> list[Spend]:
    """What each ordering app charged between ``start`` and ``end`` (local days, both included, up to now), in
    :data:`SERVICES` order; an app with nothing in the window is left out."""
    out = []
    for app, brand, noun, extra in SERVICES:
        s = Spend(app, brand, noun, extra)
        if app == "shop":
            evs = [(e, e.data["total_cents"], e.data["shipping_cents"]) for e in world.of_kind("retail_order")]
        elif app in ("delivery", "grocery"):
            kind = "food_order" if app == "delivery" else "grocery_order"
            evs = [(e, e.data["total_cents"], e.data["fees_cents"] + e.data["tip_cents"]) for e in world.of_kind(kind)]
        elif app == "rides":
            evs = [(e, e.data["total_cents"], e.data["tip_cents"]) for e in world.of_kind("ride")]
        else:
            evs = [
                (e, e.data["amount_cents"], e.data.get("tip_cents", 0))
                for e in world.of_kind("card_purchase")
                if e.data.get("restaurant_booking")
            ]
        for e, total, x in evs:
            if e.status == "done" and e.at <= world.now and _in(e.at.date(), start, end):
                s.count += 1
                s.total_cents += total
                s.extra_cents += x
                s.largest_cents = max(s.largest_cents, total)
                s.events.append(e)
        if s.count:
            out.append(s)
    return out
