"""World -> rows of Tidewell's database (``brokerage.sqlite``).

Everything comes from the world's read functions (:mod:`builder.world`): the securities the persona can trade (its
currency, :func:`builder.world.securities`) with their daily closes up to the world's now
(:func:`builder.world.price_history`; the app's "today": market orders fill at the last of them), the account's
``brokerage_*`` events (:data:`builder.world.INVESTING_KINDS`) up to now as filled orders, transfers, dividends,
splits and cash lines, the holdings replayed from them (:func:`builder.world.brokerage_book`), the watchlist, and
the monthly automatic investment (:func:`builder.world.investment_plan`); the asset classes' labels, the split rule
and the account's name are reference data (:mod:`builder.reference.securities`). Nothing is drawn here; the rows
are a projection.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from sqlalchemy.orm import Session as OrmSession

from builder import appkit, dbfile
from builder.rng import token
from builder.reference import securities as reference_securities
from builder.reference.locale import language
from builder.world import INVESTING_KINDS, World, brokerage_book, investment_plan, price_history, securities

from . import models as m

APP = "brokerage"
SITE = "http://tidewell.test/"
_LINES = {
    "en": {
        "opening": "Cash at account start",
        "deposit": "Deposit from bank",
        "withdrawal": "Withdrawal to bank",
        "buy": "Bought {shares} {symbol}",
        "sell": "Sold {shares} {symbol}",
        "dividend": "Dividend {symbol}",
    },
    "de": {
        "opening": "Guthaben bei Kontoeröffnung",
        "deposit": "Einzahlung vom Girokonto",
        "withdrawal": "Auszahlung auf Girokonto",
        "buy": "Kauf {shares} {symbol}",
        "sell": "Verkauf {shares} {symbol}",
        "dividend": "Dividende {symbol}",
    },
}


def credentials(world: World) -> dict[str, str]:
    """The persona's sign-in facts: ``{"username", "password", "session_token"}`` (builder.appkit)."""
    return appkit.credentials(world, APP)


def signed_in_text(world: World) -> str:
    """What the signed-in home page shows for sure: the persona's first name."""
    return world.persona.identity.name.split()[0]


def lang(world: World) -> str:
    """ "de" for a German-speaking persona, else "en"."""
    return language(world.persona.bank)


def e4(shares: str | Decimal) -> int:
    """Decimal shares -> integer 1/10000 shares (exact for the world's 4-place counts)."""
    return int(Decimal(shares) * 10000)


def opening(world: World) -> dict | None:
    """The ``brokerage_opening`` event's data, None when the persona has no Tidewell history."""
    evs = world.of_kind("brokerage_opening")
    return evs[0].data if evs else None


def account_number(world: World) -> str:
    """The account number: the world's, or a derived one for an account opened empty (stream ``brokerage/account``)."""
    op = opening(world)
    return (
        op["account_number"]
        if op
        else "".join(str(int(c, 16) % 10) for c in token(world.seed, "brokerage/account", length=8))
    )


def past(world: World) -> list:
    """The account's events up to the world's now, in time order."""
    return sorted(
        (e for e in world.events if e.kind in INVESTING_KINDS and e.status == "done"), key=lambda e: (e.at, e.id)
    )


def bookmarks(world: World) -> list[dict[str, str]]:
    """A menu bookmark of the portfolio when the persona has a Tidewell history."""
    return [{"title": "Portfolio | Tidewell", "url": SITE, "folder": "menu/Finance"}] if opening(world) else []


