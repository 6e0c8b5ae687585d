"""A household's bills by home country, in the persona's words (builder/reference/household, issue 26)."""

from __future__ import annotations

from builder.reference import household

# Brands a generic household must not pay: the US, British and German rows' own providers.
NATIONAL_BRANDS = {
    "Maple Row Apartments",
    "City Power & Light",
    "Lumen Fiber",
    "Mint Mobile",
    "Anytime Fitness",
    "Lemonade Insurance",
    "GEICO",
    "Northside Lettings",
    "Octopus Energy",
    "Hyperoptic",
    "giffgaff",
    "PureGym",
    "Admiral",
    "TV Licensing",
    "Hausverwaltung Brandt",
    "Telekom",
    "congstar",
    "Urban Sports Club",
    "HUK24",
    "HUK-COBURG",
    "Deutsche Bahn",
}


def _rows(country: str, locale: str) -> list[tuple]:
    return [tuple(b) for b in household.bills(country, locale)]


def test_the_three_countries_keep_their_households_at_home():
    """The tables complete.py had per locale, row for row (the shipped personas complete byte-identically)."""
    assert _rows("US", "en_US") == [
        ("Rent", "1650.00", "Maple Row Apartments", 1, "bill_pay", "housing"),
        ("Electricity", "68.40", "City Power & Light", 18, "autopay", "utilities"),
        ("Internet", "60.00", "Lumen Fiber", 9, "card", "utilities"),
        ("Phone plan", "45.00", "Mint Mobile", 14, "card", "utilities"),
        ("Video streaming", "15.49", "Netflix", 22, "card", "subscriptions"),
        ("Gym membership", "39.00", "Anytime Fitness", 5, "card", "health"),
        ("Renters insurance", "15.00", "Lemonade Insurance", 27, "autopay", "insurance"),
    ]
    assert [r[0] for r in _rows("GB", "en_GB")] == [
        "Rent",
        "Council Tax",
        "Energy",
        "Broadband",
        "Mobile",
        "Video streaming",
        "Gym membership",
        "TV Licence",
    ]
    assert _rows("DE", "de_DE")[4] == (
        "Rundfunkbeitrag",
        "18.36",
        "ARD ZDF Deutschlandradio Beitragsservice",
        15,
        "autopay",
        "utilities",
    )
    assert household.written("US") == "USD" and household.written("GB") == "GBP" and household.written("DE") == "EUR"
    assert tuple(household.commute_bill("US", "en_US", "car")) == (
        "Car insurance",
        "126.00",
        "GEICO",
        24,
        "autopay",
        "insurance",
    )
    assert household.commute_bill("DE", "de_DE", "transit").name == "Deutschlandticket"
    assert household.commute_bill("GB", "en_GB", "transit").payee == "{city} Travelcard"
    assert household.commute_bill("US", "en_US", "bike") is None
    assert household.account_names("US", "en_US")["checking"] == "Everyday Checking"
    assert household.account_names("GB", "en_GB")["brokerage"] == "Stocks and Shares ISA"
    assert household.account_names("DE", "de_DE")["savings"] == "Tagesgeld"


def test_facts_follow_the_home_country_and_words_the_language():
    """Council Tax and the TV Licence only in Britain, the Rundfunkbeitrag only in Germany, renters insurance only in
    the US, whatever the persona's locale; a German speaker in London reads German words where the table has them."""
    for locale in ("en_US", "en_GB", "de_DE"):
        for country in ("US", "GB", "DE", "JP", "BR", "FR"):
            names = {b.name for b in household.bills(country, locale)}
            payees = {b.payee for b in household.bills(country, locale)}
            assert ("Council Tax" in names) == (country == "GB"), (country, locale)
            assert ("TV Licensing" in payees) == (country == "GB"), (country, locale)
            assert ("ARD ZDF Deutschlandradio Beitragsservice" in payees) == (country == "DE"), (country, locale)
            assert ("Lemonade Insurance" in payees) == (country == "US"), (country, locale)
    assert [b.name for b in household.bills("DE", "en_US")][4] == "Broadcasting fee (Rundfunkbeitrag)"
    assert [b.name for b in household.bills("GB", "de_DE")][:3] == ["Miete", "Council Tax", "Energie"]
    assert household.account_names("DE", "en_GB")["checking"] == "Current Account"
    assert household.commute_bill("US", "de_DE", "car").name == "Kfz-Versicherung"


def test_anywhere_else_a_brand_neutral_household_in_the_persona_language():
    for country in ("JP", "BR", "FR", "NG", "IN", "AU"):
        assert not household.known(country)
        english = household.bills(country, "en_US")
        assert [(b.name, b.payee) for b in english] == [
            ("Rent", "Landlord"),
            ("Electricity", "Electricity supplier"),
            ("Internet", "Internet provider"),
            ("Mobile plan", "Mobile operator"),
            ("Video streaming", "Netflix"),
            ("Gym membership", "Gym"),
        ]
        german = household.bills(country, "de_DE")
        assert [(b.name, b.payee) for b in german][:2] == [("Miete", "Vermieter"), ("Strom", "Stromanbieter")]
        assert household.written(country) == "USD"
        assert not {b.payee for b in english + german} & NATIONAL_BRANDS
        assert household.commute_bill(country, "en_GB", "transit").payee == "Public transport"
        assert household.commute_bill(country, "en_US", "car").payee == "Car insurer"
        assert household.account_names(country, "en_US") == {
            "checking": "Current Account",
            "savings": "Savings Account",
            "credit_card": "Credit Card",
            "brokerage": "Brokerage",
        }
    assert household.known("us") and household.known(" gb ")
