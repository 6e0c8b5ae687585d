"""Pydantic models of the persona spec (the JSON file a user writes).

Money in the spec is written in the account's currency units with at most two
decimals (``1234.56``); the world converts it to integer cents. Dates are ISO 8601
(``YYYY-MM-DD``). Keys beginning with ``_`` are comments and are ignored at every
level; any other unknown key is an error.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
import zoneinfo
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from email_validator import EmailNotValidError, validate_email
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema, model_validator
from pydantic_core import PydanticCustomError

from ..dates import add_months

# Error type of the rules a JSON Schema cannot state (cross-references, uniqueness, date order).
# Its ``ctx["problems"]`` lists ``(path below the model, message)`` pairs; ``load`` prints one line each.
SPEC_RULE = "spec_rule"

# One line of text: at least one visible character, no control characters or line separators
# (the text reaches mail headers, file names and PDFs). JSON Schema and pydantic share the pattern.
_NOT_CONTROL = r"[^\u0000-\u001f\u007f-\u009f\u2028\u2029]"
LINE_PATTERN = rf"^{_NOT_CONTROL}*[^\s\u0000-\u001f\u007f-\u009f\u2028\u2029]{_NOT_CONTROL}*$"
# Free text (a bio): line breaks and tabs allowed, other control characters not.
PROSE_PATTERN = r"^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*$"


def Line(max_length: int, min_length: int = 1) -> Any:
    """A one-line text field of ``min_length``..``max_length`` characters (see :data:`LINE_PATTERN`)."""
    return Annotated[str, Field(min_length=min_length, max_length=max_length, pattern=LINE_PATTERN)]


def _list(item: Any, max_length: int, min_length: int = 0) -> Any:
    return Annotated[list[item], Field(min_length=min_length, max_length=max_length)]


# Money: a JSON number or a decimal string, at most two decimals and twelve integer digits.
_MONEY_STRING = r"^-?[0-9]{1,12}(\.[0-9]{1,2})?$"


def _money_string(value: Any) -> Any:
    if isinstance(value, str):
        if not re.fullmatch(_MONEY_STRING, value):
            raise ValueError("money must be a number or a string like 1234.56")
    return value


def _money_schema(positive: bool) -> dict:
    number: dict = {"type": "number", "maximum": 999999999999.99, "minimum": -999999999999.99}
    string: dict = {"type": "string", "pattern": _MONEY_STRING}
    if positive:
        number = {"type": "number", "exclusiveMinimum": 0, "maximum": 999999999999.99}
        string = {"type": "string", "pattern": r"^(?![0.]*$)[0-9]{1,12}(\.[0-9]{1,2})?$"}
    return {
        "anyOf": [number, string],
        "description": 'Money: at most two decimals (a schema cannot state that for numbers); strings like "1234.56"',
    }


Money = Annotated[
    Decimal,
    BeforeValidator(_money_string),
    Field(max_digits=14, decimal_places=2),
    WithJsonSchema(_money_schema(False)),
]
PositiveMoney = Annotated[
    Decimal,
    BeforeValidator(_money_string),
    Field(gt=0, max_digits=14, decimal_places=2),
    WithJsonSchema(_money_schema(True)),
]
Slug = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]{1,62}$")]


def Number(*, places: int, ge: float | None = None, gt: float | None = None, le: float) -> Any:
    """A decimal quantity (a rate, a share count) in ``[ge or gt, le]`` with at most ``places`` decimals.

    The model also takes a decimal string; the schema names numbers only, so that everything it
    accepts the model accepts (but the number of decimals, which a schema cannot state for numbers).
    """
    schema: dict = {"type": "number", "maximum": le, "description": f"At most {places} decimals"}
    schema.update({"minimum": ge} if ge is not None else {"exclusiveMinimum": gt})
    return Annotated[
        Decimal,
        Field(ge=ge, gt=gt, le=le, max_digits=places + len(str(int(le))), decimal_places=places),
        WithJsonSchema(schema),
    ]


def _email(value: str) -> str:
    # test_environment=True admits the reserved .test names that the guest's apps live under (RFC 6761).
    try:
        return validate_email(value, check_deliverability=False, test_environment=True).normalized
    except EmailNotValidError as exc:
        raise ValueError(f"value is not a valid email address: {exc}") from None


# ASCII addresses only (the guest's mail app and headers): the pattern is in the schema, email_validator decides.
EMAIL_PATTERN = (
    r"^[A-Za-z0-9_%+-]+(\.[A-Za-z0-9_%+-]+)*@([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+"
    r"[A-Za-z]{2,24}$"
)
EmailStr = Annotated[str, Field(max_length=120, pattern=EMAIL_PATTERN), AfterValidator(_email)]
Phone = Annotated[str, Field(pattern=r"^\+?[0-9 ()\-.]{7,20}$")]

# Names of the guest's system users and groups: a persona may not take one (the bake would
# reset that account's password). The image stage also checks the base image's own /etc/passwd.
RESERVED_USERNAMES: frozenset[str] = frozenset(
    word
    for line in Path(__file__).with_name("reserved_usernames.txt").read_text().splitlines()
    for word in line.split("#", 1)[0].split()
)

# History may reach three years back; keep the whole timeline inside years every library handles.
AS_OF_MIN, AS_OF_MAX = dt.date(2000, 1, 1), dt.date(2099, 12, 31)
MIN_AGE_YEARS, MAX_AGE_YEARS = 16, 110


def _username(value: str) -> str:
    if value in RESERVED_USERNAMES:
        raise ValueError(f"{value!r} is a system account of the guest; choose another username")
    return value


@lru_cache(maxsize=1)
def _zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


# Names in the tz database that are no place: the host's own zone, the build-time default, aliases trees.
_NOT_ZONES = ("localtime", "Factory", "posixrules")


def _zone(value: str) -> str:
    if value not in _zones() or value in _NOT_ZONES or value.startswith(("posix/", "right/")):
        raise ValueError(f"{value!r} is not an IANA time zone name (e.g. Europe/Berlin, America/Chicago, UTC)")
    return value


def _url(value: str) -> str:
    try:
        parts = urlsplit(value)
        parts.port  # raises ValueError for a port that is not a number or out of range
    except ValueError as exc:
        raise ValueError(f"not a valid URL: {exc}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("not a valid http(s) URL with a host name")
    try:
        # As Firefox's places store it (builder.firefox.places): IDNA labels of 1..63 characters.
        parts.hostname.encode("idna")
    except UnicodeError as exc:
        raise ValueError(f"not a valid host name: {exc}") from None
    return value


def url_key(url: str) -> str:
    """How two browsing URLs compare for sameness: scheme and host case-folded, an empty path as ``/``."""
    parts = urlsplit(url)
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}{parts.path or '/'}?{parts.query}#{parts.fragment}"


def name_key(name: str) -> str:
    """How two names compare for sameness: NFC, case-folded, inner spaces collapsed."""
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())


class SpecModel(BaseModel):
    """Base of every spec section: unknown keys are rejected, ``_``-prefixed keys are comments."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _drop_comments(cls, data: Any) -> Any:
        if isinstance(data, dict):
            return {k: v for k, v in data.items() if not (isinstance(k, str) and k.startswith("_"))}
        return data


