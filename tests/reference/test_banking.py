"""Statement words and person-to-person payments by country (builder/reference/banking)."""

from __future__ import annotations

import json

from builder.reference.banking import rail, statement_labels
from tests.conftest import tokyo_world

KEYS = {"pay", "bill_pay", "autopay", "debit", "p2p_to", "p2p_from", "card_payment", "fx_fee", "ext_to", "kinds"}


def test_a_locale_at_home_reads_its_own_banks_words_and_anyone_else_the_countrys_scheme():
    assert statement_labels("en_US", "US")["p2p_to"] == "ZELLE TO {}"
    assert statement_labels("en_GB", "GB")["autopay"] == "DIRECT DEBIT {}"
    assert statement_labels("de_DE", "DE")["p2p_from"] == "GUTSCHRIFT VON {}"
    # An English speaker in Brazil or Japan: English words, the country's scheme; a German one in Austria: German.
    assert statement_labels("en_US", "BR")["p2p_to"] == "PIX TO {}"
    assert statement_labels("en_GB", "JP")["p2p_from"] == "FURIKOMI FROM {}"
    assert statement_labels("de_DE", "AT")["p2p_to"] == "ÜBERWEISUNG AN {}"
    assert statement_labels("en_US", "ZW")["p2p_to"] == "TRANSFER TO {}"  # a country the table does not name
    # Not a US table for an American abroad: no Zelle, no ACH in Japan.
    assert "ZELLE" not in json.dumps(statement_labels("en_US", "JP")) and "ACH" not in json.dumps(
        statement_labels("en_US", "JP")
    )
    for locale, country in [("en_US", "US"), ("en_GB", "GB"), ("de_DE", "DE"), ("en_US", "JP"), ("de_DE", "CH")]:
        words = statement_labels(locale, country)
        assert KEYS <= set(words), (locale, country)
        assert all("{rail}" not in str(v) for v in words.values())
    assert (
        rail("us")["via"] == "with Zelle" and rail("DE")["payment"] == "bank transfer" and rail("BR")["name"] == "Pix"
    )


def test_a_persona_in_tokyo_pays_friends_by_furikomi_on_its_statements():
    _, world = tokyo_world()
    lines = [x.description for x in world.postings() if x.kind in ("p2p_sent", "p2p_received")]
    assert lines and all(d.startswith(("FURIKOMI TO ", "FURIKOMI FROM ")) for d in lines), lines[:5]
