"""Money in a message, whatever the currency: :func:`builder.tasks.matching.amounts` (the readers of requests to pay
back and of who paid a dinner)."""

from __future__ import annotations

from builder.tasks.matching import amounts


def test_amounts_in_every_currency_writing():
    assert amounts("your share for dinner at Bapsang: PKR 1,639 🙏") == {163900}
    assert amounts("F\u202fCFA7,339 for dinner at Byblos Kitchen whenever 🙂") == {733900}
    assert amounts("Abendessen im Hue Noodle House waren 571,17 THB pro Person") == {57117}
    assert amounts("your half came to R$ 88,27") == {8827}
    assert amounts("S/ 49.12 when you get a sec") == {4912}
    assert amounts("R 120,50 for you") == {12050}


def test_numbers_that_are_no_money():
    assert amounts("so ready for Meyhane Nar on Saturday! I'll be there at 6:15 PM") == set()
    assert amounts("meet at 8am, the R2 line, table for 3") == set()
