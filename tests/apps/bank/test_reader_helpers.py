"""The bank reader's pure helpers: amounts as every locale's pages and chats write them, the debit card's words of
every bank, and which grocery merchants are shops of one trade."""

from __future__ import annotations

from apps.bank.reader import DEBIT_PREFIXES, amount_after, merchant, money_beside
from builder.tasks.reader import parse_money
from apps.bank.spending import specialist_shop


def test_a_minus_before_a_long_currency_is_negative():
    assert parse_money("-F\u202fCFA\u00a01,058") == -105800
    assert parse_money("-PKR 435") == -43500
    assert parse_money("-$4.35") == -435
    assert parse_money("F CFA 10,618,426") == 1061842600


def test_amount_after_reads_two_word_currencies_and_single_digits():
    assert amount_after("Amount due this month: F\u202fCFA18,829 (due Wed)", "Amount due this month") == 1882900
    assert amount_after("Items : PKR 680 Shipping : PKR 0 Total", "Shipping") == 0
    assert amount_after("Rechnungsbetrag: 44,00 €", "Rechnungsbetrag") == 4400


def test_money_beside_needs_a_currency():
    assert money_beside("18:30 work for you? 🥳", "PKR") is None
    assert money_beside("your share for dinner at Bapsang: PKR 1,639 🙏", "PKR") == 163900
    assert money_beside("F CFA7,339 for dinner whenever", "F CFA") == 733900
    assert money_beside("Abendessen waren 571,17 THB pro Person", "฿") == 57117


def test_every_banks_debit_words_are_known():
    assert "CARD PURCHASE " in DEBIT_PREFIXES and "DEBIT CARD " in DEBIT_PREFIXES
    assert merchant({"description": "CARD PURCHASE LITTLE LAMB COFFEE"}) == "LITTLE LAMB COFFEE"


def test_specialist_food_shops_are_no_grocery_store():
    for name in ("Hale & Sons Butchers", "METZGEREI BRANDT", "The Abbey Deli", "BÄCKEREI KRÜGER", "Wochenmarkt Hafen"):
        assert specialist_shop(name), name
    for name in ("Green Basket Market", "EDEKA Brandt", "Church Lane Co-op", "Riverside Food Hall", "Delmar Market"):
        assert not specialist_shop(name), name
