"""Typed world events: one pydantic model per event ``kind``, the shape of :attr:`Event.data <builder.world.model.Event>`.

Every event the world emits is checked against its kind's model where it is created (:meth:`Sim.event
<builder.world.context.Sim.event>` calls :func:`check`): an unknown kind, or a key missing, extra or of the wrong type,
raises :class:`EventDataError` naming the kind and the key. The check only reads: ``data`` stays the dict the module
built, so ``world/events.jsonl`` keeps its bytes and key order.

Readers take typed events from a world with ``world.events_of(CardPurchase)`` (:class:`~builder.world.model.TypedEvent`:
``.at``, ``.id``, ``.status``, ``.postings`` of the event and ``.data``, the kind's model). This module imports no
other world module (the world's modules and the projections import it).

Conventions of every kind (the field types below name them):

* money is integer cents (:data:`Cents`) in the persona's currency (``World.currency``) unless the kind says
  otherwise (a foreign hotel quote, a job's salary in its ``currency``); amounts (``amount_cents``) are magnitudes
  (> 0), the direction is in the kind or the event's postings;
* :data:`LocalDateTime` is ISO 8601 naive local time in the persona's zone (as the event's ``at``);
  :data:`ZonedDateTime` carries the UTC offset of where it happens (home, or the destination abroad);
  :data:`UtcDateTime` ends in ``Z``; :data:`IsoDate` is ``YYYY-MM-DD``;
* :data:`DecimalStr` is an exact decimal written as a string (shares, rates), never a float;
* :data:`EventRef` is another event's ``id`` (uuid5), linking e.g. a mail to the booking it confirms;
* keys absent on some events of a kind are typed ``... | MISSING`` (absent, not null).

``python -m builder.world.events`` writes :data:`SCHEMA_PATH` (``events.schema.json``): a JSON Schema of one line of
``events.jsonl`` per kind (the envelope ``id``, ``kind``, ``at``, ``status``, ``postings`` plus the kind's fields).
A data field named ``kind`` (``hotel_*``, ``network_post``) overwrites the envelope's ``kind`` in that line
(:meth:`Event.to_json <builder.world.model.Event.to_json>` spreads ``data`` after it); the schema says so.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic.experimental.missing_sentinel import MISSING
from pydantic.json_schema import models_json_schema

SCHEMA_PATH = Path(__file__).with_name("events.schema.json")

Cents = Annotated[int, Field(description="integer cents (minor units) of the persona's currency unless stated")]
IsoDate = Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$", description="ISO 8601 date YYYY-MM-DD")]
LocalDateTime = Annotated[
    str,
    Field(
        pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$",
        description="ISO 8601 naive local time in the persona's time zone",
    ),
]
ZonedDateTime = Annotated[
    str,
    Field(
        pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$",
        description="ISO 8601 local time with the UTC offset of the place it happens",
    ),
]
UtcDateTime = Annotated[
    str, Field(pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$", description="ISO 8601 UTC time ending in Z")
]
DecimalStr = Annotated[str, Field(pattern=r"^-?\d+(\.\d+)?$", description="an exact decimal number as a string")]
EventRef = Annotated[str, Field(description="the id of another event of this world")]
AccountKind = Annotated[
    str, Field(description="an account kind of the persona: checking, savings, credit_card or brokerage")
]
Url = Annotated[str, Field(description="an absolute URL")]


class Record(BaseModel):
    """A strict, frozen record: no extra keys, no coercion (an int is not a bool, a str not a date)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class EventData(Record):
    """The fields of one event kind (``KIND``), without the envelope (id, kind, at, status, postings)."""

    KIND: ClassVar[str]

    def get(self, name: str, default: Any = None) -> Any:
        """The field ``name`` (the Python name, e.g. ``from_``), or ``default`` when this event lacks it (MISSING)."""
        value = getattr(self, name)
        return default if value is MISSING else value


class EventDataError(ValueError):
    """An event's data does not match its kind's model; the message names the kind and the offending keys."""


# -- shared records ---------------------------------------------------------------------------------------------


class Mailbox(Record):
    """A person with an email address (mail sender or recipient, calendar attendee or organizer)."""

    name: str
    email: str


class PastRole(Record):
    """A previous job of a profile person: title at company."""

    title: str
    company: str


class CareerPerson(Record):
    """A person of the career network: a connection (``connected_on`` a date) or a second-degree person
    (``connected_on`` null, ``mutual`` the connections in common). ``started`` is ``YYYY-MM`` in the current role."""

    id: str
    name: str
    title: str
    company: str
    location: str
    headline: str
    relation: str
    connected_on: IsoDate | None
    mutual: list[str]
    started: str
    previous: PastRole | None


class Experience(Record):
    """One job of the persona's profile; ``start``/``end`` are ``YYYY-MM`` (``end`` null: the current job)."""

    id: str
    title: str
    company: str
    location: str
    start: str
    end: str | None
    description: str


class Education(Record):
    """A degree of the persona's profile (years as integers)."""

    school: str
    degree: str
    start_year: int
    end_year: int


