"""The steps long-horizon tasks chain across apps: a machine check of each step's end state, and the action that
performs it through the app's own HTTP routes (for the reference solutions in ``apps/<app>/oracle.py``).

Checks read only rows an app wrote during the episode: every seeded row carries ``world_ref`` (or another seed
marker), rows the apps write do not, so doing nothing fails every check. World values travel in ``params``.
Actions post what the app's pages post, with the persona's cookie of that app (:class:`builder.tasks.oracle.Web`),
and raise :class:`~builder.tasks.oracle.OracleError` when the app does not confirm.
"""

from __future__ import annotations

import urllib.parse

from .model import Change, Check, RubricItem
from .oracle import OracleError, Web

# --- checks --------------------------------------------------------------------------------------

def sql(app: str, query: str, params: list, expected: list[list]) -> Check:
    """A sql check (whitespace of ``query`` folded)."""
    return Check(type="sql", app=app, query=" ".join(query.split()), params=list(params), expected=expected)


def item(rid: str, weight: int, requirement: str, check: Check | None = None) -> RubricItem:
    """A rubric item; without ``check`` it is a judge item."""
    return RubricItem(id=rid, weight=weight, requirement=requirement, check=check)


def diff(app: str, *changes: Change, ignore: tuple[str, ...] = ("sessions",)) -> Check:
    """Only ``changes`` in ``app``'s database (its sign-in sessions aside)."""
    return Check(type="state_diff", app=app, changes=list(changes), ignore=list(ignore))


def _needles(column: str, groups: list[list[str]]) -> tuple[str, list[str]]:
    """SQL requiring, for every group, one of its strings in ``column`` (case-insensitive)."""
    sql_parts, params = [], []
    for group in groups:
        sql_parts.append("(" + " OR ".join(f"instr(lower({column}), lower(?)) > 0" for _ in group) + ")")
        params += group
    return "".join(f" AND {p}" for p in sql_parts), params


def parley_direct(contact: str, groups: list[list[str]] = ()) -> Check:
    """A text the persona sent in Parley to ``contact`` (one-to-one), holding one string of each group."""
    more, params = _needles("m.body", list(groups))
    return sql("messaging", f"""SELECT COUNT(*) > 0 FROM messages m JOIN conversations c ON c.id = m.conversation_id
                                WHERE c.kind = 'direct' AND c.contact_id = (SELECT id FROM contacts WHERE name = ?)
                                AND m.sender_id IS NULL AND m.world_ref IS NULL{more}""", [contact, *params], [[1]])


def parley_group(members: list[str], groups: list[list[str]] = ()) -> Check:
    """A Parley group the persona started with exactly ``members``, with a text from the persona in it."""
    more, params = _needles("m.body", list(groups))
    marks = ", ".join("?" for _ in members)
    return sql("messaging", f"""SELECT COUNT(*) > 0 FROM conversations c WHERE c.kind = 'group' AND c.world_ref IS NULL
                                AND (SELECT COUNT(*) FROM members b WHERE b.conversation_id = c.id) = ?
                                AND (SELECT COUNT(*) FROM members b JOIN contacts k ON k.id = b.contact_id
                                     WHERE b.conversation_id = c.id AND k.name IN ({marks})) = ?
                                AND EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id
                                            AND m.sender_id IS NULL AND m.world_ref IS NULL{more})""",
               [len(members), *members, len(members), *params], [[1]])


def parley_only(min_sent: int, max_sent: int | None = None, *, groups: int = 0) -> Check:
    """Parley changed only by the persona's texts (at least ``min_sent`` rows with the replies they draw), reads,
    conversations opened and ``groups`` new groups with their members."""
    changes = [Change(table="messages", op="insert", min=min_sent, max=max_sent),
               Change(table="messages", op="update", min=0, columns=["read_at"]),
               Change(table="conversations", op="insert", min=groups, max=groups + 4)]
    if groups:
        changes.append(Change(table="members", op="insert", min=2 * groups))
    return diff("messaging", *changes)