def _rule_problems(problems: list[tuple[tuple, str]]) -> None:
    """Raise the :data:`SPEC_RULE` error carrying ``problems`` (path below the model, message), if any."""
    if problems:
        raise PydanticCustomError(
            SPEC_RULE, "{summary}", {"summary": "; ".join(msg for _, msg in problems), "problems": problems}
        )


Time = Annotated[str, Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$", description="24-hour local time HH:MM")]
Weekday = Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"]


def _iata(value: str) -> str:
    from ..reference.airports import airport_facts

    if airport_facts(value) is None:
        raise ValueError(f"{value!r} is not the IATA code of an airport (e.g. PDX, LHR, NRT)")
    return value


def _scheduled(value: str | None) -> str | None:
    from ..reference import gazetteer

    found = gazetteer.airport(value) if value else None
    if value and not (found and found.scheduled):
        raise ValueError(f"{value!r} has no scheduled passenger service: a home airport must (e.g. the nearest hub)")
    return value


Iata = Annotated[
    str,
    Field(
        pattern=r"^[A-Z]{3}$",
        description="IATA code of an airport (any airport with an IATA code: builder/reference/airports.py)",
    ),
    AfterValidator(_iata),
]
HomeIata = Annotated[Iata, AfterValidator(_scheduled)]
Name = Line(80, 2)
Names = _list(Name, 25)


def _country_code(value: str) -> str:
    from ..reference import gazetteer

    if gazetteer.country(value) is None:
        raise ValueError(f"{value!r} is not an ISO 3166-1 alpha-2 country code (e.g. US, GB, JP)")
    return value


def _locale_tag(value: str) -> str:
    from ..reference.locale import known_locale

    if not re.fullmatch(r"[a-z]{2,3}_[A-Z]{2}", value):
        raise ValueError(f"{value!r} is not a locale language_COUNTRY (e.g. en_US, ja_JP, pt_BR, en_NG)")
    if not known_locale(value):
        raise ValueError(f"{value!r} is not a locale CLDR (Babel) knows (e.g. en_US, ja_JP, pt_BR, en_NG)")
    return value


#: The languages the phrase banks are written in (``builder.reference.locale.BANKS``): the ``language`` a spec may
#: choose for the text a persona reads and writes.
Language = Literal["en", "de"]


def _currency_code(value: str) -> str:
    from ..reference import fx

    if not fx.known(value):
        raise ValueError(f"{value!r} is not an ISO 4217 currency code with an exchange rate (e.g. USD, JPY, NGN)")
    return value


Currency = Annotated[
    str,
    Field(
        pattern=r"^[A-Z]{3}$",
        description="ISO 4217 code with an exchange rate (builder/reference/fx.py); default: the home country's",
    ),
    AfterValidator(_currency_code),
]


class Address(SpecModel):
    """A postal address; ``region`` is the first-level division as the country writes it (a US state's code, a UK
    county, a German Land)."""

    street: Line(120)
    city: Line(60)
    region: Line(60) | None = None
    postal_code: Line(16)
    country: Annotated[
        str, Field(pattern=r"^[A-Z]{2}$", description="ISO 3166-1 alpha-2"), AfterValidator(_country_code)
    ] = "US"


def _known_city(value: Address | None) -> Address | None:
    """A home address must name a city the gazetteer knows: its zone, airport and places come from there."""
    from ..reference import gazetteer

    if value is not None and gazetteer.find_city(value.city, value.country) is None:
        raise ValueError(
            f"no city of 15,000 people or more called {value.city!r} in {value.country} (GeoNames, any of its "
            "names): give the nearest larger city"
        )
    return value


HomeAddress = Annotated[
    Address,
    Field(description="Where the persona lives: a city of 15,000 people or more (GeoNames) in its country"),
    AfterValidator(_known_city),
]


class Identity(SpecModel):
    """Who the persona is. Only ``name`` is required; the rest is completed from Faker."""

    name: Name
    birth_date: dt.date | None = Field(
        default=None,
        description=(f"Between {MAX_AGE_YEARS} and {MIN_AGE_YEARS} years before as_of (checked by the builder)"),
    )
    gender: Literal["female", "male", "nonbinary"] | None = None
    pronouns: Line(30) | None = None
    email: EmailStr | None = None
    phone: Phone | None = None
    address: HomeAddress | None = None
    username: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{1,30}$"), AfterValidator(_username)] | None = Field(
        default=None,
        description="Login name on the desktop and in the apps; not a system account's name "
        "(root, daemon, nobody...: builder/persona/reserved_usernames.txt)",
    )
    bio: Annotated[str, Field(max_length=2000, pattern=PROSE_PATTERN)] | None = None


class Meeting(SpecModel):
    """A recurring work meeting. ``attendees`` are contact names (colleagues)."""

    title: Line(120)
    days: Annotated[list[Weekday], Field(min_length=1, max_length=7)]
    time: Time
    duration_minutes: Annotated[int, Field(ge=5, le=480)] = 30
    every_weeks: Annotated[int, Field(ge=1, le=8)] = 1
    attendees: Names = Field(default_factory=list, description="Names of contacts")


TicketStatus = Literal["backlog", "todo", "in_progress", "in_review", "done"]


class TicketComment(SpecModel):
    """A comment on a :class:`WorkTicket`, stored verbatim: ``author`` the persona or a colleague (as for
    ``assignee``), ``text`` up to 5,000 characters (line breaks allowed)."""

    author: Name
    text: Annotated[str, Field(min_length=1, max_length=5000, pattern=PROSE_PATTERN)]


class WorkTicket(SpecModel):
    """A ticket of a :class:`WorkProject` on the project board, as the spec gives it.

    It is created before ``as_of`` and has moved through the workflow (backlog, todo, in_progress, in_review, done,
    one step at a time) up to ``status`` by then. ``assignee`` and comment authors are the persona's name or a
    colleague's (a name in ``work.colleagues``, or when that is empty a contact whose relationship is colleague);
    default the persona. ``due`` lies between the history's first day and the horizon's last. Left out, ``points``
    and the ``description`` are the builder's own."""

    title: Line(200)
    status: TicketStatus = "todo"
    type: Literal["story", "task", "bug"] = "task"
    priority: Literal["urgent", "high", "medium", "low"] = "medium"
    assignee: Name | None = Field(
        default=None, description="The persona's or a colleague's name (default: the persona)"
    )
    due: dt.date | None = None
    points: Annotated[int, Field(ge=1, le=21)] | None = Field(default=None, description="Story points (default: drawn)")
    description: Annotated[str, Field(max_length=5000, pattern=PROSE_PATTERN)] | None = None
    comments: _list(TicketComment, 20) | None = None


class WorkProject(SpecModel):
    """A work project: its ``#proj-<slug>`` channel in the work chat and its tickets on the project board. ``key`` is
    the prefix of its ticket keys (``APP`` in ``APP-214``; default the occupation's, e.g. ``DES``)."""

    name: Line(80) = Field(description="Unique among the projects (compared case-insensitively)")
    key: Annotated[str, Field(pattern=r"^[A-Z]{2,6}$")] | None = Field(
        default=None, description="Ticket key prefix, 2-6 capital letters; unique among the projects that give one"
    )
    description: Annotated[str, Field(max_length=5000, pattern=PROSE_PATTERN)] | None = Field(
        default=None, description="Opens the project's brief in Documents/Work"
    )
    tickets: _list(WorkTicket, 40) = Field(default_factory=list)