def seed(world: World, path: Path) -> Path:
    """Create ``path`` (must not exist) as Tidewell's database for ``world`` and return it. Byte-identical for the
    same world (builder.dbfile). Raises ``FileExistsError`` if ``path`` exists."""
    p = world.persona
    ident = p.identity
    language = lang(world)
    words = _LINES[language]
    creds = credentials(world)
    now = world.now
    today = now.date()
    classes = reference_securities.catalogue()["classes"]
    engine = dbfile.create(path, m.Base.metadata)
    op = opening(world)
    number = account_number(world)
    with OrmSession(engine) as db:
        db.add(
            m.User(
                id=1,
                username=creds["username"],
                full_name=ident.name,
                email=ident.email or "",
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
        db.add(
            m.Account(
                id=1,
                number=number,
                last4=number[-4:],
                name=op["account_name"] if op else reference_securities.account_name(p.bank),
                opened_on=world.start.date().isoformat(),
            )
        )
        for s in securities(world):
            sp = reference_securities.split_of(s, world.start.date())
            db.add(
                m.Security(
                    symbol=s["symbol"],
                    name=s["name"],
                    asset_class=s["class"],
                    class_label=classes[s["class"]][language],
                    sector=s["sector"],
                    yield_bp=int(round(float(s.get("yield") or 0) * 100)),
                    pay_months=",".join(str(x) for x in s.get("pay") or []),
                    split_on=sp[0].isoformat() if sp else None,
                    split_ratio=sp[1] if sp else None,
                )
            )
            for day, close in price_history(world, s["symbol"]):
                if day <= today:
                    db.add(m.Price(symbol=s["symbol"], day=day.isoformat(), close_cents=close))
        line = 0

        def cash(at, kind, amount, ref, world_ref, **fill):
            nonlocal line
            line += 1
            db.add(
                m.CashLine(
                    id=line,
                    at=at,
                    kind=kind,
                    amount_cents=amount,
                    description=words[kind].format(**fill),
                    reference=ref,
                    world_ref=world_ref,
                )
            )

        n_order = n_div = n_split = n_tr = 0
        for e in past(world):
            d, at = e.data, e.at.isoformat()
            if e.kind == "brokerage_opening":
                cash(at, "opening", d["cash_cents"], None, e.id)
            elif e.kind == "brokerage_transfer":
                n_tr += 1
                direction = "deposit" if d["direction"] == "in" else "withdrawal"
                db.add(
                    m.Transfer(
                        id=n_tr,
                        at=at,
                        direction=direction,
                        amount_cents=d["amount_cents"],
                        reference=d["reference"],
                        account_last4=number[-4:],
                        recurring=int(d["recurring"]),
                        world_ref=e.id,
                    )
                )
                cash(
                    at,
                    direction,
                    d["amount_cents"] if direction == "deposit" else -d["amount_cents"],
                    d["reference"],
                    e.id,
                )
            elif e.kind == "brokerage_trade":
                n_order += 1
                db.add(
                    m.Order(
                        id=n_order,
                        order_number=d["order_id"],
                        placed_at=at,
                        symbol=d["symbol"],
                        side=d["side"],
                        order_type="market",
                        shares_e4=e4(d["shares"]),
                        status="filled",
                        filled_at=at,
                        fill_price_cents=d["price_cents"],
                        amount_cents=d["amount_cents"],
                        cost_basis_cents=d["cost_basis_cents"] if d["side"] == "sell" else None,
                        realised_gain_cents=d["realised_gain_cents"] if d["side"] == "sell" else None,
                        reserved_cents=0,
                        recurring=int(d["recurring"]),
                        time_in_force="day",
                        expires_on=at[:10],
                        world_ref=e.id,
                    )
                )
                sign = -1 if d["side"] == "buy" else 1
                cash(
                    at,
                    d["side"],
                    sign * d["amount_cents"],
                    d["order_id"],
                    e.id,
                    shares=d["shares"].rstrip("0").rstrip("."),
                    symbol=d["symbol"],
                )
            elif e.kind == "brokerage_dividend":
                n_div += 1
                db.add(
                    m.Dividend(
                        id=n_div,
                        paid_on=e.at.date().isoformat(),
                        symbol=d["symbol"],
                        shares_e4=e4(d["shares"]),
                        per_share=d["per_share"],
                        amount_cents=d["amount_cents"],
                        world_ref=e.id,
                    )
                )
                cash(at, "dividend", d["amount_cents"], None, e.id, symbol=d["symbol"])
            elif e.kind == "brokerage_split":
                n_split += 1
                db.add(
                    m.Split(
                        id=n_split,
                        day=e.at.date().isoformat(),
                        symbol=d["symbol"],
                        ratio=d["ratio"],
                        shares_before_e4=e4(d["shares_before"]),
                        shares_after_e4=e4(d["shares_after"]),
                        world_ref=e.id,
                    )
                )
            elif e.kind == "brokerage_watch":
                db.add(m.WatchItem(symbol=d["symbol"], added_at=at, world_ref=e.id))
        book = brokerage_book(world)
        for symbol in sorted(book.shares):
            db.add(m.Holding(symbol=symbol, shares_e4=e4(book.shares[symbol]), cost_cents=book.cost_cents[symbol]))
        pl = investment_plan(world)
        if pl and pl.monthly_cents > 0 and pl.contribution_symbol:
            db.add(
                m.RecurringInvestment(
                    id=1,
                    symbol=pl.contribution_symbol,
                    amount_cents=pl.monthly_cents,
                    day=5,
                    active=1,
                    world_ref="seed:recurring",
                )
            )
        for key, value in appkit.meta_rows(world, user_name=ident.name, broker=reference_securities.BROKER).items():
            db.add(m.Meta(key=key, value=value))
        db.commit()
    engine.dispose()
    dbfile.finish(path)
    return path