def mail_sent(to_email: str, groups: list[list[str]] = ()) -> Check:
    """A mail the persona sent from Mailbox to ``to_email``, whose subject or body holds one string of each group."""
    more, params = _needles("coalesce(subject, '') || ' ' || coalesce(body, '')", list(groups))
    return sql("mail", f"""SELECT COUNT(*) > 0 FROM messages WHERE world_ref IS NULL AND origin = 'app'
                           AND folder = 'sent' AND instr(lower(to_json), lower(?)) > 0{more}""",
               [to_email, *params], [[1]])


def calendar_new(day: str, groups: list[list[str]], calendar: str | None = None) -> Check:
    """A Daybook event the persona created starting on ``day`` (local ``YYYY-MM-DD`` or a longer prefix of the local
    start), whose title holds one string of each group."""
    more, params = _needles("title", groups)
    cal = " AND calendar_id = ?" if calendar else ""
    return sql("calendar", f"""SELECT COUNT(*) > 0 FROM events WHERE world_ref IS NULL
                               AND substr(start_local, 1, ?) = ?{cal}{more}""",
               [len(day), day, *([calendar] if calendar else []), *params], [[1]])


def bank_sent(contact: str, cents: int) -> Check:
    """A payment of ``cents`` from checking to ``contact`` made in the bank."""
    return sql("bank", """SELECT COUNT(*) FROM transactions WHERE world_ref IS NULL
                          AND account_id = (SELECT id FROM accounts WHERE kind = 'checking') AND amount_cents = ?
                          AND (counterparty = ? OR instr(upper(description), upper(?)) > 0)""",
               [-cents, contact, contact], [[1]])


def ride_booked(pickup: str, dropoff: str, lo: str, hi: str) -> Check:
    """A scheduled ZipRide from ``pickup`` to ``dropoff`` (a place's address, or ``Home``) picked up between ``lo``
    and ``hi`` (local ISO with offset, as the rides table keeps them)."""
    def side(alias: str, value: str) -> str:
        return f"{alias}.kind = 'home'" if value == "Home" else f"{alias}.address = ?"
    params = [v for v in (pickup, dropoff) if v != "Home"]
    return sql("rides", f"""SELECT COUNT(*) > 0 FROM rides r JOIN places a ON a.id = r.pickup_place_id
                            JOIN places b ON b.id = r.dropoff_place_id WHERE r.world_ref IS NULL
                            AND r.status = 'scheduled' AND {side('a', pickup)} AND {side('b', dropoff)}
                            AND r.pickup_at BETWEEN ? AND ?""", [*params, lo, hi], [[1]])


def huddle_post(channel: str, groups: list[list[str]] = ()) -> Check:
    """A Huddle message the persona posted in ``channel`` holding one string of each group."""
    more, params = _needles("text", list(groups))
    return sql("workchat", f"""SELECT COUNT(*) > 0 FROM messages WHERE world_ref IS NULL AND deleted = 0
                               AND sender_id = (SELECT id FROM people WHERE is_me = 1)
                               AND channel_id = (SELECT id FROM channels WHERE name = ?){more}""",
               [channel, *params], [[1]])


def huddle_status(text_forms: list[str], until: str) -> Check:
    """The persona's Huddle status says one of ``text_forms`` and clears on ``until`` (a local date)."""
    marks = " OR ".join("instr(lower(status_text), lower(?)) > 0" for _ in text_forms)
    return sql("workchat", f"""SELECT COUNT(*) FROM users WHERE status_set_at IS NOT NULL AND ({marks})
                               AND substr(status_expires_at, 1, 10) = ?""", [*text_forms, until], [[1]])


# --- actions -------------------------------------------------------------------------------------

def _query(location: str) -> dict[str, list[str]]:
    return urllib.parse.parse_qs(urllib.parse.urlsplit(location).query)