class Meetup(Record):
    """The meetup the profile's network plants: the calendar event (``event_id``), who attends, and the invitation."""

    event_id: EventRef
    title: str
    date: IsoDate
    attendee: str
    other: str
    invitation_id: str


class ResumeDifference(Record):
    """Where the résumé file and the profile disagree: entry index, field, both values and which one is right."""

    entry: int
    field: str
    profile: str
    resume: str
    correct: str


class Resume(Record):
    """The résumé file in the home folder (``folder``/``filename``) written at ``written_at``."""

    folder: str
    filename: str
    written_at: LocalDateTime
    difference: ResumeDifference


class Holding(Record):
    """A brokerage position: ``shares`` (decimal), ``cost_basis_cents`` the total paid."""

    symbol: str
    shares: DecimalStr
    cost_basis_cents: Cents


class Attachment(Record):
    """A mail attachment: ``size`` in bytes when known, ``content`` (text, e.g. an iCalendar file) when carried."""

    filename: str
    content_type: str
    size: int | MISSING = MISSING
    content: str | MISSING = MISSING


class Leg(Record):
    """One flight of a booking's itinerary (IATA airport codes, departure and arrival at the airports' offsets)."""

    flight_number: str
    from_: str = Field(alias="from")
    to: str
    dep_local: ZonedDateTime
    arr_local: ZonedDateTime


class Dish(Record):
    """A line of a food order: ``qty`` of a dish with its chosen options, ``price_cents`` per unit with options."""

    dish_id: str
    name: str
    qty: int
    options: list[str]
    option_ids: list[str]
    price_cents: Cents


class GroceryItem(Record):
    """A line of a grocery order: ``qty`` of a SKU at ``price_cents`` each."""

    sku: str
    name: str
    brand: str
    size: str
    qty: int
    price_cents: Cents


class RetailItem(Record):
    """A line of a retail order: ``qty`` of a SKU (variant of ``product_id``) at ``price_cents`` each."""

    sku: str
    product_id: str
    name: str
    variant: str
    brand: str
    category: str
    qty: int
    price_cents: Cents


class Night(Record):
    """One night of a stay quote: its date and price in the quote's currency (cents)."""

    night: IsoDate
    cents: int


class StayQuote(Record):
    """The stay's price as the booking site quotes it, in the property's ``currency`` (cents of that currency)."""

    nights: list[Night]
    subtotal_cents: int
    taxes_cents: int
    city_fee_cents: int
    cleaning_fee_cents: int
    service_fee_cents: int
    fees_cents: int
    total_cents: int
    nightly_cents: int


class PostReaction(Record):
    """A reaction to a network post (``like``, ``celebrate``...) by ``name``."""

    name: str
    reaction: str


class PostComment(Record):
    """A comment on a network post by ``name`` at ``at``."""

    name: str
    body: str
    at: LocalDateTime


class TaxInputs(Record):
    """The inputs of a tax return, in cents: wages, tax withheld, interest, dividends, gains, donations, state tax,
    social contributions, itemised deductions."""

    wages: int
    withheld: int
    interest: int
    dividends: int
    qualified_dividends: int
    gains: int
    long_term_gains: int
    donations: int
    state_tax: int
    social: int
    itemize: int


class TaxLines(Record):
    """The computed lines of a tax return, in cents; ``refund`` > 0 is owed back, < 0 is due."""

    total_income: int
    deduction: int
    taxable: int
    tax: int
    withheld: int
    refund: int


class Subtask(Record):
    """A checklist item of a ticket."""

    title: str
    done: bool


class ChatReaction(Record):
    """An emoji reaction (``:eyes:``) to a work chat message and who gave it."""

    emoji: str
    by: list[str]


# -- money ------------------------------------------------------------------------------------------------------


class Paycheck(EventData):
    """A salary payment from ``employer`` into checking: ``gross_cents`` before and ``net_cents`` after deductions."""

    KIND: ClassVar[str] = "paycheck"
    employer: str
    gross_cents: Cents
    net_cents: Cents
    recurring: bool


class _Bill(EventData):
    """A recurring bill (``name`` as the persona calls it, paid to ``payee``), ``amount_cents`` > 0 leaving checking."""

    name: str
    payee: str
    amount_cents: Cents
    method: str
    category: str
    recurring: bool


class Autopay(_Bill):
    """A bill drawn by direct debit (``method`` ``autopay``) from checking on its day."""

    KIND: ClassVar[str] = "autopay"


class BillPayment(_Bill):
    """A bill the persona pays through the bank's bill pay (``method`` ``bill_pay``), e.g. the rent."""

    KIND: ClassVar[str] = "bill_payment"


