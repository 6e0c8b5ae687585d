"""Money requests: a contact covered a shared expense and asks the persona for their share.

Rules (tasks depend on them):

* At most two open ``money_request`` events, made in the last 14 days before ``now``: for the
  restaurant bookings a companion paid the whole table for (``paid_by``, chosen by the dining step in
  ``builder/world/orders.py``: the latest done bookings with a companion who uses chat and the bank; the persona's
  card has no charge for them). The companion who paid asks; ``amount_cents`` is the persona's part of the bill
  with its tip (``share_cents``), ``memo`` names the meal and the restaurant in the persona's
  language (``templates/requests/<locale>.yaml``).
* Each request is a ``chat_message`` from the contact in their chat thread (``ref`` = the
  request's id) an hour or more after the meal, at a waking hour (08:00-22:00; a request that would
  fall at night waits for the morning), and the persona's short acknowledgement; the
  request stays ``open`` (``paid: false``): nothing in the world pays it. Paying it back (in
  the bank) is the agent's job.
* Draws come only from ``requests/...`` streams; no other module reads these events.
"""

from __future__ import annotations

import datetime as dt


from .calendar import reservation_time
from .chat import Chat, _compiled
from .engine import world_step
from .context import Sim
from .locale import phrase_bank
from .mail import has_app
from .orders import REQUEST_DAYS as WINDOW_DAYS
from .orders import REQUESTS_OPEN as MAX_OPEN


def _say(locale: str, kind: str, style: str, r, **ctx) -> str:
    bank = phrase_bank("requests", locale)[kind]
    variants = bank.get(style) or bank.get("chatty") or bank.get("me") or next(iter(bank.values()))
    return _compiled(variants[r.randrange(len(variants))]).render(**ctx)


def _waking(at: dt.datetime, r) -> dt.datetime:
    """``at`` if it falls 08:00-21:59, else the next morning between 08:00 and 09:59."""
    if 8 <= at.hour < 22:
        return at
    day = at.date() if at.hour < 8 else at.date() + dt.timedelta(days=1)
    return dt.datetime.combine(day, dt.time(8 + r.randint(0, 1), r.randint(0, 59)))


@world_step(rank=100, reads=("restaurant_booking",), writes=("money_request", "chat_message"))
def simulate_money_requests(sim: Sim) -> None:
    """Append open ``money_request`` events and the chat messages that make them (see module rules)."""
    chat = Chat(sim)
    if not chat.contacts:
        return
    by_name = {c.name: c for c in chat.contacts if has_app(c, "bank")}
    since = sim.now - dt.timedelta(days=WINDOW_DAYS)
    bookings = [e for e in sim.of_kind("restaurant_booking") if e.status == "done"]
    made = 0
    for booking in sorted(bookings, key=lambda e: e.at, reverse=True):
        meal = reservation_time(sim, booking)
        if meal is None or not since <= meal <= sim.now - dt.timedelta(hours=3):
            continue
        asker = by_name.get(booking.data.get("paid_by") or "")
        if asker is None:
            continue
        r = sim.rng(f"requests/{booking.id}")
        party = max(2, int(booking.data.get("party_size") or 2))
        share = booking.data["share_cents"]
        memo = _compiled(
            phrase_bank("requests", chat.bank_of(asker))["memo"]["dinner" if meal.hour >= 17 else "lunch"]
        ).render(restaurant=booking.data["restaurant"])
        asked = _waking(meal + dt.timedelta(hours=r.randint(1, 20), minutes=r.randint(0, 59)), r)
        if asked > sim.now - dt.timedelta(hours=1):
            continue
        req = sim.event(
            "money_request",
            asked,
            {
                "contact": asker.name,
                "contact_email": asker.email,
                "contact_phone": asker.phone,
                "amount_cents": share,
                "memo": memo,
                "party_size": party,
                "ref": booking.id,
                "paid": False,
                "via": "chat",
            },
            key=booking.id,
        )
        with chat.speaking(asker):  # in the asker's language (Contact.language), else the persona's
            amount, tongue = chat.fmt.money(share), chat.bank_of(asker)
            lines = [
                (False, _say(tongue, "ask", asker.messaging_style or "chatty", r, amount=amount, memo=memo)),
                # A bank without a formal voice for the persona (English) falls back to its plain one.
                (True, _say(tongue, "ack", "me_formal" if asker.messaging_style == "formal" else "me", r)),
            ]
            chat.post(asker, asked, lines, ("request", req.id), r, ref=req.id)
        made += 1
        if made == MAX_OPEN:
            break