def parley_conversation(web: Web, contact: str) -> int:
    """The one-to-one Parley conversation with ``contact`` (opened as the contact page's button does when none)."""
    rows = web.query("messaging", "SELECT c.id FROM conversations c JOIN contacts k ON k.id = c.contact_id "
                                  "WHERE c.kind = 'direct' AND k.name = ? ORDER BY c.id LIMIT 1", (contact,))
    if rows:
        return rows[0][0]
    cid = web.one("messaging", "SELECT id FROM contacts WHERE name = ?", (contact,))
    _, location = web.post_form("messaging", "/api/direct", [("contact", str(cid))], expect=(303,))
    if "/c/" not in location:
        raise OracleError(f"Parley opened no conversation with {contact}: {location!r}")
    return int(location.split("/c/")[1].split("?")[0].split("#")[0])


def parley_send(web: Web, contact: str, text: str) -> None:
    """Text ``contact`` in Parley."""
    conv = parley_conversation(web, contact)
    _, location = web.post_form("messaging", "/api/messages", [("conversation", str(conv)), ("body", text)],
                                expect=(303,))
    if "error=" in location:
        raise OracleError(f"Parley refused the text to {contact}: {location!r}")


def parley_group_send(web: Web, title: str, members: list[str], text: str) -> None:
    """Start a Parley group ``title`` with ``members`` and post ``text`` in it."""
    ids = [str(web.one("messaging", "SELECT id FROM contacts WHERE name = ?", (m,))) for m in members]
    _, location = web.post_form("messaging", "/api/groups", [("title", title), *[("member", i) for i in ids]],
                                expect=(303,))
    if "/c/" not in location or "error=" in location:
        raise OracleError(f"Parley did not create the group: {location!r}")
    conv = location.split("/c/")[1].split("?")[0].split("#")[0]
    web.post_form("messaging", "/api/messages", [("conversation", conv), ("body", text)], expect=(303,))


def mail_send(web: Web, to: str, subject: str, body: str, *, reply_to: int | None = None) -> None:
    """Send a mail from Mailbox (a reply to the mail with row id ``reply_to`` when given)."""
    fields = [("action", "send"), ("cc", ""), ("to", to), ("subject", subject), ("body", body)]
    if reply_to is not None:
        fields += [("mode", "reply"), ("reply_to", str(reply_to))]
    _, location = web.post_form("mail", "/api/compose", fields, expect=(303,))
    if "error" in _query(location) or "notice" not in _query(location):
        raise OracleError(f"Mailbox did not send {subject!r}: {location!r}")


def calendar_create(web: Web, **fields: str) -> None:
    """Create a Daybook event with the new-event form's fields (``title``, ``date``, ``start_time``...)."""
    form = {"title": "", "date": "", "start_time": "", "end_date": "", "end_time": "", "all_day": "", "timezone": "",
            "calendar": "personal", "location": "", "description": "", "repeat": "none", "reminder": "", **fields}
    _, location = web.post_form("calendar", "/api/events", list(form.items()), expect=(303,))
    if _query(location).get("notice") != ["created"]:
        raise OracleError(f"Daybook did not create {fields.get('title')!r}: {location!r}")


def bank_post(web: Web, path: str, fields: list[tuple[str, str]]) -> None:
    """A Larkspur Bank form (``/api/send``, ``/api/transfer``, ``/api/bills``) that must answer ``done=``."""
    _, location = web.post_form("bank", path, fields, expect=(303,))
    if "done" not in _query(location):
        raise OracleError(f"Larkspur Bank refused {path}: {location!r}")


def bank_account(web: Web, kind: str) -> str:
    return str(web.one("bank", "SELECT id FROM accounts WHERE kind = ?", (kind,)))


