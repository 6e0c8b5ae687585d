"""World -> rows of the TableTime database (``dining.sqlite``).

Restaurants are the catalogue's (``builder/reference/dining/restaurants.yaml``, and those
``builder/reference/dining/catalogue.py`` generates in a home city the file lacks or lists only in part: the same
restaurants the world's bookings draw from, builder/world/dining.py). The persona's reservations are the world's ``restaurant_booking`` events
(confirmation = ``booking_id``, party, companions, special request, the restaurant's wall-clock day and time):
``completed`` when the reservation time is before the world's now, else ``booked``. Each holds the smallest table
that fits (``seats - 2 < party <= seats``) for its sitting (90 minutes; 120 over four guests). Other diners hold
tables of the home city's restaurants over the next four weeks (stream ``dining/occupancy``). Seeded reviews come
from the phrase banks in ``catalog/reviews.yaml`` (stream ``dining/reviews``); the persona reviewed about a third
of the visits older than 30 days (``dining/my-reviews``) and saved the three restaurants booked most.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
from collections import Counter
from pathlib import Path

from sqlalchemy import insert
from sqlalchemy.orm import Session as OrmSession

from builder import appkit, dbfile, yamlfile
from builder.rng import rng
from builder.world import World, payment_cards
from builder.reference import gazetteer
from builder.reference.airports import airport_country
from builder.reference.dining import restaurants
from builder.reference.dining.catalogue import file_city, generated
from builder.reference.locale import language

from . import models as m
from builder.reference.dining.generate import world_restaurant

APP = "dining"
SITE = "http://tabletime.test/"
DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
OCCUPANCY_DAYS = 28
MY_REVIEW_AFTER_DAYS = 30


def credentials(world: World) -> dict[str, str]:
    """The persona's sign-in facts: ``{"username", "password", "session_token"}`` (builder.appkit)."""
    return appkit.credentials(world, APP)


def signed_in_text(world: World) -> str:
    """What the signed-in home page shows for sure: the persona's first name."""
    return world.persona.identity.name.split()[0]


@functools.cache
def _reviews_bank() -> dict:
    return yamlfile.safe_load((Path(__file__).parent / "catalog" / "reviews.yaml").read_text(encoding="utf-8"))


def sitting_minutes(party: int) -> int:
    """How long a table is held for a party: 90 minutes, 120 for more than four guests."""
    return 120 if party > 4 else 90


def slots(time: str, party: int) -> list[str]:
    """The 15-minute slots (``HH:MM``) a sitting starting at ``time`` (``HH:MM``) holds."""
    h, mi = (int(x) for x in time.split(":"))
    start = h * 60 + mi
    return [f"{(start + k) // 60:02d}:{(start + k) % 60:02d}" for k in range(0, sitting_minutes(party), 15)]


def fits(seats: int, party: int) -> bool:
    """A party sits at a table of ``seats`` when ``seats - 2 < party <= seats`` (a single diner at a two-top)."""
    return party <= seats and (party > seats - 2 or seats == 2)


def reservations(world: World) -> list[dict]:
    """The persona's reservations from the world, in booking order: ``confirmation``, ``restaurant``, ``address``,
    ``day`` (YYYY-MM-DD), ``time`` (HH:MM), ``party_size``, ``companions``, ``special_request``, ``booked_at``
    (naive local ISO), ``status`` (``completed`` | ``booked``), ``event`` (the world event id), ``paid`` (the
    meal's card purchase event or None)."""
    meals = {
        e.data["restaurant_booking"]: e for e in world.of_kind("card_purchase") if e.data.get("restaurant_booking")
    }
    out = []
    for e in world.of_kind("restaurant_booking"):
        if e.status != "done":
            continue
        d = e.data
        at = dt.datetime.fromisoformat(d["reservation_local"]).replace(tzinfo=None)
        out.append(
            {
                "confirmation": d["booking_id"],
                "restaurant": d["restaurant"],
                "address": d.get("address"),
                "day": at.date().isoformat(),
                "time": at.strftime("%H:%M"),
                "party_size": d["party_size"],
                "companions": list(d.get("companions") or []),
                "special_request": d.get("special_request"),
                "booked_at": e.at.isoformat(),
                "status": "completed" if at < world.now else "booked",
                "event": e.id,
                "paid": meals.get(d["booking_id"]),
                "at": at,
            }
        )
    return out


def home_city(world: World) -> str:
    """The persona's home city as TableTime's catalogue names it: the file's name for the address's city (GeoNames'
    "New York City" is the file's "New York"), else the address's spelling; "" without an address."""
    a = world.persona.identity.address
    if not a:
        return ""
    city = gazetteer.find_city(a.city, a.country, a.region)
    return (file_city(city) if city else None) or a.city


