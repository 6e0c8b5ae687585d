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
"""

from .accounts import account_numbers, card_numbers, payment_cards
from .calendar import reservation_time
from .cards import contact_card
from .chat import plans as _chat_plans
from .forecasts import Market as ForecastMarket
from .forecasts import markets as _markets
from .ledger import StatementPeriod, statements
from .model import Event, Merchant, Posting, World
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


__all__ = [
    "Event",
    "ForecastMarket",
    "Merchant",
    "Posting",
    "StatementPeriod",
    "World",
    "account_numbers",
    "activity_plans",
    "airline_flights",
    "board",
    "card_numbers",
    "contact_card",
    "forecast_markets",
    "payment_cards",
    "reservation_time",
    "simulate",
    "statements",
    "tax_forms",
    "work_channels",
    "write_world",
]
