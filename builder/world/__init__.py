"""The world: a deterministic simulation of one persona's life as a single timeline.

``simulate(persona)`` takes a completed persona and returns a :class:`World`;
``write_world(world, dir)`` writes ``events.jsonl``, ``stats.json`` and ``planted.json``.

The world's public API is this package's exports, :mod:`.model` (the :class:`World`, its events and postings),
:mod:`.events` (one typed model per event kind) and :mod:`.schema`. Projections (the apps' seeds, the files, Firefox)
read the world only through it. Beside the events, the world publishes these read functions; each is computed from
the world (its persona, seed and events) alone, the same for every caller, and draws nothing that moves an event:

- :func:`statements` ``(world, account)``: the account's monthly :class:`StatementPeriod` list (cents, ledger sign).
- :func:`account_numbers` ``(world)``: account kind -> (number, routing number / sort code / BLZ, IBAN or None), the
  numbers the persona's bank holds; :func:`card_numbers` ``(world)``: account kind -> the 16-digit number of the
  card that spends from it; :func:`payment_cards` ``(world)``: the cards as a shop keeps them on file (brand, last
  four digits, holder, expiry ``MM/YY``, label), the card everyday charges go to first.
- :func:`airline_flights` ``(world)``: flight event id -> the leg as the airline's own records hold it after the
  planted schedule change (the flight event's data with moved times and number), legs it does not touch absent.
- :func:`contact_card` ``(world, name)``: what the persona's contact ``name`` knows and plans (a JSON-able dict, the
  reply engines' card; amounts written in the persona's locale).
- :func:`work_channels` ``(world)``: the workspace's channels and DMs (name, kind, topic, purpose, members,
  created ISO date), ``[]`` without an employer.
- :func:`board` ``(world)``: the team's ticket board replayed from its events as of ``now`` (people, projects,
  sprints, tickets with history and comments; times local ISO strings).
- :func:`forecast_markets` ``(world)``: every prediction market of the persona's world (:class:`ForecastMarket`:
  ticker, question, dates, daily YES price history in cents 1-99, outcome and status at ``now``), by close date then
  ticker; a winning share pays :data:`builder.reference.forecasts.SHARE_PAYS_CENTS`.
- :func:`tax_forms` ``(world)``: the year-end tax forms issued for the last tax year (form, issuer, tax year label,
  issued datetime, boxes: integer cents in the persona's currency or text); which tax year that is and whose
  rules apply is reference data (:func:`builder.reference.tax.tax_year`, :func:`builder.reference.tax.regime`).
- :func:`activity_plans` ``(locale="en_US")``: spec activity -> how the world's group chats in ``locale`` word doing
  it together (``climbing`` -> ``go climbing``), from the chat bank the world's chats are written from.
- :func:`reservation_time` ``(world, booking)``: when a ``restaurant_booking`` event is for, a naive local datetime
  in the persona's zone (the booking's own time if its data names none).
- The brokerage account (:mod:`.investing`; its static data, the broker's name, split rule and rounding, is
  :mod:`builder.reference.securities`): :data:`INVESTING_KINDS`, the account's event kinds;
  :func:`securities` ``(world)``, what the persona can trade, and :func:`security` ``(world, symbol)``;
  :func:`price_history` ``(world, symbol)``, the daily closes in cents, and :func:`closing_price`
  ``(world, symbol, day)``; :func:`brokerage_book` ``(world, until=None)``, the account replayed from its events
  (:class:`BrokerageBook`: cash, shares and cost per symbol), and :func:`brokerage_value_cents`
  ``(world, day, book)``; :func:`investment_plan` ``(world)``, the account's start and monthly contribution
  (:class:`InvestmentPlan`, or None without an account).
"""

import datetime as dt
from typing import Any

from .accounts import account_numbers, card_numbers, payment_cards
from .calendar import reservation_time
from .cards import contact_card
from .chat import plans as _chat_plans
from .forecasts import Market as ForecastMarket
from .forecasts import markets as _markets
from . import investing as _investing
from .investing import KINDS as INVESTING_KINDS
from .investing import Book as BrokerageBook
from .investing import Plan as InvestmentPlan
from .ledger import StatementPeriod, statements
from .model import Event, Merchant, Posting, SpecNotHonoured, World
from .planted import airline_flights
from .projects import board
from .simulate import simulate
from .tax_year import tax_forms
from .output import write_world
from .work_chat import channels as work_channels