class CardPurchase(EventData):
    """A card charge of ``amount_cents`` at ``merchant`` on ``account`` (the credit card or checking's debit card).

    Everyday spending carries ``merchant_id`` and ``city``; a transit pass ``pass``; a restaurant bill the
    ``restaurant_booking`` id, ``party_size``, ``paid_for`` (``self``/``table``), ``subtotal_cents`` and
    ``tip_cents``; a subscription billed to the card ``name``, ``payee``, ``method`` ``card`` and ``recurring``;
    spending on a trip ``country``, ``trip`` (index), ``local_time`` and ``expensable``, abroad also
    ``foreign_currency``, ``foreign_amount`` (as the receipt prints it, e.g. ``7,510``) and ``fx_rate``; a purchase of
    the spec's (``Persona.purchases``) the ``item`` bought and its ``quantity``.
    """

    KIND: ClassVar[str] = "card_purchase"
    merchant: str
    merchant_id: str | MISSING = MISSING
    category: str
    amount_cents: Cents
    account: AccountKind
    city: str | MISSING = MISSING
    pass_: bool | MISSING = Field(MISSING, alias="pass")
    restaurant_booking: str | MISSING = MISSING
    party_size: int | MISSING = MISSING
    paid_for: str | MISSING = MISSING
    subtotal_cents: Cents | MISSING = MISSING
    tip_cents: Cents | MISSING = MISSING
    name: str | MISSING = MISSING
    payee: str | MISSING = MISSING
    method: str | MISSING = MISSING
    recurring: bool | MISSING = MISSING
    country: str | MISSING = MISSING
    trip: int | MISSING = MISSING
    local_time: ZonedDateTime | MISSING = MISSING
    expensable: bool | MISSING = MISSING
    foreign_currency: str | MISSING = MISSING
    foreign_amount: str | MISSING = MISSING
    fx_rate: DecimalStr | MISSING = MISSING
    item: str | MISSING = MISSING
    quantity: int | MISSING = MISSING


class CardFee(EventData):
    """A foreign transaction fee on ``account``: ``percent`` of the charge ``purchase`` (the id of the
    ``card_purchase`` or ``hotel_checkout`` abroad it follows)."""

    KIND: ClassVar[str] = "card_fee"
    purchase: EventRef
    amount_cents: Cents
    account: AccountKind
    percent: DecimalStr
    trip: int


class CardPayment(EventData):
    """A payment from checking (or savings) to the credit card. ``statement_owed_cents`` is what the statement still
    owed; a pay-down before a large charge has ``paydown`` true, a statement payment ``statement_balance_cents``."""

    KIND: ClassVar[str] = "card_payment"
    amount_cents: Cents
    statement_owed_cents: Cents
    recurring: bool
    paydown: bool | MISSING = MISSING
    statement_balance_cents: Cents | MISSING = MISSING


class Transfer(EventData):
    """A move between the persona's own accounts (``from``/``to`` account kinds); ``sweep`` marks a sweep of
    surplus checking to savings."""

    KIND: ClassVar[str] = "transfer"
    from_: AccountKind = Field(alias="from")
    to: AccountKind
    amount_cents: Cents
    recurring: bool
    sweep: bool | MISSING = MISSING


class Interest(EventData):
    """Interest posted on ``account``: earned on savings, or charged on a card statement not paid in full, which
    carries the card's ``apr`` (percent, decimal) and the statement ``cycle`` (``YYYY-MM``) it accrued on."""

    KIND: ClassVar[str] = "interest"
    account: AccountKind
    amount_cents: Cents
    apr: DecimalStr | MISSING = MISSING
    cycle: str | MISSING = MISSING


class P2pPayment(EventData):
    """A person-to-person payment ``sent`` to or ``received`` from ``contact`` (``direction``); ``trip`` when it
    settles a shared trip cost."""

    KIND: ClassVar[str] = "p2p_payment"
    direction: Literal["sent", "received"]
    contact: str
    contact_email: str
    contact_phone: str
    amount_cents: Cents
    memo: str
    trip: int | MISSING = MISSING


class MoneyRequest(EventData):
    """A request for money the persona sends ``contact`` (their share of a bill for ``party_size``), asked ``via``
    chat; ``ref`` is the card charge it splits, ``paid`` whether it was paid back."""

    KIND: ClassVar[str] = "money_request"
    contact: str
    contact_email: str
    contact_phone: str
    amount_cents: Cents
    memo: str
    party_size: int
    ref: EventRef
    paid: bool
    via: str


class Donation(EventData):
    """A donation to ``charity`` (a ``charity_kind``, in the locale's words) on ``account``, deductible in
    ``tax_year``."""

    KIND: ClassVar[str] = "donation"
    charity: str
    charity_kind: str
    amount_cents: Cents
    account: AccountKind
    tax_year: int


# -- investing and forecasts ------------------------------------------------------------------------------------


class BrokerageOpening(EventData):
    """The brokerage account as the history starts: number, name, cash and holdings."""

    KIND: ClassVar[str] = "brokerage_opening"
    account_number: str
    account_last4: str
    account_name: str
    cash_cents: Cents
    holdings: list[Holding]


class BrokerageTrade(EventData):
    """A trade of ``shares`` of ``symbol`` at ``price_cents`` a share (``side`` buy/sell, ``amount_cents`` the total);
    a sale's ``cost_basis_cents`` and ``realised_gain_cents`` (< 0 a loss) count in ``tax_year``."""

    KIND: ClassVar[str] = "brokerage_trade"
    order_id: str
    symbol: str
    side: Literal["buy", "sell"]
    shares: DecimalStr
    price_cents: Cents
    amount_cents: Cents
    recurring: bool
    cost_basis_cents: Cents
    realised_gain_cents: Cents
    tax_year: int


