"""World -> rows of the Bramblestay database (``stays.sqlite``).

The inventory (cities, properties, room types, seeded guest reviews) comes from :mod:`builder.reference.lodging.inventory`;
the persona's bookings are the world's ``hotel_booking`` events (made on this site, paid at the
property at check-out, as the world's ``hotel_checkout`` posting is). The world drew each stay from this
inventory (``data["property"]`` is the listing's slug) and priced it with :func:`builder.reference.lodging.rates.quote`, so a
booking's nightly, subtotal, taxes, fees and total are the world's ``data["price"]``, in the city's own
currency (``cities.country``'s currency: EUR in Lisbon); the card's charge in its own currency is the
world's ``total_cents``. Each holds one room of its type per night. Free cancellation ends 48 hours before check-in
(15:00 in the hotel's city), as the confirmation mail says. The persona reviewed the stays that
ended more than 180 days before the world's now; later stays wait for a review.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from zoneinfo import ZoneInfo

from sqlalchemy.orm import Session as OrmSession

from builder import appkit, dbfile
from builder.rng import rng
from builder.world import World, payment_cards
from builder.reference.locale import language
from builder.reference import fx

from . import models as m
from builder.reference.lodging.inventory import canonical_city, catalog

from .inventory import inventory

APP = "stays"
SITE = "http://bramblestay.test/"
FREE_CANCEL_HOURS = 48
REVIEW_AFTER_DAYS = 180


def credentials(world: World) -> dict[str, str]:
    """The persona's sign-in facts: ``{"username", "password", "session_token"}`` (builder.appkit)."""
    return appkit.credentials(world, APP)


def signed_in_text(world: World) -> str:
    """What the signed-in home page shows for sure: the persona's first name."""
    return world.persona.identity.name.split()[0]


def cancel_deadline(check_in: str, city_zone: str, persona_zone: str, hours: int = FREE_CANCEL_HOURS) -> str:
    """Free-cancellation deadline of a stay starting ``check_in`` (YYYY-MM-DD, 15:00 in ``city_zone``):
    ``hours`` before that, as a naive local ISO time of ``persona_zone`` (seconds 00)."""
    start = dt.datetime.combine(dt.date.fromisoformat(check_in), dt.time(15, 0), ZoneInfo(city_zone))
    return (start - dt.timedelta(hours=hours)).astimezone(ZoneInfo(persona_zone)).replace(tzinfo=None).isoformat()


def bookings(world: World) -> list[dict]:
    """The persona's bookings from the world, in booking order: the ``hotel_booking`` event's data plus
    ``event`` (its id), ``booked_at`` (naive local ISO), ``city`` (the catalog's name) and ``checkout``
    (the matching ``hotel_checkout`` event or None)."""
    checkouts = {e.data["confirmation"]: e for e in world.of_kind("hotel_checkout") if e.status == "done"}
    out = []
    for e in world.of_kind("hotel_booking"):
        if e.status != "done":
            continue
        out.append(
            {
                **e.data,
                "event": e.id,
                "booked_at": e.at.isoformat(),
                "city": canonical_city(e.data["city"]),
                "checkout": checkouts.get(e.data["confirmation"]),
            }
        )
    return out


def stay_calendar_uids(world: World) -> dict[str, str]:
    """Confirmation number -> the UID of the stay's entry in the world's calendar (``hotel`` events whose ``ref`` is
    the ``hotel_stay``), so the app's .ics of a changed stay updates that entry instead of adding a second one."""
    stay_conf = {e.id: e.data["confirmation"] for e in world.of_kind("hotel_stay")}
    return {
        stay_conf[c.data["ref"]]: c.data["uid"]
        for c in world.of_kind("calendar_event")
        if c.data.get("source") == "hotel" and c.data.get("ref") in stay_conf and c.data.get("uid")
    }


def bookmarks(world: World) -> list[dict[str, str]]:
    """One toolbar bookmark: the persona's trips on Bramblestay (only when the world books a hotel)."""
    return (
        [{"title": "My trips | Bramblestay", "url": f"{SITE}trips", "folder": "menu/Travel"}] if bookings(world) else []
    )