def bank_send(web: Web, contact: str, cents: int, memo: str) -> None:
    """Send ``contact`` ``cents`` from checking with ``memo``."""
    who = web.one("bank", "SELECT id FROM contacts WHERE name = ?", (contact,))
    bank_post(web, "/api/send", [("contact", str(who)), ("from", bank_account(web, "checking")),
                                 ("amount", f"{cents / 100:.2f}"), ("memo", memo)])


def ride_schedule(web: Web, pickup: str, dropoff: str, at: str) -> None:
    """Schedule a Zip ride from ``pickup`` to ``dropoff`` (labels or addresses) at local ``YYYY-MM-DDTHH:MM``."""
    card = web.one("rides", "SELECT id FROM cards ORDER BY is_default DESC, id LIMIT 1")
    fields = [("pickup", pickup), ("dropoff", dropoff), ("ride_type", "zip"), ("when", "later"), ("at", at[:16]),
              ("card", str(card)), ("purpose", "personal")]
    _, location = web.post_form("rides", "/api/rides", fields, expect=(303,))
    if "/rides/" not in location or "error=" in location:
        raise OracleError(f"ZipRide did not schedule the ride: {location!r}")


def huddle_post_message(web: Web, channel: str, text: str) -> None:
    """Post ``text`` in Huddle's ``channel``."""
    _, location = web.post_form("workchat", "/api/messages", [("channel", channel), ("text", text), ("thread", "")],
                                expect=(303,))
    if "posted=" not in location:
        raise OracleError(f"Huddle did not post in {channel}: {location!r}")


def huddle_set_status(web: Web, emoji: str, text: str, until: str) -> None:
    """Set the Huddle status, clearing at the end of ``until`` (a local date)."""
    _, location = web.post_form("workchat", "/api/status", [("emoji", emoji), ("text", text), ("clear", "date"),
                                                            ("date", until)], expect=(303,))
    if "error" in _query(location):
        raise OracleError(f"Huddle did not set the status: {location!r}")


def shop_order(web: Web, sku: str, qty: int, card_last4: str) -> str:
    """Order ``qty`` of ``sku`` on Shopwell to the home address with the card ending ``card_last4``; the order number."""
    _, location = web.post_form("shop", "/api/cart", [("action", "add"), ("sku", sku), ("qty", str(qty))],
                                expect=(303,))
    if "error" in _query(location):
        raise OracleError(f"Shopwell did not add {sku}: {location!r}")
    card = web.one("shop", "SELECT id FROM cards WHERE last4 = ?", (card_last4,))
    address = web.one("shop", "SELECT id FROM addresses ORDER BY is_default DESC, id LIMIT 1")
    _, location = web.post_form("shop", "/api/orders", [("address", str(address)), ("card", str(card))],
                                expect=(303,))
    if "placed=1" not in location:
        raise OracleError(f"Shopwell did not place the order: {location!r}")
    return web.one("shop", "SELECT order_number FROM orders WHERE world_ref IS NULL ORDER BY id DESC LIMIT 1")


def dining_book(web: Web, slug: str, day: str, time: str, party: int, request: str = "") -> str:
    """Book a TableTime table; the confirmation code."""
    _, location = web.post_form("dining", "/api/reservations", [("r", slug), ("date", day), ("time", time),
                                                                ("party", str(party)), ("request", request)])
    if "done=booked" not in location:
        raise OracleError(f"TableTime did not book {slug}: {location!r}")
    return web.one("dining", "SELECT confirmation FROM reservations WHERE world_ref IS NULL ORDER BY id DESC LIMIT 1")


# --- world facts the chains share --------------------------------------------------------------------

def planted(world, pid: str) -> dict | None:
    """The world's planted item ``pid`` (``world/planted.json``), or None."""
    return next((x for x in world.planted if x.get("id") == pid), None)


def street_address(contact) -> str | None:
    """A contact's address as the apps' places hold it ("7520 Sunset Drive, Portland, OR 97234")."""
    a = getattr(contact, "address", None)
    if not a or not a.street:
        return None
    return f"{a.street}, {a.city}, {a.region} {a.postal_code}".strip()