class BrokerageDividend(EventData):
    """A cash dividend of ``per_share`` (decimal, currency units) on ``shares`` of ``symbol``."""

    KIND: ClassVar[str] = "brokerage_dividend"
    symbol: str
    shares: DecimalStr
    per_share: DecimalStr
    amount_cents: Cents
    tax_year: int


class BrokerageTransfer(EventData):
    """Cash moved between checking and the brokerage (``direction`` ``in`` to the brokerage, ``out`` from it)."""

    KIND: ClassVar[str] = "brokerage_transfer"
    direction: Literal["in", "out"]
    amount_cents: Cents
    reference: str
    recurring: bool
    purpose: str


class BrokerageSplit(EventData):
    """A stock split of ``symbol`` by ``ratio`` (shares after per share before): the holding's shares before and
    after (decimal strings)."""

    KIND: ClassVar[str] = "brokerage_split"
    symbol: str
    ratio: int
    shares_before: DecimalStr
    shares_after: DecimalStr


class BrokerageWatch(EventData):
    """A symbol put on the brokerage watchlist."""

    KIND: ClassVar[str] = "brokerage_watch"
    symbol: str


class ForecastDeposit(EventData):
    """Cash deposited to the forecast market account; ``cash_after_cents`` the account's cash after it."""

    KIND: ClassVar[str] = "forecast_deposit"
    reference: str
    amount_cents: Cents
    cash_after_cents: Cents


class ForecastTrade(EventData):
    """A forecast market trade: ``action`` buy/sell of ``shares`` contracts on ``side`` yes/no of ``ticker`` at
    ``price_cents`` each."""

    KIND: ClassVar[str] = "forecast_trade"
    reference: str
    ticker: str
    side: Literal["yes", "no"]
    action: Literal["buy", "sell"]
    shares: int
    price_cents: Cents
    amount_cents: Cents
    cash_after_cents: Cents


class ForecastPayout(EventData):
    """The payout of a settled forecast market position (``shares`` contracts on the winning ``side``)."""

    KIND: ClassVar[str] = "forecast_payout"
    reference: str
    ticker: str
    side: Literal["yes", "no"]
    shares: int
    amount_cents: Cents
    cash_after_cents: Cents


class ForecastWatch(EventData):
    """A forecast market ticker put on the watchlist."""

    KIND: ClassVar[str] = "forecast_watch"
    ticker: str


# -- taxes ------------------------------------------------------------------------------------------------------


class TaxForm(EventData):
    """A tax form (W-2, P60, 1099-INT, Lohnsteuerbescheinigung...) issued by ``issuer`` for ``tax_year`` (the
    locale's label: ``2025`` or ``2025-26``)."""

    KIND: ClassVar[str] = "tax_form"
    form: str
    issuer: str
    tax_year: str


class TaxReturnFiled(EventData):
    """Last year's return filed with ``authority`` (``tax_year`` the label, ``year_key`` the calendar year it
    starts): its inputs and lines in cents; ``refund_cents`` > 0 is owed back, < 0 due."""

    KIND: ClassVar[str] = "tax_return_filed"
    tax_year: str
    year_key: str
    country: str
    authority: str
    confirmation: str
    note: str
    inputs: TaxInputs
    lines: TaxLines
    refund_cents: Cents


class TaxPayment(EventData):
    """Tax owed on a return paid to ``authority``."""

    KIND: ClassVar[str] = "tax_payment"
    tax_year: str
    amount_cents: Cents
    authority: str
    confirmation: str


class TaxRefund(EventData):
    """A tax refund from ``authority`` paid into checking."""

    KIND: ClassVar[str] = "tax_refund"
    tax_year: str
    amount_cents: Cents
    authority: str
    confirmation: str


# -- travel -----------------------------------------------------------------------------------------------------


class FlightBooking(EventData):
    """A flight booking (``pnr``) for ``passengers`` on trip ``trip``: fare per passenger, ``price_cents`` and
    ``total_cents`` charged to ``account``, the legs (``flights``, ``itinerary``) and the tickets."""

    KIND: ClassVar[str] = "flight_booking"
    trip: int
    pnr: str
    airline: str
    airline_code: str
    passengers: list[str]
    purpose: str
    destination: str
    fare_class: str
    fare_per_passenger_cents: Cents
    price_cents: Cents
    total_cents: Cents
    flights: list[str]
    itinerary: list[Leg]
    ticket_number: str
    ticket_numbers: list[str]
    seat_preference: str
    loyalty_number: str
    account: AccountKind
    expensable: bool
    site_url: Url
    site_title: str