def visits(world: World) -> list[dict]:
    """History visits on Bramblestay's real pages (the world's browsing visits only the home page): for each
    booking the search of its city a few minutes before it and the trip page a few minutes after, and the trip
    page again 1-3 days before check-in. ``{"url", "title", "at": naive local, "transition"}``, at or before
    ``world.now``, sorted; draws from stream ``stays/visits``."""
    r = rng(world.seed, "stays/visits")
    out = []
    for b in bookings(world):
        booked = dt.datetime.fromisoformat(b["booked_at"])
        query = (
            f"city={b['city'].replace(' ', '+')}&checkin={b['check_in']}&checkout={b['check_out']}&guests={b['guests']}"
        )
        out.append(
            {
                "url": f"{SITE}search?{query}",
                "title": "Search stays | Bramblestay",
                "at": booked - dt.timedelta(minutes=r.randint(4, 15)),
                "transition": "link",
            }
        )
        trip_title = f"{b['hotel']} | Bramblestay"
        out.append(
            {
                "url": f"{SITE}trips/{b['confirmation']}",
                "title": trip_title,
                "at": booked + dt.timedelta(minutes=r.randint(1, 6)),
                "transition": "link",
            }
        )
        before = dt.datetime.combine(dt.date.fromisoformat(b["check_in"]), dt.time(19, 0)) - dt.timedelta(
            days=r.randint(1, 3), minutes=r.randint(0, 120)
        )
        out.append(
            {"url": f"{SITE}trips/{b['confirmation']}", "title": trip_title, "at": before, "transition": "typed"}
        )
    return sorted((v for v in out if v["at"] <= world.now), key=lambda v: (v["at"], v["url"]))


def home_files(world: World, home: Path) -> list[Path]:
    """The hotel folio PDF of every past stay (``builder.files.travel_docs.folios``, when that module exists)."""
    try:
        from builder.files.travel_docs import folios
    except ImportError:
        return []
    return folios(world, home)


def _review_text(r, lang: str, score: int) -> str:
    band = "high" if score >= 4 else "mid" if score == 3 else "low"
    bank = catalog()["reviews"][lang][band]
    return " ".join(r.choice(bank[p]) for p in ("opener", "detail", "closer")).replace(
        "The host left", "Reception gave us"
    )