def forecast_markets(world: World) -> tuple[ForecastMarket, ...]:
    """Every prediction market of ``world`` (its persona, history start and now), by close date then ticker: the
    markets the world's ``forecast_*`` events trade in (:func:`builder.world.forecasts.markets`)."""
    return _markets(world.persona, world.start, world.now)


def activity_plans(locale: str = "en_US") -> dict[str, str]:
    """Spec activity -> how the world's group chats in ``locale`` word doing it together (``climbing`` ->
    ``go climbing``): the chat bank's ``activities`` plans (:func:`builder.world.chat.plans`), a new dict per call."""
    return _chat_plans(locale)


def securities(world: World) -> list[dict[str, Any]]:
    """The securities the persona can trade at the broker, in the broker's order (those quoted in the persona's
    currency, then any its spec holds that the catalogue lacks): dicts of ``symbol``, ``name``, ``class`` (a key of
    :func:`builder.reference.securities.catalogue`'s ``classes``), ``sector``, ``currency``, ``price`` (float,
    currency units, the catalogue's start price), ``yield`` (annual dividend yield in percent), ``pay`` (the months
    it pays in) and for a few ``split`` (``{date, ratio}``, see :func:`builder.reference.securities.split_of`). A
    new list per call; do not modify the dicts."""
    return _investing.universe(world)


def security(world: World, symbol: str) -> dict[str, Any]:
    """The :func:`securities` entry of ``symbol``. Raises ``KeyError`` for a symbol the persona cannot trade."""
    return _investing.security(world, symbol)


def price_history(world: World, symbol: str) -> list[tuple[dt.date, int]]:
    """``[(trading day, close)]`` of ``symbol``, every trading day (a weekday that is not a public holiday of the
    persona's locale) from the history's start to the horizon's end (past ``now``: filter by day); closes are integer
    cents in the persona's currency, at least 1, divided by the ratio from a split's date on. Raises ``KeyError``
    for a symbol the persona cannot trade."""
    return _investing.price_history(world, symbol)


def closing_price(world: World, symbol: str, day: dt.date) -> int | None:
    """The last close of ``symbol`` at or before ``day`` (integer cents, :func:`price_history`), None before the
    first trading day; the price a market order on ``day`` fills at."""
    return _investing.close_on(world, symbol, day)


def brokerage_book(world: World, until: dt.datetime | None = None) -> BrokerageBook:
    """The brokerage account replayed from its events (:data:`INVESTING_KINDS`) up to ``until`` (inclusive, naive
    local time; default the world's now): ``cash_cents``, ``shares`` (symbol -> ``Decimal`` shares, symbols held
    only) and ``cost_cents`` (symbol -> total cost basis, integer cents). An empty book without an account."""
    return _investing.replay(world, until)


def brokerage_value_cents(world: World, day: dt.date, book: BrokerageBook) -> int:
    """What ``book`` (:func:`brokerage_book`) is worth on ``day``: its cash plus every holding at its
    :func:`closing_price` of that day (integer cents, half up per holding)."""
    return _investing.account_value_cents(world, day, book)


def investment_plan(world: World) -> InvestmentPlan | None:
    """The brokerage account as the world opened it, None when the persona has none: ``holdings`` at the start
    (``(symbol, shares as Decimal, cost per share in cents)``), the opening ``cash_cents``, ``monthly_cents`` (the
    automatic monthly investment, 0 for none) into ``contribution_symbol``, and the ``account_number``."""
    return _investing.plan(world)


__all__ = [
    "BrokerageBook",
    "Event",
    "ForecastMarket",
    "INVESTING_KINDS",
    "InvestmentPlan",
    "Merchant",
    "Posting",
    "StatementPeriod",
    "World",
    "account_numbers",
    "activity_plans",
    "airline_flights",
    "board",
    "brokerage_book",
    "brokerage_value_cents",
    "card_numbers",
    "closing_price",
    "contact_card",
    "forecast_markets",
    "investment_plan",
    "payment_cards",
    "price_history",
    "reservation_time",
    "securities",
    "security",
    "simulate",
    "SpecNotHonoured",
    "statements",
    "tax_forms",
    "work_channels",
    "write_world",
]