class Flight(EventData):
    """One flown leg (at its departure): airports (IATA ``from``/``to`` and names), times local and UTC, the
    persona's ``seat`` and every passenger's ``seats``; ``gate`` null when not yet assigned."""

    KIND: ClassVar[str] = "flight"
    trip: int
    pnr: str
    airline: str
    flight_number: str
    direction: Literal["outbound", "return"]
    leg: int
    from_: str = Field(alias="from")
    to: str
    from_name: str
    to_name: str
    dep_local: ZonedDateTime
    arr_local: ZonedDateTime
    dep_utc: UtcDateTime
    arr_utc: UtcDateTime
    duration_minutes: int
    aircraft: str
    seat: str
    seats: list[str]
    passengers: list[str]
    boarding_group: int
    gate: str | None


class _Stay(EventData):
    """A stay at a hotel or rental (``kind``) on trip ``trip``: ``total_cents`` is the card's charge in the persona's
    currency, ``rate_cents`` the average night converted at ``fx_rate``, ``tax_cents`` the rest; ``price`` is the
    site's quote in the property's ``currency``; ``lat``/``lon`` in degrees."""

    trip: int
    hotel: str
    chain: str | None
    city: str
    address: str
    confirmation: str
    check_in: IsoDate
    check_out: IsoDate
    nights: int
    room: str
    guests: int
    rate_cents: Cents
    tax_cents: Cents
    total_cents: Cents
    loyalty_number: str | None
    property: str
    kind: Literal["hotel", "rental"]
    neighbourhood: str
    host: str | None
    lat: float
    lon: float
    currency: str
    fx_rate: DecimalStr
    price: StayQuote


class HotelBooking(_Stay):
    """A stay booked on the booking site (``site_url``) - see the stay's fields."""

    KIND: ClassVar[str] = "hotel_booking"
    site_url: Url
    site_title: str


class HotelStay(_Stay):
    """The check-in of a booked stay at ``check_in_local``."""

    KIND: ClassVar[str] = "hotel_stay"
    check_in_local: ZonedDateTime


class HotelCheckout(_Stay):
    """The check-out of a stay: the folio charged to ``account`` at ``check_out_local``."""

    KIND: ClassVar[str] = "hotel_checkout"
    check_out_local: ZonedDateTime
    folio: str
    account: AccountKind
    expensable: bool
    provider: str | MISSING = MISSING


class Ride(EventData):
    """A ride-hailing trip: pickup to dropoff (local times), ``distance_miles``, fare, tip and total charged to
    ``account``; ``trip`` on a journey, else ``purpose`` (``dinner``/``visit``/``work``) and the ``contact`` met."""

    KIND: ClassVar[str] = "ride"
    ride_id: str
    provider: str
    trip: int | None
    pickup: str
    dropoff: str
    pickup_local: ZonedDateTime
    dropoff_local: ZonedDateTime
    duration_minutes: int
    distance_miles: float
    fare_cents: Cents
    tip_cents: Cents
    total_cents: Cents
    driver: str
    vehicle: str
    plate: str
    account: AccountKind
    site_url: Url
    site_title: str
    purpose: str | MISSING = MISSING
    contact: str | None | MISSING = MISSING
    expensable: bool | MISSING = MISSING


# -- orders and dining ------------------------------------------------------------------------------------------


class FoodOrder(EventData):
    """A food delivery order from ``restaurant`` (``usual`` the persona's regular place): items, fees, tip and
    ``total_cents`` charged to ``account``; placed and delivered at local times."""

    KIND: ClassVar[str] = "food_order"
    order_id: str
    provider: str
    restaurant: str
    cuisine: str
    restaurant_id: str
    restaurant_address: str
    usual: bool
    items: list[Dish]
    subtotal_cents: Cents
    delivery_fee_cents: Cents
    service_fee_cents: Cents
    fees_cents: Cents
    tip_cents: Cents
    total_cents: Cents
    delivery_address: str
    placed_local: ZonedDateTime
    delivered_local: ZonedDateTime
    account: AccountKind
    site_url: Url
    site_title: str


class GroceryOrder(EventData):
    """A grocery delivery order from ``store`` (``store_key`` its chain): ``item_count`` units, fees, tip and
    ``total_cents`` charged to ``account``, delivered in a window."""

    KIND: ClassVar[str] = "grocery_order"
    order_id: str
    provider: str
    store_key: str
    store: str
    items: list[GroceryItem]
    item_count: int
    subtotal_cents: Cents
    delivery_fee_cents: Cents
    service_fee_cents: Cents
    fees_cents: Cents
    tip_cents: Cents
    total_cents: Cents
    delivery_address: str
    placed_local: ZonedDateTime
    delivery_window_start: ZonedDateTime
    delivery_window_end: ZonedDateTime
    account: AccountKind
    site_url: Url
    site_title: str


class RetailOrder(EventData):
    """An online shop order: items, shipping and ``total_cents`` charged to ``account``; placed, shipped and
    delivered (local times) by ``carrier``; a birthday gift carries ``gift_for`` and ``gift_birthday``."""

    KIND: ClassVar[str] = "retail_order"
    order_id: str
    provider: str
    items: list[RetailItem]
    subtotal_cents: Cents
    shipping_cents: Cents
    total_cents: Cents
    shipping_address: str
    placed_local: ZonedDateTime
    shipped_local: ZonedDateTime
    delivered_local: ZonedDateTime
    carrier: str
    tracking_number: str
    account: AccountKind
    site_url: Url
    site_title: str
    gift_for: str | MISSING = MISSING
    gift_birthday: IsoDate | MISSING = MISSING