def _home_generated(world: World) -> list[dict]:
    """The restaurants TableTime generates in the persona's home city and in its trips' destinations beside the
    file's (all of them for a city ``restaurants.yaml`` lacks; none for a home city of the file):
    ``builder.reference.dining.catalogue.generated``, written with the address's (the trip's) spelling of the city,
    the home's sorted by slug, then each destination's in trip order, each city once."""
    p = world.persona
    a = p.identity.address
    places = [(gazetteer.find_city(a.city, a.country, a.region), a.city)] if a else []
    for t in (p.travel.trips or []) if p.travel else []:
        places.append((gazetteer.find_city(t.destination, airport_country(t.airport)), t.destination))
    out, seen = [], set()
    for city, name in places:
        if city is not None and city.geonameid not in seen:
            seen.add(city.geonameid)
            out += generated(city, name)
    return out


def _world_only(world: World, mine: list[dict]) -> list[dict]:
    """Restaurants the world booked that the catalogue does not list (a cuisine TableTime lacks in the home city),
    made by ``builder.reference.dining.generate.world_restaurant`` at the booking's address, in booking order."""
    listed = {(x["name"], x["address"]) for x in (*restaurants(), *_home_generated(world))}
    p = world.persona
    home = p.identity.address
    cuisine_of = {e.data["booking_id"]: e.data.get("cuisine") for e in world.of_kind("restaurant_booking")}
    out, seen = [], set()
    for b in mine:
        key = (b["restaurant"], b["address"])
        if key in listed or key in seen:
            continue
        seen.add(key)
        out.append(
            world_restaurant(
                b["restaurant"],
                cuisine_of.get(b["confirmation"]),
                b["address"] or "",
                city=home_city(world),
                country=home.country if home else "",
                region=(home.region or "") if home else "",
                zone=p.timezone,
                currency=world.currency,
                lang=language(p.bank),
            )
        )
    return out


def listed(world: World) -> list[dict]:
    """Every restaurant TableTime's database holds for ``world``, in row order (a restaurant's id is its position + 1):
    the catalogue's (``builder/reference/dining/restaurants.yaml``), those it generates in the home city
    (:func:`_home_generated`), then those the world booked that neither lists (:func:`_world_only`). Tasks and steps
    look restaurants up here, never in the catalogue alone."""
    return list(restaurants()) + _home_generated(world) + _world_only(world, reservations(world))


def bookmarks(world: World) -> list[dict[str, str]]:
    """One menu bookmark: the persona's reservations on TableTime (when the world books a table)."""
    return (
        [{"title": "My reservations | TableTime", "url": f"{SITE}reservations", "folder": "menu/Food"}]
        if reservations(world)
        else []
    )


def visits(world: World) -> list[dict]:
    """History visits on TableTime's pages: the restaurant page a few minutes before each booking and the
    reservation page right after it. ``{"url", "title", "at": naive local, "transition"}``, at or before
    ``world.now``, sorted; draws from stream ``dining/visits``."""
    r = rng(world.seed, "dining/visits")
    slugs = {(x["name"], x["address"]): x["slug"] for x in listed(world)}
    out = []
    for b in reservations(world):
        booked = dt.datetime.fromisoformat(b["booked_at"])
        slug = slugs.get((b["restaurant"], b["address"]))
        if slug:
            out.append(
                {
                    "url": f"{SITE}r/{slug}?date={b['day']}&party={b['party_size']}",
                    "title": f"{b['restaurant']} | TableTime",
                    "at": booked - dt.timedelta(minutes=r.randint(3, 12)),
                    "transition": "link",
                }
            )
        out.append(
            {
                "url": f"{SITE}reservations/{b['confirmation']}",
                "title": "Reservation | TableTime",
                "at": booked + dt.timedelta(minutes=r.randint(1, 4)),
                "transition": "link",
            }
        )
    return sorted((v for v in out if v["at"] <= world.now), key=lambda v: (v["at"], v["url"]))


def form_history(world: World) -> list[dict]:
    """What the persona typed into TableTime's search box (the ``q`` field): the restaurant's name, 15 minutes before
    each booking (before its page was opened). ``[{"field", "value", "at": naive local}]``, at or before
    ``world.now``."""
    out = []
    for b in reservations(world):
        at = dt.datetime.fromisoformat(b["booked_at"]) - dt.timedelta(minutes=15)
        if at <= world.now:
            out.append({"field": "q", "value": b["restaurant"], "at": at})
    return out


def _minutes(hhmm: str) -> int:
    h, mi = hhmm.split(":")
    return int(h) * 60 + int(mi)