class Work(SpecModel):
    """Where the persona works, how it is paid, and its working rhythm. (``work_apps``, a free list no module read,
    is refused: every persona with an employer has work mail, work meetings, the work chat and the project board.)"""

    employer: Line(100) | None = None
    role: Line(100) | None = None
    salary: PositiveMoney | None = Field(default=None, description="Gross annual salary")
    pay_schedule: Literal["biweekly", "semimonthly", "monthly"] = "biweekly"
    net_ratio: Number(gt=0, le=1, places=3) = Field(
        default=Decimal("0.72"), description="Take-home share of gross pay after tax and deductions"
    )
    office_address: Address | None = None
    email: EmailStr | None = None
    colleagues: Names = Field(default_factory=list, description="Names of contacts who are colleagues")
    meetings: _list(Meeting, 12) | None = None
    office_days: Annotated[list[Weekday], Field(max_length=7)] = Field(
        default_factory=lambda: ["mon", "tue", "wed", "thu"]
    )
    projects: _list(WorkProject, 8) | None = Field(
        default=None,
        description="The work projects (work chat channels and project board) in place of drawn ones; needs employer",
    )

    @model_validator(mode="before")
    @classmethod
    def _no_work_apps(cls, data: Any) -> Any:
        if isinstance(data, dict) and "work_apps" in data:
            _rule_problems(
                [
                    (
                        ("work_apps",),
                        "is not read: every persona with an employer has work mail, meetings, the work chat and the "
                        "project board; remove it",
                    )
                ]
            )
        return data


class Account(SpecModel):
    """An account at the persona's bank or broker.

    ``opening_balance`` is the balance at the start of the simulated history; ``balance`` the balance on ``as_of``
    (what the bank's app shows as the current balance; for the ``brokerage`` account the broker's cash). Give one
    of them (neither: an opening balance of 0). With ``balance`` the world works the opening balance out from the
    history's money flows and, where its own habits would land elsewhere, makes the last move before ``as_of``
    (see :func:`builder.world.finance.settle`, :mod:`builder.world.investing`). For a credit card both are the
    amount owed (positive) and ``credit_limit`` is required.
    """

    kind: Literal["checking", "savings", "credit_card", "brokerage"]
    name: Line(60) | None = None
    opening_balance: Money | None = Field(
        default=None, description="Balance at the history's start (a card: what is owed); default 0 without balance"
    )
    balance: Money | None = Field(
        default=None,
        description=(
            "Balance on as_of, 0 or more, as the bank's app shows it today (a card: what is owed, 0 to 90 % of "
            "credit_limit; brokerage: the broker's cash); not with opening_balance"
        ),
    )
    credit_limit: PositiveMoney | None = None
    apr: Number(ge=0, le=100, places=2) | None = Field(
        default=None, description="Annual percentage rate (savings interest or card APR), percent"
    )

    @model_validator(mode="after")
    def _balances(self) -> "Account":
        problems: list[tuple[tuple, str]] = []
        if self.kind == "credit_card" and self.credit_limit is None:
            problems.append((("credit_limit",), "a credit_card account needs credit_limit"))
        b = self.balance
        if b is not None:
            if self.opening_balance is not None:
                problems.append(
                    (("balance",), "give balance (on as_of) or opening_balance (at the history's start), not both")
                )
            if b < 0:
                problems.append((("balance",), _NEGATIVE_BALANCE[self.kind]))
            elif self.kind == "credit_card" and self.credit_limit is not None and b > self.credit_limit * CARD_CEILING:
                problems.append(
                    (
                        ("balance",),
                        f"more than {CARD_CEILING:.0%} of the card's credit_limit ({self.credit_limit}): the card is "
                        "paid down before a charge takes it past that (builder.world.finance)",
                    )
                )
        _rule_problems(problems)
        return self


# The share of its credit limit a card may owe on as_of: the world pays the card down before a charge takes it past.
CARD_CEILING = Decimal("0.9")
# Why a negative ``balance`` on as_of is refused, by account kind.
_NEGATIVE_BALANCE = {
    "checking": "the checking account is not overdrawn in this world: 0 or more",
    "savings": "a savings account cannot be overdrawn: 0 or more",
    "credit_card": "a credit card's balance is what is owed on as_of: 0 or more",
    "brokerage": "the broker's cash cannot be below 0",
}


class RecurringCharge(SpecModel):
    """A bill that recurs every month on ``day`` (1..31).

    ``method``: ``autopay`` debits checking directly (ACH), ``card`` charges the credit
    card, ``bill_pay`` is paid from checking through the bank's bill pay to a saved payee.
    Days past the month's end fall on its last day; a weekend moves to the next business day.
    """

    name: Line(80)
    amount: PositiveMoney
    payee: Line(100)
    day: Annotated[int, Field(ge=1, le=31)]
    method: Literal["autopay", "card", "bill_pay"] = "autopay"
    category: Line(40) = "bills"


class Debt(SpecModel):
    """A loan being repaid: ``balance`` is what is owed on ``as_of``. It is paid every month by the recurring charge
    to its ``lender`` (completion adds one, by autopay, when the spec has none), and the lender's monthly bill mail
    says the balance after each payment (amortized at ``apr``, builder.world.finance.loan_balances)."""

    name: Line(80)
    lender: Line(100)
    balance: PositiveMoney
    apr: Number(ge=0, le=100, places=2)
    monthly_payment: PositiveMoney


Symbol = Annotated[str, Field(pattern=r"^[A-Z][A-Z.]{0,5}$")]


class Holding(SpecModel):
    """A position in the brokerage account on ``as_of`` (today's shares and their average cost); the world works
    out what was held at the history's start from the trades it makes (builder.world.investing)."""

    symbol: Symbol
    shares: Number(gt=0, le=9999999999, places=4)
    cost_basis: PositiveMoney = Field(description="Average price paid per share")


class Investments(SpecModel):
    """Brokerage holdings and a monthly automatic investment."""

    holdings: _list(Holding, 100) = Field(default_factory=list)
    monthly_contribution: Money = Decimal("0.00")
    contribution_symbol: Symbol | None = None


class PredictionPosition(SpecModel):
    """A position held on ``as_of`` at Hunchline, the prediction market (``apps/markets``): ``shares`` of one
    ``side`` of the market that asks ``market`` (its question as the app writes it, or its ticker), bought at an
    average ``price`` a share (a share pays 1 unit of the currency when its side wins). A question no market of the
    world asks becomes a market of its own, open until after ``as_of`` (builder.world.forecasts)."""

    market: Line(200) = Field(
        description="The market's question (a new market when the world has none asking it) or its ticker"
    )
    side: Literal["yes", "no"]
    shares: Annotated[int, Field(ge=1, le=100000)]
    price: Number(ge=0.01, le=0.99, places=2) = Field(
        description="Average price paid per share, in currency units (0.01..0.99; a winning share pays 1)"
    )
    opened: dt.date | None = Field(
        default=None, description="The day the shares were bought: within the history, before as_of; drawn when missing"
    )