class RetailDelivery(EventData):
    """The delivery of a retail order (item names) at ``delivered_local``."""

    KIND: ClassVar[str] = "retail_delivery"
    order_id: str
    provider: str
    carrier: str
    tracking_number: str
    items: list[str]
    shipping_address: str
    delivered_local: ZonedDateTime


class RestaurantBooking(EventData):
    """A table booked (at ``booked_local``) for ``reservation_local``: ``party_size`` with ``companions``;
    ``merchant_id`` is the restaurant's merchant, whose card charge follows the meal, unless a companion paid the
    whole table: then ``paid_by`` names them and ``share_cents`` is the persona's part of the bill with its tip
    (what they will ask for; the persona's card has no charge for the meal)."""

    KIND: ClassVar[str] = "restaurant_booking"
    booking_id: str
    provider: str
    restaurant: str
    merchant_id: str
    cuisine: str | None
    address: str
    party_size: int
    companions: list[str]
    reservation_local: ZonedDateTime
    booked_local: ZonedDateTime
    special_request: str | None
    site_url: Url
    site_title: str
    paid_by: str | MISSING = MISSING
    share_cents: Cents | MISSING = MISSING


# -- communication ----------------------------------------------------------------------------------------------


class Email(EventData):
    """A mail in ``folder`` (inbox, archive, sent) of the persona's mailbox; threading by ``message_id``,
    ``in_reply_to`` and ``references``; ``ref`` the event it is about, ``series`` the generator's series
    (newsletter, order_confirmation...), ``flight_id`` the leg a check-in mail is for."""

    KIND: ClassVar[str] = "email"
    message_id: str
    thread_id: str
    in_reply_to: str | None
    references: list[str]
    folder: str
    from_: Mailbox = Field(alias="from")
    to: list[Mailbox]
    cc: list[Mailbox]
    subject: str
    body: str
    attachments: list[Attachment]
    read: bool
    labels: list[str]
    ref: EventRef | None
    series: str | MISSING = MISSING
    flight_id: EventRef | MISSING = MISSING


class ChatMessage(EventData):
    """A message of a personal chat thread with ``contact``; ``sender`` is ``me`` or the contact's name; ``topic`` the
    conversation's topic, ``plan_on`` the date a plan is for, ``ref`` the event it is about."""

    KIND: ClassVar[str] = "chat_message"
    app: str
    thread_id: str
    contact: str
    contact_phone: str
    sender: str
    text: str
    read: bool
    ref: EventRef | None
    topic: str | MISSING = MISSING
    plan_on: IsoDate | MISSING = MISSING


class WorkChatMessage(EventData):
    """A message in a work chat ``channel`` (``channel_kind`` channel or dm) of ``workspace``; ``thread_id`` the
    thread's root message when it is a reply, ``ref`` the event it is about."""

    KIND: ClassVar[str] = "work_chat_message"
    workspace: str
    workspace_domain: str
    channel: str
    channel_kind: Literal["channel", "dm"]
    thread_id: str | None
    sender: str
    sender_email: str
    text: str
    mentions: list[str]
    reactions: list[ChatReaction]
    pinned: bool
    read: bool
    ref: EventRef | None


class CalendarEvent(EventData):
    """An entry of the ``personal`` or ``work`` calendar from ``start`` to ``end`` (zoned; all-day entries span whole
    days); ``source`` what produced it (meeting, flight, hotel, birthday...), ``ref`` that event, ``series`` the
    recurring series it belongs to, ``uid`` the iCalendar UID an invitation mail carries."""

    KIND: ClassVar[str] = "calendar_event"
    calendar: Literal["personal", "work"]
    title: str
    start: ZonedDateTime
    end: ZonedDateTime
    all_day: bool
    location: str
    attendees: list[Mailbox]
    organizer: Mailbox | None
    source: str
    ref: EventRef | None
    series: str | None
    description: str
    uid: str | MISSING = MISSING


# -- browsing ---------------------------------------------------------------------------------------------------


class WebVisit(EventData):
    """A page visit in the browser history (``transition`` typed, link or bookmark as Firefox records it); a search
    results page carries ``search_query``, a page reached from one ``search_result``."""

    KIND: ClassVar[str] = "web_visit"
    url: Url
    title: str
    transition: Literal["typed", "link", "bookmark"]
    site: str
    search_query: str | MISSING = MISSING
    search_result: bool | MISSING = MISSING


class Bookmark(EventData):
    """A bookmark saved in ``folder`` (``toolbar`` or ``menu/<name>``)."""

    KIND: ClassVar[str] = "bookmark"
    url: Url
    title: str
    folder: str


# -- work -------------------------------------------------------------------------------------------------------


