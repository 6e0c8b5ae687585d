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
    email: EmailStr | None = None
    phone: Phone | None = None
    address: Address | None = None
    username: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{1,30}$")] | None = Field(
        default=None, description="Login name on the desktop and in the apps"
    )


class Employer(SpecModel):
    """Where the persona works and how it is paid."""

    name: str
    role: str | None = None
    salary: PositiveMoney = Field(description="Gross annual salary")
    pay_schedule: Literal["biweekly", "semimonthly", "monthly"] = "biweekly"
    net_ratio: Annotated[Decimal, Field(gt=0, le=1, decimal_places=3)] = Field(
        default=Decimal("0.72"), description="Take-home share of gross pay after tax and deductions"
    )


class Contact(SpecModel):
    """Someone the persona knows."""

    name: Annotated[str, Field(min_length=2, max_length=80)]
    relationship: Literal[
        "partner", "spouse", "parent", "sibling", "child", "friend", "colleague", "roommate", "neighbor", "other"
    ] = "friend"
    email: EmailStr | None = None
    phone: Phone | None = None


class Account(SpecModel):
    """A bank account held at the persona's bank.

    ``opening_balance`` is the balance at the start of the simulated history; for a
    credit card it is the amount owed (positive) and ``credit_limit`` is required.
    """

    kind: Literal["checking", "savings", "credit_card"]
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


class Persona(SpecModel):
    """A persona spec: the root of ``personas/*.json``.

    ``as_of`` is the frozen "today" of the whole world and of the guest clock;
    ``seed`` names the root of every random stream (see ``builder.world.rng``).
    """

    schema_: str | None = Field(default=None, alias="$schema")
    id: Slug
    seed: int = 0
    as_of: dt.date
    locale: Literal["en_US", "en_GB", "de_DE"] = "en_US"
    timezone: str = "America/New_York"
    identity: Identity
    employer: Employer | None = None
    contacts: list[Contact] = Field(default_factory=list)
    accounts: list[Account] = Field(default_factory=list)
    recurring_charges: list[RecurringCharge] = Field(default_factory=list)
    history_months: Annotated[int, Field(ge=1, le=36)] = 18
    horizon_days: Annotated[int, Field(ge=0, le=180)] = 60

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    @model_validator(mode="after")
    def _accounts_are_unique(self) -> "Persona":
        kinds = [a.kind for a in self.accounts]
        for kind in set(kinds):
            if kinds.count(kind) > 1:
                raise ValueError(f"at most one {kind} account is supported, found {kinds.count(kind)}")
        if not re.fullmatch(r"[A-Za-z_]+/[A-Za-z_]+(/[A-Za-z_]+)?|UTC", self.timezone):
            raise ValueError(f"timezone {self.timezone!r} is not an IANA zone name")
        return self
