"""Pydantic models of the persona spec (the JSON file a user writes).

Money in the spec is written in the account's currency units with at most two
decimals (``1234.56``); the world converts it to integer cents. Dates are ISO 8601
(``YYYY-MM-DD``). Keys beginning with ``_`` are comments and are ignored at every
level; any other unknown key is an error.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from typing import Annotated, Any, Literal

from email_validator import EmailNotValidError, validate_email
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

Money = Annotated[Decimal, Field(max_digits=14, decimal_places=2)]
PositiveMoney = Annotated[Decimal, Field(gt=0, max_digits=14, decimal_places=2)]
Slug = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]{1,62}$")]


def _email(value: str) -> str:
    # test_environment=True admits the reserved .test names that the guest's apps live under (RFC 6761).
    try:
        return validate_email(value, check_deliverability=False, test_environment=True).normalized
    except EmailNotValidError as exc:
        raise ValueError(f"value is not a valid email address: {exc}") from None


EmailStr = Annotated[str, AfterValidator(_email)]
Phone = Annotated[str, Field(pattern=r"^\+?[0-9 ()\-.]{7,20}$")]


class SpecModel(BaseModel):
    """Base of every spec section: unknown keys are rejected, ``_``-prefixed keys are comments."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _drop_comments(cls, data: Any) -> Any:
        if isinstance(data, dict):
            return {k: v for k, v in data.items() if not (isinstance(k, str) and k.startswith("_"))}
        return data


Time = Annotated[str, Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$", description="24-hour local time HH:MM")]
Weekday = Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
Iata = Annotated[str, Field(pattern=r"^[A-Z]{3}$", description="IATA airport code")]


class Address(SpecModel):
    """A postal address; ``region`` is a US state, UK county or German Land."""

    street: str
    city: str
    region: str | None = None
    postal_code: str
    country: Annotated[str, Field(pattern=r"^[A-Z]{2}$", description="ISO 3166-1 alpha-2")] = "US"


class Identity(SpecModel):
    """Who the persona is. Only ``name`` is required; the rest is completed from Faker."""

    name: Annotated[str, Field(min_length=2, max_length=80)]
    birth_date: dt.date | None = None
    gender: Literal["female", "male", "nonbinary"] | None = None
    pronouns: str | None = None
    email: EmailStr | None = None
    phone: Phone | None = None
    address: Address | None = None
    username: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{1,30}$")] | None = Field(
        default=None, description="Login name on the desktop and in the apps"
    )
    bio: str | None = None


class Meeting(SpecModel):
    """A recurring work meeting. ``attendees`` are contact names (colleagues)."""

    title: str
    days: list[Weekday] = Field(min_length=1)
    time: Time
    duration_minutes: Annotated[int, Field(ge=5, le=480)] = 30
    every_weeks: Annotated[int, Field(ge=1, le=8)] = 1
    attendees: list[str] = Field(default_factory=list)


class Work(SpecModel):
    """Where the persona works, how it is paid, and its working rhythm."""

    employer: str | None = None
    role: str | None = None
    salary: PositiveMoney | None = Field(default=None, description="Gross annual salary")
    pay_schedule: Literal["biweekly", "semimonthly", "monthly"] = "biweekly"
    net_ratio: Annotated[Decimal, Field(gt=0, le=1, decimal_places=3)] = Field(
        default=Decimal("0.72"), description="Take-home share of gross pay after tax and deductions"
    )
    office_address: Address | None = None
    email: EmailStr | None = None
    colleagues: list[str] = Field(default_factory=list, description="Names of contacts who are colleagues")
    meetings: list[Meeting] | None = None
    work_apps: list[str] = Field(default_factory=lambda: ["mail", "calendar", "chat"])
    office_days: list[Weekday] = Field(default_factory=lambda: ["mon", "tue", "wed", "thu"])


class Account(SpecModel):
    """An account at the persona's bank or broker.

    ``opening_balance`` is the balance at the start of the simulated history; for a
    credit card it is the amount owed (positive) and ``credit_limit`` is required.
    """

    kind: Literal["checking", "savings", "credit_card", "brokerage"]
    name: str | None = None
    opening_balance: Money = Decimal("0.00")
    credit_limit: PositiveMoney | None = None
    apr: Annotated[Decimal, Field(ge=0, le=100, decimal_places=2)] | None = Field(
        default=None, description="Annual percentage rate (savings interest or card APR), percent"
    )

    @model_validator(mode="after")
    def _card_needs_limit(self) -> "Account":
        if self.kind == "credit_card" and self.credit_limit is None:
            raise ValueError("a credit_card account needs credit_limit")
        return self