def seed(world: World, path: Path) -> Path:
    """Create ``path`` (must not exist) as the Bramblestay database for ``world`` and return it.

    Byte-identical for the same world (builder.dbfile). Raises ``FileExistsError`` if ``path`` exists,
    ``KeyError`` if a world booking's city, hotel or room type is missing from the inventory.
    """
    p = world.persona
    ident = p.identity
    engine = dbfile.create(path, m.Base.metadata)
    creds = credentials(world)
    now = world.now
    lang = language(p.bank)
    world_bookings = bookings(world)
    calendar_uids = stay_calendar_uids(world)
    with OrmSession(engine) as db:
        db.add(
            m.User(
                id=1,
                username=creds["username"],
                full_name=ident.name,
                email=ident.email,
                phone=ident.phone,
                password_hash=appkit.password_hash(creds["password"], appkit.app_salt(world, APP)),
                loyalty_number=next((b.get("loyalty_number") for b in world_bookings), None),
            )
        )
        db.add(
            m.Session(
                token=creds["session_token"],
                user_id=1,
                created_at=now.isoformat(),
                expires_at=appkit.session_expiry(world),
            )
        )
        cards = payment_cards(world)
        card_ids = {}
        for i, c in enumerate(cards, start=1):
            card_ids[c["account"]] = i
            db.add(
                m.Card(
                    id=i,
                    user_id=1,
                    account=c["account"],
                    brand=c["brand"],
                    last4=c["last4"],
                    holder=c["holder"],
                    expiry=c["expiry"],
                    label=c["label"],
                    is_default=int(i == 1),
                )
            )
        prop_ids: dict[str, int] = {}  # by slug
        room_ids: dict[tuple[int, str], int] = {}
        zones: dict[str, str] = {}
        pid = rid = rvid = 0
        for city_id, c in enumerate(inventory(world), start=1):
            zones[c["name"]] = c["zone"]
            db.add(
                m.City(
                    id=city_id,
                    name=c["name"],
                    region=c["region"],
                    country=c["country"],
                    zone=c["zone"],
                    tax_bp=c["tax_bp"],
                    city_fee_cents=c["city_fee_cents"],
                    season=c["season"],
                    lat=c["lat"],
                    lon=c["lon"],
                )
            )
            for prop in c["properties"]:
                pid += 1
                prop_ids[prop["slug"]] = pid
                db.add(
                    m.Property(
                        id=pid,
                        slug=prop["slug"],
                        city_id=city_id,
                        kind=prop["kind"],
                        name=prop["name"],
                        chain=prop["chain"],
                        neighbourhood=prop["neighbourhood"],
                        address=prop["address"],
                        stars=prop["stars"],
                        rating_x10=prop["rating_x10"],
                        review_count=prop["review_count"],
                        description=prop["description"],
                        amenities=json.dumps(prop["amenities"]),
                        host_name=prop["host_name"],
                        host_since=prop["host_since"],
                        base_rate_cents=prop["base_rate_cents"],
                        cleaning_fee_cents=prop["cleaning_fee_cents"],
                        policy=prop["policy"],
                        lat=prop["lat"],
                        lon=prop["lon"],
                        art=prop["art"],
                        world_ref=prop["world_ref"] or "seed:inventory",
                    )
                )
                for room in prop["rooms"]:
                    rid += 1
                    room_ids[(pid, room["name"])] = rid
                    db.add(m.Room(id=rid, property_id=pid, **room))
                for rv in prop["reviews"]:
                    rvid += 1
                    db.add(
                        m.Review(
                            id=rvid,
                            property_id=pid,
                            booking_id=None,
                            author=rv["author"],
                            author_city=rv["author_city"],
                            language=rv["language"],
                            rating=rv["rating"],
                            body=rv["body"],
                            stayed=rv["stayed"],
                            created_at=f"{rv['stayed']}-28T20:00:00",
                            world_ref="seed:inventory",
                        )
                    )
        r = rng(world.seed, "stays/reviews")
        first = ident.name.split()[0]
        for bid, b in enumerate(world_bookings, start=1):
            prop_id = prop_ids[b["property"]]
            room_id = room_ids[(prop_id, b["room"])]
            co = b["checkout"]
            price = b["price"]
            db.add(
                m.Booking(
                    id=bid,
                    confirmation=b["confirmation"],
                    user_id=1,
                    property_id=prop_id,
                    room_id=room_id,
                    check_in=b["check_in"],
                    check_out=b["check_out"],
                    nights=b["nights"],
                    guests=b["guests"],
                    rate_plan="flexible",
                    nightly_cents=price["nightly_cents"],
                    subtotal_cents=price["subtotal_cents"],
                    taxes_cents=price["taxes_cents"],
                    fees_cents=price["fees_cents"],
                    total_cents=price["total_cents"],
                    payment="pay_at_property",
                    card_id=card_ids.get(co.data["account"] if co else "", 1),
                    authorization=None,
                    paid_at=co.at.isoformat() if co else None,
                    status="confirmed",
                    cancel_until=cancel_deadline(b["check_in"], zones[b["city"]], p.timezone),
                    booked_at=b["booked_at"],
                    cancelled_at=None,
                    refund_cents=0,
                    cancel_fee_cents=0,
                    special_request=None,
                    folio=co.data.get("folio") if co else None,
                    calendar_uid=calendar_uids.get(b["confirmation"]),
                    world_ref=b["event"],
                )
            )
            day = dt.date.fromisoformat(b["check_in"])
            for n in range(b["nights"]):
                db.add(m.BookingNight(booking_id=bid, night=(day + dt.timedelta(days=n)).isoformat(), room_id=room_id))
            if co and (now - co.at).days > REVIEW_AFTER_DAYS:
                score = r.choice([4, 5, 5])
                rvid += 1
                db.add(
                    m.Review(
                        id=rvid,
                        property_id=prop_id,
                        booking_id=bid,
                        author=f"{first} {ident.name.split()[-1][0]}.",
                        author_city=p.identity.address.city,
                        language=lang,
                        rating=score,
                        body=_review_text(r, lang, score),
                        stayed=b["check_in"][:7],
                        created_at=(co.at + dt.timedelta(days=r.randint(2, 9), hours=r.randint(0, 3))).isoformat(),
                        world_ref=f"seed:review/{b['event']}",
                    )
                )
        # Each city prices in its own currency; the reference rates say what a unit is in the persona's.
        cities = inventory(world)
        currencies = {c["name"]: c["currency"] for c in cities}
        rates = {
            cur: str(fx.rate(cur, world.currency, world.persona.as_of)) for cur in sorted(set(currencies.values()))
        }
        for key, value in appkit.meta_rows(
            world,
            user_name=ident.name,
            city_currencies=json.dumps(currencies, sort_keys=True, ensure_ascii=False),
            fx_rates=json.dumps(rates, sort_keys=True),
        ).items():
            db.add(m.Meta(key=key, value=value))
        db.commit()
    engine.dispose()
    dbfile.finish(path)
    return path
