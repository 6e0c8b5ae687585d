"""World -> rows of the Hunchline database (``markets.sqlite``).

The markets and their daily price histories are :func:`builder.world.forecast_markets` (the grammar in
``builder/reference/forecasts/questions.yaml``); the account is the world's ``forecast_deposit`` / ``forecast_trade`` /
``forecast_payout`` / ``forecast_watch`` events, replayed in time order into ``activity`` (one line per event, the
cash effect signed) and ``positions`` (average cost; a resolved market settles its positions: the winning side's
payout, the losing side's cost, into ``realized_cents``). A persona without an account in the world gets a fresh
account: no activity, cash 0. The everyone-else traded ``volume`` of a market is drawn from stream
``markets/volume``; history visits from ``markets/visits``.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy.orm import Session as OrmSession

from builder import appkit, dbfile
from builder.rng import rng
from builder.reference import forecasts as reference_forecasts
from builder.reference.forecasts import SHARE_PAYS_CENTS
from builder.world import ForecastMarket, World, forecast_markets
from builder.reference.locale import language

from . import models as m

APP = "markets"
SITE = "http://hunchline.test/"
KINDS = ("forecast_deposit", "forecast_trade", "forecast_payout")


def credentials(world: World) -> dict[str, str]:
    """The persona's sign-in facts: ``{"username", "password", "session_token"}`` (builder.appkit)."""
    return appkit.credentials(world, APP)


def signed_in_text(world: World) -> str:
    """What the signed-in home page shows for sure: the persona's first name."""
    return world.persona.identity.name.split()[0]


def markets(world: World) -> tuple[ForecastMarket, ...]:
    """The world's markets (:func:`builder.world.forecast_markets`)."""
    return forecast_markets(world)


def positions(world: World) -> dict[tuple[str, str], dict]:
    """(ticker, side) -> ``{"shares", "cost_cents", "realized_cents", "settled"}`` as the seed stores them (the
    rule of ``models.Position``), replaying the world's events in time order."""
    by = {x.ticker: x for x in markets(world)}
    out: dict[tuple[str, str], dict] = {}
    for e in world.events:
        if e.kind != "forecast_trade":
            continue
        d = e.data
        pos = out.setdefault(
            (d["ticker"], d["side"]), {"shares": 0, "cost_cents": 0, "realized_cents": 0, "settled": 0}
        )
        if d["action"] == "buy":
            pos["shares"] += d["shares"]
            pos["cost_cents"] += d["amount_cents"]
        else:
            part = round(pos["cost_cents"] * d["shares"] / pos["shares"])
            pos["cost_cents"] -= part
            pos["shares"] -= d["shares"]
            pos["realized_cents"] += d["amount_cents"] - part
    for (ticker, side), pos in out.items():
        mk = by[ticker]
        if mk.status == "resolved":
            pos["settled"] = 1
            paid = pos["shares"] * SHARE_PAYS_CENTS if side == mk.outcome else 0
            pos["realized_cents"] += paid - pos["cost_cents"]
    return dict(sorted(out.items()))


def bookmarks(world: World) -> list[dict[str, str]]:
    """A menu bookmark of the persona's Hunchline portfolio (when the world trades there)."""
    if not world.of_kind("forecast_trade"):
        return []
    return [{"title": "Portfolio | Hunchline", "url": f"{SITE}portfolio", "folder": "menu/Finance"}]


def visits(world: World) -> list[dict]:
    """History visits: each trade's market page a few minutes before it, the portfolio after each deposit.
    ``{"url", "title", "at": naive local, "transition"}``, at or before ``world.now``, sorted (stream
    ``markets/visits``)."""
    r = rng(world.seed, "markets/visits")
    by = {x.ticker: x for x in markets(world)}
    out = []
    for e in world.events:
        if e.kind == "forecast_trade":
            q = by[e.data["ticker"]].question
            out.append(
                {
                    "url": f"{SITE}m/{e.data['ticker']}",
                    "title": f"{q} | Hunchline",
                    "at": e.at - dt.timedelta(minutes=r.randint(2, 15)),
                    "transition": "link",
                }
            )
        elif e.kind == "forecast_deposit":
            out.append(
                {
                    "url": f"{SITE}portfolio",
                    "title": "Portfolio | Hunchline",
                    "at": e.at + dt.timedelta(minutes=r.randint(1, 5)),
                    "transition": "typed",
                }
            )
    return sorted((v for v in out if v["at"] <= world.now), key=lambda v: (v["at"], v["url"]))


def seed(world: World, path):
    """Create ``path`` (must not exist) as the Hunchline database for ``world`` and return it.

    Byte-identical for the same world (builder.dbfile). Raises ``FileExistsError`` if ``path`` exists.
    """
    p = world.persona
    ident = p.identity
    lang = language(p.bank)
    engine = dbfile.create(path, m.Base.metadata)
    creds = credentials(world)
    now = world.now
    ms = markets(world)
    mine = [e for e in world.events if e.kind in KINDS]
    opened = mine[0].at.isoformat() if mine else now.isoformat()
    vol_r = rng(world.seed, "markets/volume")
    with OrmSession(engine) as db:
        db.add(
            m.User(
                id=1,
                username=creds["username"],
                full_name=ident.name,
                email=ident.email or "",
                opened_at=opened,
                password_hash=appkit.password_hash(creds["password"], appkit.app_salt(world, APP)),
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
        for pos, (key, names) in enumerate(reference_forecasts.grammar()["categories"].items()):
            db.add(m.Category(key=key, name=names[lang], position=pos))
        for mk in ms:
            db.add(
                m.Market(
                    ticker=mk.ticker,
                    category=mk.category,
                    question=mk.question,
                    rules=mk.rules,
                    open_date=mk.open.isoformat(),
                    close_date=mk.close.isoformat(),
                    resolve_date=mk.resolve.isoformat(),
                    status=mk.status,
                    outcome=mk.outcome,
                    yes_cents=mk.last_price,
                    volume=vol_r.randint(800, 60000) * len(mk.history) // 10,
                    local=int(mk.local),
                )
            )
            for day, cents in mk.history:
                db.add(m.Price(ticker=mk.ticker, day=day, yes_cents=cents))
        kinds = {"forecast_deposit": "deposit", "forecast_payout": "payout"}
        for i, e in enumerate(mine, start=1):
            d = e.data
            kind = d["action"] if e.kind == "forecast_trade" else kinds[e.kind]
            sign = -1 if kind == "buy" else 1
            db.add(
                m.Activity(
                    id=i,
                    user_id=1,
                    at=e.at.isoformat(),
                    kind=kind,
                    reference=d["reference"],
                    ticker=d.get("ticker"),
                    side=d.get("side"),
                    shares=d.get("shares"),
                    price_cents=d.get("price_cents", SHARE_PAYS_CENTS if kind == "payout" else None),
                    amount_cents=sign * d["amount_cents"],
                    bank_transaction_id=None,
                    account_last4=None,
                    world_ref=e.id,
                )
            )
        for (ticker, side), pos in positions(world).items():
            db.add(m.Position(user_id=1, ticker=ticker, side=side, **pos))
        for e in world.of_kind("forecast_watch"):
            db.add(m.WatchlistItem(user_id=1, ticker=e.data["ticker"], added_at=e.at.isoformat(), world_ref=e.id))
        for key, value in appkit.meta_rows(world, user_name=ident.name).items():
            db.add(m.Meta(key=key, value=value))
        db.commit()
    engine.dispose()
    dbfile.finish(path)
    return path