class Finances(SpecModel):
    """Accounts, bills, debts, investments and prediction-market positions.

    Rules the builder checks: at most one account of each kind, and a checking account
    whenever accounts are listed (every paycheck and bill runs through it); one position per market.
    """

    currency: Currency | None = None
    accounts: _list(Account, 4) = Field(default_factory=list)
    recurring_charges: _list(RecurringCharge, 60) | None = None
    debts: _list(Debt, 20) = Field(default_factory=list)
    investments: Investments | None = None
    prediction_positions: _list(PredictionPosition, 20) | None = Field(
        default=None, description="Prediction-market positions held on as_of (see PredictionPosition)"
    )

    @model_validator(mode="after")
    def _accounts(self) -> "Finances":
        kinds = [a.kind for a in self.accounts]
        problems = [
            (("accounts", i, "kind"), f"a second {kind} account (at most one of each kind is supported)")
            for i, kind in enumerate(kinds)
            if kind in kinds[:i]
        ]
        if kinds and "checking" not in kinds:
            problems.append((("accounts",), "a checking account is needed (paychecks and bills run through it)"))
        markets: dict[str, int] = {}
        for i, pos in enumerate(self.prediction_positions or []):
            k = name_key(pos.market)
            if k in markets:
                problems.append(
                    (
                        ("prediction_positions", i, "market"),
                        f"also prediction_positions[{markets[k]}]'s market: one position (side, shares, price) "
                        "a market",
                    )
                )
            markets.setdefault(k, i)
        inv = self.investments
        symbols: dict[str, int] = {}
        for i, h in enumerate(inv.holdings if inv else []):
            if h.symbol in symbols:
                problems.append(
                    (("investments", "holdings", i, "symbol"), f"also holdings[{symbols[h.symbol]}]'s symbol")
                )
            symbols.setdefault(h.symbol, i)
        if inv and inv.monthly_contribution > 0 and inv.contribution_symbol:
            if inv.contribution_symbol not in {h.symbol for h in inv.holdings}:
                problems.append(
                    (
                        ("investments", "contribution_symbol"),
                        "the monthly investment buys it, so today's holdings must list it",
                    )
                )
        _rule_problems(problems)
        return self


#: The apps a contact can appear in (``Contact.apps``); the other apps hold no person of the persona's circle.
ContactApp = Literal["mail", "chat", "bank", "calendar", "network", "workchat"]


class ScriptedMessage(SpecModel):
    """One message of a :class:`Conversation`, stored and shown verbatim: ``from`` ``me`` (the persona) or
    ``them`` (the contact), ``text`` up to 2,000 characters (line breaks allowed)."""

    from_: Literal["me", "them"] = Field(alias="from")
    text: Annotated[str, Field(min_length=1, max_length=2000, pattern=PROSE_PATTERN)]

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Conversation(SpecModel):
    """Messages the persona and a contact exchanged in the messaging app, as the contributor wrote them: the first
    at ``at`` (local time, on a day of the history, before ``as_of``'s date), the next ones seconds to minutes
    apart in order. The contact is in the messaging app (``apps`` must then list ``chat`` when given) and no
    everyday chat of the builder's own falls on that day with that contact (messages tied to the world, about a
    booking, a payment or a birthday, still may)."""

    at: dt.datetime = Field(description="Local time of the first message (no offset), before as_of's date")
    messages: _list(ScriptedMessage, 60, 1)

    model_config = ConfigDict(extra="forbid", frozen=True)

    @model_validator(mode="after")
    def _naive(self) -> "Conversation":
        if self.at.tzinfo is not None:
            _rule_problems([(("at",), "a local time without an offset (the persona's time zone applies)")])
        return self


class Contact(SpecModel):
    """Someone the persona knows. ``closeness`` 1 (acquaintance) .. 5 (closest)."""

    name: Name = Field(description="Unique among the contacts (compared case-insensitively)")
    relationship: Literal[
        "partner", "spouse", "parent", "sibling", "child", "friend", "colleague", "roommate", "neighbor", "other"
    ] = "friend"
    closeness: Annotated[int, Field(ge=1, le=5)] | None = None
    email: EmailStr | None = None
    phone: Phone | None = None
    birthday: dt.date | None = Field(
        default=None, description="From 1900 on and not after as_of (checked by the builder)"
    )
    address: Address | None = None
    shared_activities: _list(Line(60), 20) | None = None
    apps: _list(ContactApp, 6) | None = Field(
        default=None,
        description="Apps this contact appears in: mail, chat (messaging), bank (payments to and from them), calendar"
        " (invitations), network (a connection on the professional network: friends, colleagues and others are"
        " connections anyway, a parent or child only when listed), workchat (colleagues only: the work chat)."
        " Completed by relationship when missing",
    )
    messaging_style: Literal["brief", "chatty", "formal", "emoji"] | None = Field(
        default=None, description="How the contact writes in the messaging app (their voice)"
    )
    language: Language | None = Field(
        default=None,
        description="The language the persona and this contact write to each other in the messaging app (their"
        " one-to-one chat; dates and amounts as that language writes them in the persona's locale); default: the"
        " persona's",
    )
    conversations: _list(Conversation, 30) | None = Field(
        default=None, description="Scripted exchanges in the messaging app, stored verbatim (see Conversation)"
    )
    # The contact's own life, fixed once (completion fills what is missing) and reused by every module.
    gender: Literal["female", "male", "nonbinary"] | None = Field(
        default=None, description="Completed from the first name (Faker's name lists) when it tells, else drawn"
    )
    partner: Name | None = Field(default=None, description="The contact's partner's name")
    children: _list(Name, 8) | None = Field(default=None, description="The contact's children's first names")
    pets: _list(Line(60), 6) | None = Field(default=None, description="e.g. 'a dog called Biscuit'")
    job: Line(100) | None = Field(default=None, description="What the contact does for a living")
    city: Line(60) | None = Field(default=None, description="Where the contact lives (default: the persona's city)")


class Trip(SpecModel):
    """A trip away from home, past or upcoming. ``companions`` are contact names.

    A trip lasts at most 60 days; trips outside the simulated window are kept in the spec but
    leave no events.
    """

    destination: Line(60) = Field(description="City name")
    airport: Iata
    depart: dt.date
    return_: dt.date = Field(alias="return")
    purpose: Literal["leisure", "business", "family"] = "leisure"
    companions: _list(Name, 20) = Field(default_factory=list)
    flight: Annotated[str, Field(pattern=r"^[A-Z0-9]{2}[0-9]{1,4}$")] | None = Field(
        default=None, description="A fixed outbound flight number (e.g. 'AS1234'); drawn when missing"
    )
    hotel: Line(100) | None = Field(default=None, description="A fixed hotel name; drawn when missing")

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    @model_validator(mode="after")
    def _dates(self) -> "Trip":
        if self.return_ < self.depart:
            _rule_problems([(("return",), "return is before depart")])
        elif (self.return_ - self.depart).days > 60:
            _rule_problems([(("return",), "a trip may last at most 60 days")])
        return self