def gift(slug_part: str) -> dict | None:
    """The first giftable Shopwell catalogue product whose slug holds ``slug_part``: ``{sku, title, variant,
    price_cents}`` of its first variant (the catalogue is fixed data, so the pick is stable)."""
    from builder.world import retail

    for x in sorted(retail.catalogue(), key=lambda x: x["id"]):
        if x.get("gift") and slug_part in x["slug"]:
            v = x["variants"][0]
            label = v["label"].get("en") if isinstance(v["label"], dict) else v["label"]
            return {"sku": v["sku"], "title": x["title"]["en_US"], "variant": label or "", "price_cents": v["price_usd"]}
    return None


def shop_bought(sku: str, card_last4: str) -> Check:
    """A Shopwell order the persona placed holding ``sku``, paid with the card ending ``card_last4``."""
    return sql("shop", """SELECT COUNT(*) > 0 FROM orders o JOIN order_items i ON i.order_id = o.id
                          JOIN cards c ON c.id = o.card_id WHERE o.world_ref IS NULL AND i.sku = ? AND c.last4 = ?""",
               [sku, card_last4], [[1]])


def card_charged(app: str, n: int = 1) -> Check:
    """``n`` card charges from ``app`` reached the bank."""
    return sql("bank", "SELECT COUNT(*) >= ? FROM card_authorizations WHERE app = ? AND kind = 'charge'", [n, app],
               [[1]])


def restaurants_by_visits(world, with_: set[str] | None = None) -> list[dict]:
    """TableTime restaurants the persona booked (with any of ``with_`` among the companions, when given), most
    booked first (ties by name): ``{slug, name, address, visits}``."""
    from collections import Counter

    from builder.world.dining import catalogue

    slugs = {(x["name"], x["address"]): x["slug"] for x in catalogue()}
    seen = Counter((e.data["restaurant"], e.data["address"]) for e in world.of_kind("restaurant_booking")
                   if e.data.get("provider") == "TableTime" and (with_ is None or with_ & set(e.data.get("companions") or ())))
    return [{"slug": slugs[k], "name": k[0], "address": k[1], "visits": n}
            for k, n in sorted(seen.items(), key=lambda kv: (-kv[1], kv[0])) if k in slugs]


def dining_booked(slug: str, day: str, time: str, party: int) -> Check:
    """A TableTime reservation the persona made at ``slug`` on ``day`` at ``time`` for ``party``."""
    return sql("dining", """SELECT COUNT(*) FROM reservations v JOIN restaurants r ON r.id = v.restaurant_id
                            WHERE v.world_ref IS NULL AND v.status = 'booked' AND r.slug = ? AND v.day = ?
                            AND v.time = ? AND v.party_size = ?""", [slug, day, time, party], [[1]])


def dining_only() -> Check:
    """TableTime changed only by one new reservation (and its table holds)."""
    return diff("dining", Change(table="reservations", op="insert", min=1, max=1),
                Change(table="table_holds", op="delete", min=0), Change(table="table_holds", op="insert", min=0))


def calendar_from_mail(web: Web, filename_part: str) -> None:
    """Add the newest .ics attachment of a mail the apps sent (name holding ``filename_part``) to Daybook, as the
    mail's "Add to Daybook" button does."""
    att = web.one("mail", "SELECT a.id FROM attachments a JOIN messages m ON m.id = a.message_id WHERE m.world_ref IS NULL "
                          "AND a.filename LIKE '%.ics' AND instr(a.filename, ?) > 0 ORDER BY a.id DESC LIMIT 1",
                  (filename_part,))
    _, location = web.post_form("mail", "/api/calendar-add", [("attachment", str(att)), ("back", "/")], expect=(303,))
    if "Daybook" not in urllib.parse.unquote_plus(location):
        raise OracleError(f"Mailbox did not add the event to Daybook: {location!r}")