class Sprint(EventData):
    """A sprint of ``team``: dates ``start``..``end``, ``opens``/``closes`` the planning and review times,
    ``planning`` the planning meeting's calendar event."""

    KIND: ClassVar[str] = "sprint"
    team: str
    number: int
    name: str
    start: IsoDate
    end: IsoDate
    opens: LocalDateTime
    closes: LocalDateTime
    goal: str
    planning: EventRef | None


class TicketCreated(EventData):
    """A ticket ``key`` filed in ``project``: fields as the tracker shows them, ``sprint`` its sprint number,
    ``meeting`` the calendar event it came up in, ``chat`` the work chat messages about it."""

    KIND: ClassVar[str] = "ticket_created"
    key: str
    number: int
    project: str
    project_slug: str
    type: str
    title: str
    description: str
    priority: str
    labels: list[str]
    points: int
    due: IsoDate | None
    reporter: str
    assignee: str
    subtasks: list[Subtask]
    sprint: int | None
    meeting: EventRef | None
    chat: list[EventRef]


class TicketTransition(EventData):
    """A ticket moved between workflow states (``from``/``to``: backlog, todo, in_progress, in_review, done)."""

    KIND: ClassVar[str] = "ticket_transition"
    key: str
    from_: str = Field(alias="from")
    to: str
    by: str
    meeting: EventRef | None


class TicketSprint(EventData):
    """A ticket carried over from sprint ``from_sprint`` to ``to_sprint`` (numbers)."""

    KIND: ClassVar[str] = "ticket_sprint"
    key: str
    from_sprint: int
    to_sprint: int
    by: str
    meeting: EventRef | None


class TicketComment(EventData):
    """A comment on ticket ``key``."""

    KIND: ClassVar[str] = "ticket_comment"
    key: str
    author: str
    text: str


# -- career -----------------------------------------------------------------------------------------------------


class CareerProfile(EventData):
    """The persona's professional profile as the history starts: headline, jobs, education, skills, the network
    (``connections`` and second-degree ``people``), the planted ``meetup`` and the ``resume`` file's difference.
    ``bio`` is the spec's ``identity.bio`` verbatim (as written, or as the completion wrote it): the profile's About
    opens with it, ``about`` (the career paragraph, also the résumé's summary) follows; ``pronouns`` the spec's
    ``identity.pronouns`` (shown beside the name)."""

    KIND: ClassVar[str] = "career_profile"
    headline: str
    bio: str = ""
    pronouns: str = ""
    about: str
    location: str
    role: str
    family: str
    experience: list[Experience]
    education: list[Education]
    skills: list[str]
    connections: list[CareerPerson]
    people: list[CareerPerson]
    meetup: Meetup
    resume: Resume


class NetworkPost(EventData):
    """A post in the professional network's feed (``kind``: article, hiring, job_change...) with reactions and
    comments; ``project`` the persona's work project it mentions."""

    KIND: ClassVar[str] = "network_post"
    post_id: str
    author: str
    kind: str
    body: str
    project: str | None
    reactions: list[PostReaction]
    comments: list[PostComment]


class NetworkInvitation(EventData):
    """A connection invitation ``sent`` to or ``incoming`` from profile person ``person`` (``name``)."""

    KIND: ClassVar[str] = "network_invitation"
    invitation_id: str
    direction: Literal["sent", "incoming"]
    person: str
    name: str
    note: str


class JobPosting(EventData):
    """A job posted on the network: salary range in cents of ``currency``, ``saved_at`` when the persona saved it."""

    KIND: ClassVar[str] = "job_posting"
    job_id: str
    title: str
    company: str
    location: str
    workplace: str
    salary_min_cents: int
    salary_max_cents: int
    currency: str
    summary: str
    skills: list[str]
    saved_at: LocalDateTime | None


class RecruiterMessage(EventData):
    """A message of a recruiter thread about ``job_id``; ``sender`` is ``me`` or ``recruiter`` (person ``recruiter``,
    named ``name``)."""

    KIND: ClassVar[str] = "recruiter_message"
    thread_id: str
    recruiter: str
    name: str
    sender: Literal["me", "recruiter"]
    text: str
    job_id: str


RESERVED = ("id", "at", "status", "postings")
"""Envelope keys of an ``events.jsonl`` line that no kind may use as a data field (``kind`` is the exception kept for
the stays and network posts, see the module docstring)."""