class Loyalty(SpecModel):
    """A loyalty programme membership."""

    program: Line(60)
    number: Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9 -]{0,29}$")]


class Travel(SpecModel):
    """Travel habits and trips."""

    home_airport: HomeIata | None = None
    airline: Line(60) | None = None
    hotel_chain: Line(60) | None = None
    seat: Literal["window", "aisle", "middle"] | None = None
    loyalty: _list(Loyalty, 20) = Field(default_factory=list)
    trips: _list(Trip, 30) | None = None


class Commute(SpecModel):
    """How the persona gets to the office on office days."""

    mode: Literal["car", "transit", "bike", "walk", "rideshare"] = "transit"
    depart: Time = "08:10"
    minutes: Annotated[int, Field(ge=1, le=180)] = 30


class UsualOrder(SpecModel):
    """The food-delivery order the persona places most often."""

    restaurant: Line(80)
    items: _list(Line(80), 20, 1)
    total: PositiveMoney


class Routines(SpecModel):
    """Recurring behaviour; counts are per week unless named otherwise."""

    commute: Commute | None = None
    exercise: Line(40) | None = Field(default=None, description="e.g. 'climbing'")
    exercise_days: Annotated[list[Weekday], Field(max_length=7)] = Field(default_factory=lambda: ["tue", "sat"])
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
    night_owl: bool = Field(
        default=False, description="Up and writing after midnight (personal mail and chat at night)"
    )
    screen_hours_per_day: Number(ge=0, le=18, places=2) = Field(
        default=Decimal("3"),
        description="Time on screens outside work: how deep each browsing session goes (0-4 links at 3 hours)",
    )


class Preferences(SpecModel):
    """Tastes that shape choices in the world."""

    cuisines: _list(Line(40), 20) = Field(default_factory=list)
    seat: Literal["window", "aisle", "middle"] | None = None
    tipping_percent: Annotated[int, Field(ge=0, le=40)] = 18
    brands: _list(Line(60), 50) = Field(default_factory=list)
    favourite_merchants: _list(Line(100), 50) = Field(default_factory=list)


class LifeEvent(SpecModel):
    """A dated one-off the world must honour (appears in calendar, mail, chat as fits its kind)."""

    date: dt.date
    kind: Literal["moved", "new_job", "party", "doctor", "dentist", "wedding", "birthday", "concert", "exam", "other"]
    title: Line(120)
    time: Time | None = None
    location: Line(200) | None = None
    with_: _list(Name, 25) = Field(default_factory=list, alias="with", description="Contact names")

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class RecurringEvent(SpecModel):
    """A personal event that repeats (a book club, a lesson, a standing dinner), entered in the personal calendar
    as one series from ``start`` (default: the history's first day) to ``until`` (default: the horizon's end).
    ``freq`` ``weekly``: on ``days``, every ``every_weeks`` weeks (counted as work meetings are); ``monthly``: on the
    ``nth`` (1-4, or -1 for the last) of ``days``' one weekday in each month (RFC 5545 ``BYDAY=1TH``, ``-1FR``).
    ``with`` names contacts who attend."""

    title: Line(120)
    freq: Literal["weekly", "monthly"] = "weekly"
    days: Annotated[list[Weekday], Field(min_length=1, max_length=7)]
    nth: Literal[1, 2, 3, 4, -1] | None = Field(default=None, description="Monthly only: which of the month's weekday")
    time: Time
    duration_minutes: Annotated[int, Field(ge=5, le=720)] = 60
    every_weeks: Annotated[int, Field(ge=1, le=8)] = 1
    location: Line(200) | None = None
    with_: _list(Name, 25) = Field(default_factory=list, alias="with", description="Contact names")
    start: dt.date | None = None
    until: dt.date | None = None

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    @model_validator(mode="after")
    def _rule(self) -> "RecurringEvent":
        problems: list[tuple[tuple, str]] = []
        if self.freq == "monthly" and (self.nth is None or len(self.days) != 1):
            problems.append((("nth",), "a monthly event needs nth and exactly one weekday in days"))
        if self.freq == "weekly" and self.nth is not None:
            problems.append((("nth",), "nth is for monthly events only"))
        if self.start and self.until and self.until < self.start:
            problems.append((("until",), "until is before start"))
        _rule_problems(problems)
        return self


#: The facts of a spec a contributor's contradiction or dependency chain may name (``[]`` stands for an index) and
#: the service (``builder.reference.services`` role) whose app shows each as it is: where a careful reader checks.
FACT_PATHS: dict[str, str] = {
    "life_events[].title": "calendar",
    "life_events[].date": "calendar",
    "life_events[].time": "calendar",
    "life_events[].location": "calendar",
    "recurring_events[].title": "calendar",
    "recurring_events[].time": "calendar",
    "recurring_events[].location": "calendar",
    "work.meetings[].title": "calendar",
    "work.meetings[].time": "calendar",
    "contacts[].birthday": "calendar",
    "contacts[].phone": "messaging",
    "contacts[].email": "mail-delivery",
    "travel.trips[].destination": "airline",
    "travel.trips[].depart": "airline",
    "travel.trips[].return": "airline",
    "travel.trips[].flight": "airline",
    "travel.trips[].hotel": "lodging",
    "finances.recurring_charges[].amount": "bank",
    "finances.debts[].monthly_payment": "bank",
}

FactPath = Annotated[
    str,
    Field(
        max_length=80,
        # In the schema only: the builder's own check names the paths in plain words rather than a regex.
        json_schema_extra={
            "pattern": "^(" + "|".join(re.escape(k).replace(r"\[\]", r"\[[0-9]{1,3}\]") for k in FACT_PATHS) + ")$"
        },
        description="A path to a fact this spec writes (one of FACT_PATHS, e.g. life_events[2].time or"
        " travel.trips[0].flight; the builder checks the spec has a value there)",
    ),
]


def spec_fact(spec: dict, path: str) -> tuple[str | None, str | None]:
    """The value of the fact at ``path`` of ``spec`` (a spec as JSON: ``Persona.model_dump(mode="json",
    by_alias=True)``) and the service whose app shows it (:data:`FACT_PATHS`): ``(value, role)``. The value is
    the JSON text of the leaf (a date ``2026-11-28``, a time ``19:30``, an amount ``1450.00``); ``(None, None)``
    when the path is not one of :data:`FACT_PATHS`, ``(None, role)`` when the spec has no value there."""
    role = FACT_PATHS.get(re.sub(r"\[[0-9]+\]", "[]", path))
    if role is None:
        return None, None
    node: Any = spec
    for name, index in re.findall(r"([a-z_]+)(?:\[([0-9]+)\])?", path):
        node = node.get(name) if isinstance(node, dict) else None
        if index and isinstance(node, list):
            node = node[int(index)] if int(index) < len(node) else None
        elif index:
            node = None
    if node is None or isinstance(node, (dict, list, bool)):
        return None, role
    if isinstance(node, float):
        node = f"{Decimal(str(node)):.2f}"
    return str(node), role