def _review(r, lang: str, rating: int, menu: list[dict]) -> str:
    bank = _reviews_bank()[lang]
    mood = bank["high" if rating >= 4 else "mid" if rating == 3 else "low"]
    dish = r.choice(
        [x["name"] for x in menu if x["course"] not in ("Drinks", "Getränke", "Bebidas", "Bevande", "Boissons")]
        or ["food"]
    )
    parts = [
        r.choice(mood["opener"]),
        r.choice(mood["dish"]).format(dish=dish),
        r.choice(mood["detail"]),
        r.choice(mood["closer"]),
    ]
    text = " ".join(parts)
    return text[0].upper() + text[1:]


def seed(world: World, path: Path) -> Path:
    """Create ``path`` (must not exist) as the TableTime database for ``world`` and return it.

    Byte-identical for the same world (builder.dbfile). The restaurants are :func:`listed`'s (a restaurant the world
    booked that the catalogue lacks is listed too). Raises ``FileExistsError`` if ``path`` exists, ``RuntimeError``
    if no table fits a world booking.
    """
    p = world.persona
    ident = p.identity
    home = home_city(world)
    engine = dbfile.create(path, m.Base.metadata)
    creds = credentials(world)
    now = world.now
    lang = language(p.bank)
    mine = reservations(world)
    cat = listed(world)
    with OrmSession(engine) as db:
        db.add(
            m.User(
                id=1,
                username=creds["username"],
                full_name=ident.name,
                email=ident.email,
                phone=ident.phone,
                password_hash=appkit.password_hash(creds["password"], appkit.app_salt(world, APP)),
                home_city=home,
                points=100 * sum(b["status"] == "completed" for b in mine),
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
        for i, c in enumerate(payment_cards(world), start=1):
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
        db.flush()
        rid_of: dict[tuple[str, str], int] = {}
        tables: dict[int, list[tuple[int, int]]] = {}
        hours: dict[int, dict] = {}
        menus: dict[int, list[dict]] = {}
        tid = hid = mid = 0
        for rid, x in enumerate(cat, start=1):
            rid_of[(x["name"], x["address"])] = rid
            fee = x["late_cancel_cents"] if x["currency"] == world.currency else 0
            db.add(
                m.Restaurant(
                    id=rid,
                    slug=x["slug"],
                    name=x["name"],
                    cuisine=x["cuisine"],
                    city=x["city"],
                    country=x["country"],
                    zone=x["zone"],
                    neighbourhood=x["neighbourhood"],
                    street=x["street"],
                    address=x["address"],
                    postcode=x["postcode"],
                    phone=x["phone"],
                    currency=x["currency"],
                    lang=x["lang"],
                    band=x["band"],
                    blurb=x["blurb"],
                    rating_x10=x["rating_x10"],
                    review_count=x["review_count"],
                    late_cancel_cents=fee,
                    palette=x["art"]["palette"],
                    motif=x["art"]["motif"],
                )
            )
            hours[rid] = x["hours"]
            for service in ("lunch", "dinner"):
                h = x["hours"].get(service)
                if h:
                    hid += 1
                    db.add(
                        m.Hours(
                            id=hid,
                            restaurant_id=rid,
                            service=service,
                            days=",".join(h["days"]),
                            open=h["open"],
                            close=h["close"],
                        )
                    )
            menus[rid] = x["menu"]
            for pos, dish in enumerate(x["menu"]):
                mid += 1
                db.add(
                    m.MenuItem(
                        id=mid,
                        restaurant_id=rid,
                        position=pos,
                        course=dish["course"],
                        name=dish["name"],
                        price_cents=dish["price_cents"],
                    )
                )
            tables[rid] = []
            n = 0
            for seats in sorted(int(s) for s in x["tables"]):
                for _ in range(x["tables"][seats]):
                    tid += 1
                    n += 1
                    tables[rid].append((tid, seats))
                    db.add(m.DiningTable(id=tid, restaurant_id=rid, label=f"{n}", seats=seats))
        db.flush()
        held: set[tuple[int, str, str]] = set()
        hold_rows: list[dict] = []
        # The persona's reservations (world bookings).
        counts: Counter = Counter()
        for res_id, b in enumerate(mine, start=1):
            rid = rid_of[(b["restaurant"], b["address"])]
            want = slots(b["time"], b["party_size"])
            table = next(
                (
                    t
                    for t, seats in tables[rid]
                    if fits(seats, b["party_size"]) and not any((t, b["day"], s) in held for s in want)
                ),
                None,
            )
            if table is None:
                raise RuntimeError(f"no table for {b['confirmation']}")
            counts[rid] += 1
            db.add(
                m.Reservation(
                    id=res_id,
                    confirmation=b["confirmation"],
                    user_id=1,
                    restaurant_id=rid,
                    table_id=table,
                    day=b["day"],
                    time=b["time"],
                    party_size=b["party_size"],
                    status=b["status"],
                    special_request=b["special_request"],
                    companions=json.dumps(b["companions"]),
                    card_id=None,
                    booked_at=b["booked_at"],
                    modified_at=None,
                    cancelled_at=None,
                    cancel_fee_cents=0,
                    fee_authorization=None,
                    world_ref=b["event"],
                )
            )
            for s in want:
                held.add((table, b["day"], s))
                hold_rows.append({"table_id": table, "day": b["day"], "slot": s, "reservation_id": res_id})
        db.flush()
        # Other diners over the next weeks at the home city's restaurants.
        r = rng(world.seed, "dining/occupancy")
        today = now.date()
        for rid, x in enumerate(cat, start=1):
            if x["city"] != home:
                continue
            base = r.uniform(0.2, 0.5)
            for k in range(OCCUPANCY_DAYS):
                day = today + dt.timedelta(days=k)
                wd = DAYS[day.weekday()]
                for service in ("lunch", "dinner"):
                    h = hours[rid].get(service)
                    if not h or wd not in h["days"]:
                        continue
                    fill = min(0.9, base + (0.25 if wd in ("fri", "sat") else 0) - (0.15 if service == "lunch" else 0))
                    first, last = _minutes(h["open"]), _minutes(h["close"]) - 60
                    for t, seats in tables[rid]:
                        if r.random() >= fill:
                            continue
                        start = first + 15 * r.randrange((last - first) // 15 + 1)
                        time = f"{start // 60:02d}:{start % 60:02d}"
                        party = min(seats, max(1, seats - r.randint(0, 1)))
                        want = slots(time, party)
                        if any((t, day.isoformat(), s) in held for s in want):
                            continue
                        for s in want:
                            held.add((t, day.isoformat(), s))
                            hold_rows.append({"table_id": t, "day": day.isoformat(), "slot": s, "reservation_id": None})
        hold_rows.sort(key=lambda h: (h["table_id"], h["day"], h["slot"]))
        if hold_rows:  # none when no restaurant of the home city takes bookings and the persona booked none
            db.execute(insert(m.TableHold.__table__), hold_rows)
        # Reviews: other diners', then the persona's own.
        r = rng(world.seed, "dining/reviews")
        rvid = 0
        for rid, x in enumerate(cat, start=1):
            rl = "de" if x["lang"] == "de" else "en"
            names = _reviews_bank()[rl]["names"]
            for k in range(r.randint(3, 6)):
                rating = r.choice([5, 5, 4, 4, 4, 3, 5, 2]) if x["rating_x10"] < 45 else r.choice([5, 5, 5, 4, 4, 3])
                visited = today - dt.timedelta(days=r.randint(5, 330))
                rvid += 1
                db.add(
                    m.Review(
                        id=rvid,
                        restaurant_id=rid,
                        reservation_id=None,
                        author=f"{r.choice(names)} {chr(65 + r.randrange(26))}.",
                        author_city=x["city"],
                        rating=rating,
                        body=_review(r, rl, rating, x["menu"]),
                        visited=visited.isoformat()[:7],
                        created_at=f"{visited.isoformat()}T{r.randint(19, 23):02d}:{r.randint(0, 59):02d}:00",
                        world_ref="seed:reviews",
                    )
                )
        r = rng(world.seed, "dining/my-reviews")
        first_name, last = ident.name.split()[0], ident.name.split()[-1]
        for res_id, b in enumerate(mine, start=1):
            if b["status"] != "completed" or (now - b["at"]).days <= MY_REVIEW_AFTER_DAYS or r.random() >= 0.33:
                continue
            rid = rid_of[(b["restaurant"], b["address"])]
            rating = r.choice([5, 5, 4, 4, 3])
            rvid += 1
            db.add(
                m.Review(
                    id=rvid,
                    restaurant_id=rid,
                    reservation_id=res_id,
                    author=f"{first_name} {last[0]}.",
                    author_city=home,
                    rating=rating,
                    body=_review(r, lang, rating, menus[rid]),
                    visited=b["day"][:7],
                    created_at=(b["at"] + dt.timedelta(days=r.randint(1, 4), hours=r.randint(1, 3))).isoformat(),
                    world_ref=f"seed:review/{b['event']}",
                )
            )
        for n, (rid, _) in enumerate(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:3]):
            first_visit = min(b["booked_at"] for b in mine if rid_of[(b["restaurant"], b["address"])] == rid)
            db.add(
                m.Favourite(id=n + 1, user_id=1, restaurant_id=rid, created_at=first_visit, world_ref="seed:favourites")
            )
        for key, value in appkit.meta_rows(world, user_name=ident.name, home_city=home).items():
            db.add(m.Meta(key=key, value=value))
        db.commit()
    engine.dispose()
    dbfile.finish(path)
    return path