def _kinds() -> dict[str, type[EventData]]:
    found: dict[str, type[EventData]] = {}
    todo = list(EventData.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if "KIND" in cls.__dict__:
            keys = {f.alias or name for name, f in cls.model_fields.items()}
            if keys & set(RESERVED):
                raise TypeError(f"{cls.KIND}: data fields {sorted(keys & set(RESERVED))} would overwrite the envelope")
            if cls.KIND in found:
                raise TypeError(f"two models for event kind {cls.KIND!r}")
            found[cls.KIND] = cls
    return dict(sorted(found.items()))


KINDS: dict[str, type[EventData]] = _kinds()
"""Every event kind the world emits -> its model, sorted by kind."""


def check(kind: str, data: dict[str, Any]) -> None:
    """Check ``data`` against the model of ``kind`` without changing it.

    Raises :class:`EventDataError` naming the kind and every offending key (dotted path for nested ones): an
    unknown kind, a missing or extra key, a value of the wrong type or format.
    """
    cls = KINDS.get(kind)
    if cls is None:
        raise EventDataError(f"unknown event kind {kind!r} (not in builder.world.events.KINDS)")
    try:
        cls.model_validate(data)
    except ValidationError as exc:
        raise EventDataError(f"{kind} event data: {_problems(exc)}") from None


_UNION_TAGS = {"str", "int", "bool", "float", "none", "list", "dict"}


def _problems(exc: ValidationError) -> str:
    """The errors of ``exc`` as ``key.path: message``, one per key: pydantic names each member of a union it tried
    (``city.str``, ``city.missing-sentinel``); those tags are dropped and the first member's message kept."""
    by_path: dict[str, str] = {}
    for err in exc.errors(include_url=False):
        path = ".".join(
            str(p)
            for p in err["loc"]
            if not (isinstance(p, str) and (p in _UNION_TAGS or p[:1].isupper() or "-" in p or "[" in p))
        )
        by_path.setdefault(path or "(data)", err["msg"])
    return "; ".join(f"{path}: {msg}" for path, msg in by_path.items())


D = TypeVar("D", bound=EventData)


def parse(cls: type[D], data: dict[str, Any]) -> D:
    """``data`` of an event of ``cls.KIND`` as an instance of ``cls``. Raises :class:`EventDataError` (naming the kind
    and keys) if it does not match."""
    try:
        return cls.model_validate(data)
    except ValidationError as exc:
        raise EventDataError(f"{cls.KIND} event data: {_problems(exc)}") from None


_ENVELOPE = {
    "id": {"type": "string", "description": "the event's id (uuid5 of seed, kind, time and key)"},
    "at": {
        "type": "string",
        "pattern": r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$",
        "description": "naive local time in the persona's time zone",
    },
    "status": {"enum": ["done", "scheduled"], "description": "done up to the world's now, scheduled after"},
    "postings": {
        "type": "array",
        "description": "the event's ledger lines: amount_cents > 0 enters the account (kind), < 0 leaves it",
        "items": {
            "type": "object",
            "additionalProperties": False,
            "required": ["account", "amount_cents", "description"],
            "properties": {
                "account": {"type": "string"},
                "amount_cents": {"type": "integer"},
                "description": {"type": "string"},
                "transfer_id": {"type": "string"},
            },
        },
    },
}


def schema() -> dict[str, Any]:
    """The JSON Schema (2020-12) of one line of ``world/events.jsonl``: ``anyOf`` one definition per kind, each the
    envelope (``id``, ``kind``, ``at``, ``status``, ``postings``) plus that kind's fields; nested records under
    ``$defs`` by model name. Deterministic (keys in model order)."""
    _, top = models_json_schema(
        [(cls, "validation") for cls in KINDS.values()], ref_template="#/$defs/{model}", title="World event"
    )
    defs = top["$defs"]
    for kind, cls in KINDS.items():
        spec = defs[cls.__name__]
        props = spec["properties"]
        if kind in props:
            raise TypeError(f"{kind}: a data field named like its own kind")
        if "kind" in props:
            props["kind"]["description"] = (
                f"this {kind} line's kind key holds this data field: Event.to_json spreads data after the envelope"
            )
            kind_prop = {}
        else:
            kind_prop = {"kind": {"const": kind}}
        spec["properties"] = {**{k: v for k, v in _ENVELOPE.items() if k != "postings"}, **kind_prop, **props}
        spec["properties"]["postings"] = _ENVELOPE["postings"]
        spec["required"] = list(dict.fromkeys(["id", "kind", "at", "status", *spec.get("required", []), "postings"]))
        spec["x-kind"] = kind
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "builder/world/events.schema.json",
        "title": "A line of world/events.jsonl",
        "description": (
            "Generated by `python -m builder.world.events` from builder/world/events.py; do not edit. One definition "
            "per event kind (x-kind): the envelope plus the kind's fields."
        ),
        "anyOf": [{"$ref": f"#/$defs/{cls.__name__}"} for cls in KINDS.values()],
        "$defs": dict(sorted(defs.items())),
    }


def schema_text() -> str:
    """:func:`schema` as the checked-in file's text (indented JSON, trailing newline)."""
    return json.dumps(schema(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write :data:`SCHEMA_PATH`; with ``--check`` only compare and return 1 if it is stale."""
    args = sys.argv[1:] if argv is None else argv
    text = schema_text()
    if "--check" in args:
        current = SCHEMA_PATH.read_text(encoding="utf-8") if SCHEMA_PATH.exists() else ""
        if current != text:
            print(f"{SCHEMA_PATH} is stale: run python -m builder.world.events", file=sys.stderr)
            return 1
        return 0
    SCHEMA_PATH.write_text(text, encoding="utf-8")
    print(SCHEMA_PATH)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