class Claim(SpecModel):
    """A contradiction the contributor plants: on ``at`` (local, a day of the history before ``as_of``'s date) the
    contact ``by`` writes ``text`` in the messaging app, stating ``claim`` as the value of the spec's fact ``fact``
    (a path of :data:`FACT_PATHS`, e.g. ``life_events[2].time``). The spec's value stays true, and the app that shows
    the fact shows it; ``text`` must hold ``claim`` and ``claim`` must differ from the spec's value. ``about`` names
    the fact as the persona would ask about it ("the time of Marta's birthday dinner"): the task built on it asks
    which is right."""

    fact: FactPath
    claim: Line(120)
    by: Name = Field(description="A contact in the messaging app")
    at: dt.datetime = Field(description="Local time of the message (no offset), before as_of's date")
    text: Annotated[str, Field(min_length=1, max_length=2000, pattern=PROSE_PATTERN)]
    about: Line(160)

    @model_validator(mode="after")
    def _naive(self) -> "Claim":
        problems: list[tuple[tuple, str]] = []
        if self.at.tzinfo is not None:
            problems.append((("at",), "a local time without an offset (the persona's time zone applies)"))
        if self.claim.casefold() not in self.text.casefold():
            problems.append((("text",), f"the message must state the claim {self.claim!r} as written"))
        _rule_problems(problems)
        return self


class ChainStep(SpecModel):
    """One step of a :class:`Chain`: a fact of the spec (a path of :data:`FACT_PATHS`) and how the persona would ask
    for it ("the day I fly back from Porto")."""

    fact: FactPath
    label: Line(160)


class Chain(SpecModel):
    """A dependency chain the contributor plants: facts of the spec, each found through the one before (the dinner
    is booked for the evening the flight home lands; the flight's day is in the airline's booking). ``about``
    says why they hang together; the world records the chain (``world/planted.json``) with each step's value and
    the app showing it, for tasks to build on (none does yet)."""

    about: Line(200)
    steps: _list(ChainStep, 6, 2)


class Purchase(SpecModel):
    """Something the persona bought on ``date`` (a day of the history, before ``as_of``): ``quantity`` of ``item``
    (its name, kept verbatim) at ``price`` each, in the persona's currency, paid with the everyday card.

    Without ``merchant`` (or with the online shop's own name, Shopwell) it is an online order at the shop: an order
    of that day holding that line, with the shop's shipping rule, its card charge, confirmation mail and parcel
    delivery (``builder.world.orders.simulate_spec_purchases``). Any other ``merchant`` makes it an in-store card purchase there,
    whose bank line notes the item. ``category``: the bank line's category (default ``shopping``); for an online
    order also the shop department it is listed in when it names one (``electronics``, ``books``...)."""

    date: dt.date
    item: Line(120)
    price: PositiveMoney = Field(description="Price of one, in the persona's currency")
    quantity: Annotated[int, Field(ge=1, le=99)] = 1
    merchant: Line(100) | None = Field(
        default=None,
        description="Where it was bought: default the online shop (the retail app); another name is a store",
    )
    category: Line(40) | None = None


class WishedItem(SpecModel):
    """An item on the persona's wish list at the online shop (Shopwell), ``added`` on a day of the history (default:
    drawn within the last four months). Without ``price`` the item must be a product of the shop's catalogue, named
    as the shop names it (its title in the persona's language), and shows at the catalogue's price; with ``price``
    the shop lists the item at that price. ``category`` as for a purchase: the shop department when it names one."""

    item: Line(120)
    price: PositiveMoney | None = Field(default=None, description="Price now, in the persona's currency")
    added: dt.date | None = None
    category: Line(40) | None = None


class Site(SpecModel):
    """A website the persona visits ``per_week`` times on average. URLs are unique in ``browsing``."""

    url: Annotated[
        str,
        Field(
            max_length=500,
            pattern=r"^https?://[^\s/?#@]+([/?#][^\s]*)?$",
            description="An http(s) URL whose host name is valid (IDNA labels of 1 to 63 characters)",
        ),
        AfterValidator(_url),
    ]
    title: Line(200)
    per_week: Number(ge=0, le=200, places=2) = Decimal("3")
    bookmarked: bool = False


MAX_VISITS_PER_WEEK = 120