class RecurringCharge(SpecModel):
    """A bill that recurs every month on ``day`` (1..31).

    ``method``: ``autopay`` debits checking directly (ACH), ``card`` charges the credit
    card, ``bill_pay`` is paid from checking through the bank's bill pay to a saved payee.
    Days past the month's end fall on its last day; a weekend moves to the next business day.
    """

    name: str
    amount: PositiveMoney
    payee: str
    day: Annotated[int, Field(ge=1, le=31)]
    method: Literal["autopay", "card", "bill_pay"] = "autopay"
    category: str = "bills"


class Debt(SpecModel):
    """A loan being repaid (its monthly payment is usually also a recurring charge)."""

    name: str
    lender: str
    balance: PositiveMoney
    apr: Annotated[Decimal, Field(ge=0, le=100, decimal_places=2)]
    monthly_payment: PositiveMoney


class Holding(SpecModel):
    """A position in the brokerage account at the start of the history."""

    symbol: Annotated[str, Field(pattern=r"^[A-Z.]{1,6}$")]
    shares: Annotated[Decimal, Field(gt=0, decimal_places=4)]
    cost_basis: PositiveMoney = Field(description="Average price paid per share")


class Investments(SpecModel):
    """Brokerage holdings and a monthly automatic investment."""

    holdings: list[Holding] = Field(default_factory=list)
    monthly_contribution: Money = Decimal("0.00")
    contribution_symbol: str | None = None


class Finances(SpecModel):
    """Accounts, bills, debts and investments."""

    currency: Literal["USD", "GBP", "EUR"] | None = None
    accounts: list[Account] = Field(default_factory=list)
    recurring_charges: list[RecurringCharge] | None = None
    debts: list[Debt] = Field(default_factory=list)
    investments: Investments | None = None

    @model_validator(mode="after")
    def _accounts_are_unique(self) -> "Finances":
        kinds = [a.kind for a in self.accounts]
        for kind in sorted(set(kinds)):
            if kinds.count(kind) > 1:
                raise ValueError(f"at most one {kind} account is supported, found {kinds.count(kind)}")
        return self


class Contact(SpecModel):
    """Someone the persona knows. ``closeness`` 1 (acquaintance) .. 5 (closest)."""

    name: Annotated[str, Field(min_length=2, max_length=80)]
    relationship: Literal[
        "partner", "spouse", "parent", "sibling", "child", "friend", "colleague", "roommate", "neighbor", "other"
    ] = "friend"
    closeness: Annotated[int, Field(ge=1, le=5)] | None = None
    email: EmailStr | None = None
    phone: Phone | None = None
    birthday: dt.date | None = None
    address: Address | None = None
    shared_activities: list[str] | None = None
    apps: list[str] | None = Field(default=None, description="Apps this contact appears in (mail, chat, bank...)")
    messaging_style: Literal["brief", "chatty", "formal", "emoji"] | None = None


class Trip(SpecModel):
    """A trip away from home, past or upcoming. ``companions`` are contact names."""

    destination: str = Field(description="City name")
    airport: Iata
    depart: dt.date
    return_: dt.date = Field(alias="return")
    purpose: Literal["leisure", "business", "family"] = "leisure"
    companions: list[str] = Field(default_factory=list)

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    @model_validator(mode="after")
    def _return_after_depart(self) -> "Trip":
        if self.return_ < self.depart:
            raise ValueError("return is before depart")
        return self


class Loyalty(SpecModel):
    """A loyalty programme membership."""

    program: str
    number: str


class Travel(SpecModel):
    """Travel habits and trips."""

    home_airport: Iata | None = None
    airline: str | None = None
    hotel_chain: str | None = None
    seat: Literal["window", "aisle", "middle"] | None = None
    loyalty: list[Loyalty] = Field(default_factory=list)
    trips: list[Trip] | None = None


class Commute(SpecModel):
    """How the persona gets to the office on office days."""

    mode: Literal["car", "transit", "bike", "walk", "rideshare"] = "transit"
    depart: Time = "08:10"
    minutes: Annotated[int, Field(ge=1, le=180)] = 30