class Persona(SpecModel):
    """A persona spec: the root of ``personas/*.json``. Only ``identity.name`` is required.

    ``as_of`` is the frozen "today" of the whole world and of the guest clock;
    ``seed`` names the root of every random stream (see ``builder.rng``).

    Rules the builder checks beyond the schema (each reported at its JSON path): contact
    names are unique and differ from the persona's; every name in ``work.colleagues``,
    meeting attendees, trip companions and life events' ``with`` is a contact's; browsing
    URLs are unique and their ``per_week`` sum to at most ``MAX_VISITS_PER_WEEK``; the birth
    date is 16 to 110 years before ``as_of``; contacts' birthdays are from 1900 on and not
    after ``as_of``; purchases are on a day of the history before ``as_of``, wishes added on one up to ``as_of``,
    wished items named once, and a wish without a price names a product of the shop's catalogue;
    ``work.projects`` need ``work.employer``, unique names and keys, assignees and comment authors who are the
    persona or colleagues, due dates within history..horizon; ``contradictions`` and ``chains`` name facts the
    spec writes (:data:`FACT_PATHS`), a claim differs from the fact and is in its message, written by a contact
    in the messaging app on a day of the history.
    """

    schema_: str | None = Field(default=None, alias="$schema")
    id: Slug | None = Field(default=None, description="Defaults to the name as a slug")
    seed: Annotated[int, Field(ge=0, le=2**63 - 1)] = 0
    as_of: Annotated[
        dt.date,
        Field(
            ge=AS_OF_MIN,
            le=AS_OF_MAX,
            description="Between 2000-01-01 and 2099-12-31",
            json_schema_extra={"pattern": r"^20[0-9]{2}-[0-9]{2}-[0-9]{2}$"},
        ),
    ] = dt.date(2026, 11, 16)
    locale: Annotated[
        str,
        Field(
            max_length=16,
            description=(
                "Where the persona's formats, names, holidays and currency come from: any CLDR (Babel) locale, "
                "language_COUNTRY (en_US, ja_JP, pt_BR, en_NG); default: the address country's likely locale "
                "(CLDR), else en_US"
            ),
            json_schema_extra={"pattern": r"^[a-z]{2,3}_[A-Z]{2}$"},
        ),
        AfterValidator(_locale_tag),
    ] = "en_US"
    language: Language = Field(
        default="en",
        description=(
            "The language of the text the persona reads and writes (messages, mail, app chrome): one with phrase "
            "banks; default: the locale's language when it has them, else en"
        ),
    )
    timezone: Annotated[str, Field(max_length=64), AfterValidator(_zone)] | None = Field(
        default=None, description="IANA zone name (checked against the tz database); defaults by locale"
    )
    identity: Identity
    work: Work | None = None
    finances: Finances | None = None
    contacts: _list(Contact, 25) | None = None
    travel: Travel | None = None
    routines: Routines | None = None
    preferences: Preferences | None = None
    life_events: _list(LifeEvent, 100) = Field(default_factory=list)
    recurring_events: _list(RecurringEvent, 30) = Field(
        default_factory=list, description="Personal events that repeat weekly or monthly (calendar series)"
    )
    contradictions: _list(Claim, 20) = Field(
        default_factory=list, description="Contradictions the contributor plants (see Claim)"
    )
    chains: _list(Chain, 10) = Field(default_factory=list, description="Dependency chains of the spec's facts")
    browsing: _list(Site, 40) | None = Field(
        default=None,
        description=(f"Unique URLs; per_week sums to at most {MAX_VISITS_PER_WEEK} (checked by the builder)"),
    )
    purchases: _list(Purchase, 50) | None = Field(
        default=None,
        description="Specific past purchases, each on a day of the history (see Purchase); the world's own orders "
        "and card spending come besides",
    )
    wishlist: _list(WishedItem, 50) | None = Field(
        default=None,
        description="The online shop's wish list, exactly these items (names unique); default: a few drawn products",
    )
    history_months: Annotated[int, Field(ge=1, le=36)] = 18
    horizon_days: Annotated[int, Field(ge=0, le=180)] = 60

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    @model_validator(mode="before")
    @classmethod
    def _default_locale(cls, data: Any) -> Any:
        """Fill ``locale`` (the address country's likely locale, else en_US) and ``language`` (the locale's when
        banked, else en) when the spec leaves them out, so every parsed spec, and the completed one, records both."""
        if not isinstance(data, dict) or ("locale" in data and "language" in data):
            return data
        from ..reference.locale import default_language, default_locale

        data = dict(data)
        if "locale" not in data:
            identity = data.get("identity")
            address = identity.get("address") if isinstance(identity, dict) else getattr(identity, "address", None)
            country = address.get("country") if isinstance(address, dict) else getattr(address, "country", None)
            data["locale"] = default_locale(country if isinstance(country, str) else None)
        if "language" not in data and isinstance(data["locale"], str):
            data["language"] = default_language(data["locale"])
        return data

    @property
    def bank(self) -> str:
        """The phrase bank the persona's text is written from (``en_US``, ``en_GB``, ``de_DE``): what templates,
        app chrome and text tables are keyed by (:func:`builder.reference.locale.bank_of` of ``locale`` and
        ``language``). ``locale`` itself stays for facts: names, holidays, currency, formats. ``model_copy`` runs no
        validator: a copy that changes ``locale`` sets ``language`` too."""
        from ..reference.locale import bank_of

        return bank_of(self.locale, self.language)

    @model_validator(mode="after")
    def _cross_references(self) -> "Persona":
        problems: list[tuple[tuple, str]] = []
        contacts = self.contacts or []
        me = name_key(self.identity.name)
        seen: dict[str, int] = {}
        for i, c in enumerate(contacts):
            k = name_key(c.name)
            if k in seen:
                problems.append((("contacts", i, "name"), f"{c.name!r} is also contacts[{seen[k]}]'s name"))
            elif k == me:
                problems.append((("contacts", i, "name"), "a contact may not have the persona's own name"))
            seen.setdefault(k, i)
            if c.birthday and not dt.date(1900, 1, 1) <= c.birthday <= self.as_of:
                problems.append((("contacts", i, "birthday"), "must be from 1900 on and not after as_of"))
            if c.conversations and c.apps is not None and "chat" not in c.apps:
                problems.append(
                    (("contacts", i, "apps"), "a contact with conversations is in the messaging app: add chat")
                )
            first = add_months(self.as_of, -self.history_months)
            days: dict[dt.date, int] = {}
            for j, talk in enumerate(c.conversations or []):
                if not first <= talk.at.date() < self.as_of:
                    problems.append(
                        (
                            ("contacts", i, "conversations", j, "at"),
                            f"must be on a day of the history: from {first} to the day before as_of ({self.as_of})",
                        )
                    )
                elif talk.at.date() in days:
                    problems.append(
                        (
                            ("contacts", i, "conversations", j, "at"),
                            f"one conversation a day with a contact: conversations[{days[talk.at.date()]}] is that day",
                        )
                    )
                days.setdefault(talk.at.date(), j)

        def refer(loc: tuple, name: str) -> None:
            if name_key(name) not in seen:
                problems.append((loc, f"{name!r} is not the name of a contact"))

        colleagues = {name_key(n) for n in (self.work.colleagues if self.work else [])}
        for i, c in enumerate(contacts):
            if "workchat" in (c.apps or []) and c.relationship != "colleague" and name_key(c.name) not in colleagues:
                problems.append(
                    (
                        ("contacts", i, "apps"),
                        "only colleagues appear in the work chat (relationship or work.colleagues)",
                    )
                )
        if self.work:
            for j, name in enumerate(self.work.colleagues):
                refer(("work", "colleagues", j), name)
            for m, meeting in enumerate(self.work.meetings or []):
                for j, name in enumerate(meeting.attendees):
                    refer(("work", "meetings", m, "attendees", j), name)
            problems.extend(self._project_problems())
        if self.travel:
            for t, trip in enumerate(self.travel.trips or []):
                for j, name in enumerate(trip.companions):
                    refer(("travel", "trips", t, "companions", j), name)
        for e, event in enumerate(self.life_events):
            for j, name in enumerate(event.with_):
                refer(("life_events", e, "with", j), name)
        for e, event in enumerate(self.recurring_events):
            for j, name in enumerate(event.with_):
                refer(("recurring_events", e, "with", j), name)

        if self.contradictions or self.chains:
            problems.extend(self._planted_rules(seen, contacts))

        born = self.identity.birth_date
        if born and not (
            add_months(self.as_of, -12 * MAX_AGE_YEARS) <= born <= add_months(self.as_of, -12 * MIN_AGE_YEARS)
        ):
            problems.append(
                (
                    ("identity", "birth_date"),
                    f"must be {MIN_AGE_YEARS} to {MAX_AGE_YEARS} years before as_of ({self.as_of})",
                )
            )

        problems.extend(self._money_today())

        urls: dict[str, int] = {}
        for i, site in enumerate(self.browsing or []):
            k = url_key(site.url)
            if k in urls:
                problems.append((("browsing", i, "url"), f"also browsing[{urls[k]}]'s URL"))
            urls.setdefault(k, i)
        if sum(site.per_week for site in self.browsing or []) > MAX_VISITS_PER_WEEK:
            problems.append((("browsing",), f"per_week adds up to more than {MAX_VISITS_PER_WEEK} visits a week"))
        problems.extend(self._shopping_problems())
        _rule_problems(problems)
        return self

    def _planted_rules(self, seen: dict[str, int], contacts: list) -> list[tuple[tuple, str]]:
        """The problems of ``contradictions`` and ``chains``: facts that must exist, contacts in the messaging app,
        days of the history."""
        problems: list[tuple[tuple, str]] = []
        spec = self.model_dump(mode="json", by_alias=True, exclude={"contradictions", "chains"})
        known = ", ".join(FACT_PATHS)

        def fact(loc: tuple, path: str) -> str | None:
            value, role = spec_fact(spec, path)
            if role is None:
                problems.append((loc, f"{path!r} is not a fact a contradiction or chain may name ({known})"))
            elif value is None:
                problems.append((loc, f"{path!r} has no value in this spec: write the fact first"))
            return value

        first = add_months(self.as_of, -self.history_months)
        for i, claim in enumerate(self.contradictions):
            value = fact(("contradictions", i, "fact"), claim.fact)
            if value is not None and value.casefold() == claim.claim.casefold():
                problems.append((("contradictions", i, "claim"), "must differ from the spec's value of the fact"))
            k = name_key(claim.by)
            if k not in seen:
                problems.append((("contradictions", i, "by"), f"{claim.by!r} is not the name of a contact"))
            else:
                c = contacts[seen[k]]
                if c.apps is not None and "chat" not in c.apps:
                    problems.append((("contradictions", i, "by"), f"{c.name} is not in the messaging app: add chat"))
                if any(t.at.date() == claim.at.date() for t in c.conversations or []):
                    problems.append(
                        (("contradictions", i, "at"), f"{c.name} has a scripted conversation that day: pick another")
                    )
            if not first <= claim.at.date() < self.as_of:
                problems.append(
                    (
                        ("contradictions", i, "at"),
                        f"must be on a day of the history: from {first} to the day before as_of ({self.as_of})",
                    )
                )
        for i, chain in enumerate(self.chains):
            paths: dict[str, int] = {}
            for j, step in enumerate(chain.steps):
                fact(("chains", i, "steps", j, "fact"), step.fact)
                if step.fact in paths:
                    problems.append((("chains", i, "steps", j, "fact"), f"also steps[{paths[step.fact]}]'s fact"))
                paths.setdefault(step.fact, j)
        return problems

    def _shopping_problems(self) -> list[tuple[tuple, str]]:
        """What ``purchases`` and ``wishlist`` ask that the world cannot honour: a purchase outside the history or
        on or after ``as_of``; a wish added outside the history or after ``as_of``; a wished item named twice; a
        wish without a price that is no product of the shop's catalogue (titles in the persona's language)."""
        problems: list[tuple[tuple, str]] = []
        first = add_months(self.as_of, -self.history_months)
        for i, buy in enumerate(self.purchases or []):
            if not first <= buy.date < self.as_of:
                problems.append(
                    (
                        ("purchases", i, "date"),
                        f"must be a day of the history: from {first} to the day before as_of ({self.as_of})",
                    )
                )
        wished: dict[str, int] = {}
        for i, wish in enumerate(self.wishlist or []):
            if wish.added is not None and not first <= wish.added <= self.as_of:
                problems.append(
                    (("wishlist", i, "added"), f"must be a day of the history: from {first} to as_of ({self.as_of})")
                )
            k = name_key(wish.item)
            if k in wished:
                problems.append((("wishlist", i, "item"), f"also wishlist[{wished[k]}]'s item"))
            wished.setdefault(k, i)
            if wish.price is None:
                from ..reference.retail.catalogue import product_named

                if product_named(wish.item, self.bank) is None:
                    problems.append(
                        (
                            ("wishlist", i, "price"),
                            f"needed: the shop's catalogue has no product called {wish.item!r} (give its price)",
                        )
                    )
        return problems

    def _project_problems(self) -> list[tuple[tuple, str]]:
        """The rules of ``work.projects``: an employer (the workspace they belong to), unique names and keys, people
        who are the persona or a colleague (``work.colleagues``, else the contacts whose relationship is
        colleague: whom completion makes the team), due dates from the history's first day to the horizon's last."""
        projects = self.work.projects if self.work else None
        if not projects:
            return []
        out: list[tuple[tuple, str]] = []
        if not self.work.employer:
            out.append(
                (("work", "projects"), "projects need work.employer: they are that employer's work chat and board")
            )
        contacts = self.contacts or []
        team = [n for n in self.work.colleagues] or [c.name for c in contacts if c.relationship == "colleague"]
        people = {name_key(self.identity.name)} | {name_key(n) for n in team}
        first, last = add_months(self.as_of, -self.history_months), self.as_of + dt.timedelta(days=self.horizon_days)
        names: dict[str, int] = {}
        keys: dict[str, int] = {}
        for i, pr in enumerate(projects):
            at = ("work", "projects", i)
            k = name_key(pr.name)
            if k in names:
                out.append(((*at, "name"), f"{pr.name!r} is also projects[{names[k]}]'s name"))
            names.setdefault(k, i)
            if pr.key is not None:
                if pr.key in keys:
                    out.append(((*at, "key"), f"{pr.key!r} is also projects[{keys[pr.key]}]'s key"))
                keys.setdefault(pr.key, i)
            for j, t in enumerate(pr.tickets):
                who = [(("assignee",), t.assignee)] if t.assignee else []
                who += [(("comments", c, "author"), cm.author) for c, cm in enumerate(t.comments or [])]
                for loc, name in who:
                    if name_key(name) not in people:
                        out.append(
                            (
                                (*at, "tickets", j, *loc),
                                f"{name!r} is neither the persona nor a colleague (a name in work.colleagues, or when"
                                " that is empty a contact whose relationship is colleague)",
                            )
                        )
                if t.due and not first <= t.due <= last:
                    out.append(
                        (
                            (*at, "tickets", j, "due"),
                            f"must be from {first} to {last} (the history's first day to the horizon's last)",
                        )
                    )
        return out

    def _money_today(self) -> list[tuple[tuple, str]]:
        """Problems of the money held on ``as_of`` that need the history's dates: a prediction-market position bought
        outside the history; a holding of a security that splits within the history whose shares today are no
        whole number of the split's new shares per 0.0001 held before it (``builder.reference.securities``)."""
        problems: list[tuple[tuple, str]] = []
        f = self.finances
        if f is None:
            return problems
        first = add_months(self.as_of, -self.history_months)
        for i, pos in enumerate(f.prediction_positions or []):
            if pos.opened is not None and not first <= pos.opened < self.as_of:
                problems.append(
                    (
                        ("finances", "prediction_positions", i, "opened"),
                        f"must be a day of the history: from {first} to the day before as_of ({self.as_of})",
                    )
                )
        if f.investments:
            from ..reference.securities import catalogue

            splits = {s["symbol"]: s["split"] for s in catalogue()["securities"] if s.get("split")}
            for i, h in enumerate(f.investments.holdings):
                sp = splits.get(h.symbol)
                if sp and first < sp["date"] <= self.as_of:
                    ratio = int(sp["ratio"])
                    if (Decimal(h.shares) * 10000) % ratio:
                        problems.append(
                            (
                                ("finances", "investments", "holdings", i, "shares"),
                                f"{h.symbol} splits {ratio}:1 on {sp['date']}, within the history: today's shares "
                                f"must be a multiple of {Decimal(ratio) / 10000} ({ratio} for each 0.0001 held before)",
                            )
                        )
        return problems

    # Shortcuts for the completed persona (every section filled by builder.persona.complete).
    @property
    def accounts(self) -> list[Account]:
        """The completed persona's accounts."""
        return self.finances.accounts

    @property
    def recurring_charges(self) -> list[RecurringCharge]:
        """The completed persona's recurring charges."""
        return self.finances.recurring_charges