class UsualOrder(SpecModel):
    """The food-delivery order the persona places most often."""

    restaurant: str
    items: list[str] = Field(min_length=1)
    total: PositiveMoney


class Routines(SpecModel):
    """Recurring behaviour; counts are per week unless named otherwise."""

    commute: Commute | None = None
    exercise: str | None = Field(default=None, description="e.g. 'climbing'")
    exercise_days: list[Weekday] = Field(default_factory=lambda: ["tue", "sat"])
    coffee_per_week: Annotated[int, Field(ge=0, le=21)] = 4
    groceries_day: Weekday = "sun"
    grocery_delivery: bool = False
    grocery_orders_per_month: Annotated[int, Field(ge=0, le=40)] = 2
    dining_out_per_month: Annotated[int, Field(ge=0, le=40)] = 4
    food_delivery_per_month: Annotated[int, Field(ge=0, le=40)] = 8
    usual_order: UsualOrder | None = None
    rides_per_month: Annotated[int, Field(ge=0, le=60)] = 2
    online_orders_per_month: Annotated[int, Field(ge=0, le=40)] = 6
    wake: Time = "07:00"
    bedtime: Time = "23:00"
    screen_hours_per_day: Annotated[Decimal, Field(ge=0, le=18)] = Decimal("3")


class Preferences(SpecModel):
    """Tastes that shape choices in the world."""

    cuisines: list[str] = Field(default_factory=list)
    seat: Literal["window", "aisle", "middle"] | None = None
    tipping_percent: Annotated[int, Field(ge=0, le=40)] = 18
    brands: list[str] = Field(default_factory=list)
    favourite_merchants: list[str] = Field(default_factory=list)


class LifeEvent(SpecModel):
    """A dated one-off the world must honour (appears in calendar, mail, chat as fits its kind)."""

    date: dt.date
    kind: Literal["moved", "new_job", "party", "doctor", "dentist", "wedding", "birthday", "concert", "exam", "other"]
    title: str
    time: Time | None = None
    location: str | None = None
    with_: list[str] = Field(default_factory=list, alias="with", description="Contact names")

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Site(SpecModel):
    """A website the persona visits ``per_week`` times on average."""

    url: Annotated[str, Field(pattern=r"^https?://")]
    title: str
    per_week: Annotated[Decimal, Field(ge=0, le=200)] = Decimal("3")
    bookmarked: bool = False


class Persona(SpecModel):
    """A persona spec: the root of ``personas/*.json``. Only ``identity.name`` is required.

    ``as_of`` is the frozen "today" of the whole world and of the guest clock;
    ``seed`` names the root of every random stream (see ``builder.rng``).
    """

    schema_: str | None = Field(default=None, alias="$schema")
    id: Slug | None = Field(default=None, description="Defaults to the name as a slug")
    seed: int = 0
    as_of: dt.date = dt.date(2026, 11, 16)
    locale: Literal["en_US", "en_GB", "de_DE"] = "en_US"
    timezone: str | None = Field(default=None, description="IANA zone; defaults by locale")
    identity: Identity
    work: Work | None = None
    finances: Finances | None = None
    contacts: list[Contact] | None = None
    travel: Travel | None = None
    routines: Routines | None = None
    preferences: Preferences | None = None
    life_events: list[LifeEvent] = Field(default_factory=list)
    browsing: list[Site] | None = None
    history_months: Annotated[int, Field(ge=1, le=36)] = 18
    horizon_days: Annotated[int, Field(ge=0, le=180)] = 60

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    @model_validator(mode="after")
    def _check_zone(self) -> "Persona":
        if self.timezone is not None and not re.fullmatch(r"[A-Za-z_]+/[A-Za-z_]+(/[A-Za-z_]+)?|UTC", self.timezone):
            raise ValueError(f"timezone {self.timezone!r} is not an IANA zone name")
        return self

    # Shortcuts for the completed persona (every section filled by builder.persona.complete).
    @property
    def accounts(self) -> list[Account]:
        """The completed persona's accounts."""
        return self.finances.accounts

    @property
    def recurring_charges(self) -> list[RecurringCharge]:
        """The completed persona's recurring charges."""
        return self.finances.recurring_charges
