import { callApp } from "@persona/platform/internal";
import { icsAttachment, icsUid, type IcsCalendar } from "@persona/platform/ics";
import { serviceDomain } from "@persona/platform/services";
import { chargeCard, PaymentDeclined, refundCard } from "@persona/platform/payments";
import { db } from "./db";
import type { AirContext } from "./context";
import { money } from "./context";
import type { User } from "./auth";
import {
  AirError, aircraftOf, assignSeats, bcbpName, bookingByPnr, cards, checkinWindow, family, flightDate, fnv, isInternational,
  optionByKey, passengersOf, priceSplit, seatExists, seatsOf, segmentsOf, takenSeats, tripStatus, type Booking,
  type Option, type Segment,
} from "./air";
import { awareIso, clockZone, day, instant } from "./time";

const PNR_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

function segmentOf(b: Booking, segmentId: number): Segment {
  const seg = segmentsOf(b.id).find((s) => s.id === segmentId);
  if (!seg) throw new AirError("That flight is not part of this trip.", "segment");
  return seg;
}

function requireUpcoming(ctx: AirContext, b: Booking): void {
  const status = tripStatus(ctx, b, segmentsOf(b.id));
  if (status === "cancelled") throw new AirError("This trip was cancelled.");
  if (status === "past") throw new AirError("This trip has already been flown.");
}

/** Move passenger `passengerId` of `pnr` to `seat` on segment `segmentId`. Refuses an unknown seat, a taken one,
 * a flight that has left or is checked in (seat changes after check-in happen at the gate). */
export function changeSeat(ctx: AirContext, user: User, pnr: string, segmentId: number, passengerId: number, seatIn: string): string {
  const b = bookingByPnr(user.id, pnr);
  requireUpcoming(ctx, b);
  const seg = segmentOf(b, segmentId);
  if (instant(seg.dep_utc) <= ctx.nowMs) throw new AirError("This flight has already left.");
  const seat = seatIn.trim().toUpperCase();
  const fam = family(b.fare_family);
  const ac = aircraftOf(seg.aircraft);
  if (!seatExists(ac, fam.cabin, seat)) throw new AirError(`Seat ${seatIn.slice(0, 8)} does not exist in the ${fam.cabin} cabin of this ${seg.aircraft}.`, "seat");
  const rows = seatsOf(seg.id);
  const mine = rows.find((r) => r.passenger_id === passengerId);
  if (!mine) throw new AirError("That traveller is not on this flight.", "passenger");
  if (mine.seat === seat) return seat;
  if (rows.some((r) => r.seat === seat)) throw new AirError(`Seat ${seat} is already held by a traveller on this trip.`, "seat");
  if (takenSeats(ctx, ac, seg.flight_number, flightDate(seg.dep_local), seg.id).has(seat)) throw new AirError(`Seat ${seat} is already taken.`, "seat");
  db().prepare("UPDATE seats SET seat = ?, changed_at = ? WHERE id = ?").run(seat, ctx.now, mine.id);
  return seat;
}

/** Check every traveller of `pnr` in for the journey (direction) of segment `segmentId`: inside the window
 * (24 h to 45 min before the first leg leaves), each seat gets a sequence number; the boarding group is the segment's. */
export function checkIn(ctx: AirContext, user: User, pnr: string, segmentId: number): Segment[] {
  const b = bookingByPnr(user.id, pnr);
  if (b.status === "cancelled") throw new AirError("This trip was cancelled.");
  const seg = segmentOf(b, segmentId);
  const journey = segmentsOf(b.id).filter((s) => s.direction === seg.direction);
  const w = checkinWindow(ctx, journey[0]);
  if (!w.open) {
    const tz = tzOf(journey[0].origin);
    const opens = awareIso(w.opensMs, tz);
    const when = w.opensMs > ctx.nowMs ? ` Check-in for ${journey[0].flight_number} opens ${day(opens, ctx.locale)} at ${clockZone(opens, tz, ctx.locale)}.` : "";
    throw new AirError(`${w.reason}${when}`);
  }
  const d = db();
  d.transaction(() => {
    for (const s of journey) {
      const done = d.prepare("SELECT COUNT(*) AS n FROM seats t JOIN segments g ON g.id = t.segment_id WHERE g.flight_number = ? AND substr(g.dep_local, 1, 10) = ? AND t.sequence IS NOT NULL").get(s.flight_number, flightDate(s.dep_local)) as { n: number };
      let seq = 20 + (fnv(`${ctx.salt}|checkin|${s.flight_number}|${flightDate(s.dep_local)}`) % 140) + done.n;
      for (const t of seatsOf(s.id)) {
        if (t.sequence != null) continue;
        d.prepare("UPDATE seats SET checked_in_at = ?, sequence = ? WHERE id = ?").run(ctx.now, seq++, t.id);
      }
    }
  })();
  return journey;
}

/** Names a traveller may have: letters (any script), spaces, hyphens, apostrophes, periods; 2-40 characters. */
export function validName(name: string): boolean {
  return /^[\p{L}][\p{L} .'’-]{1,39}$/u.test(name.trim()) && /\p{L}\s*$/u.test(name.trim()) && name.trim().includes(" ");
}

function newPnr(ctx: AirContext, seedText: string): string {
  const exists = db().prepare("SELECT 1 FROM bookings WHERE pnr = ?");
  for (let n = 0; ; n++) {
    let h = fnv(`${ctx.salt}|pnr|${seedText}|${n}`);
    let out = "";
    for (let i = 0; i < 6; i++) {
      out += PNR_ALPHABET[h % 32];
      h = (Math.floor(h / 32) ^ fnv(`${h}|${i}`)) >>> 0;
    }
    if (!exists.get(out)) return out;
  }
}

function newTicket(ctx: AirContext, seedText: string): string {
  const exists = db().prepare("SELECT 1 FROM passengers WHERE ticket_number = ?");
  for (let n = 0; ; n++) {
    const ten = `${fnv(`${ctx.salt}|ticket|${seedText}|${n}`) % 100000}`.padStart(5, "0") + `${fnv(`${seedText}|${n}|t2`) % 100000}`.padStart(5, "0");
    const t = `${ctx.ticketPrefix}${ten}`;
    if (!exists.get(t)) return t;
  }
}

export interface BookRequest {
  origin: string; destination: string; out: string; ret: string | null; family: string; cardId: number; companions: string[];
  /** Pay with the user's travel credit first (the card pays the rest). */
  useCredit?: boolean;
}

/** The user's unused travel credit in cents (credits issued minus credits applied). */
export function creditAvailable(userId: number): number {
  return (db().prepare("SELECT COALESCE(SUM(amount_cents), 0) AS n FROM travel_credits WHERE user_id = ?").get(userId) as { n: number }).n;
}

/** A leg as the confirmation mail and its calendar file describe it; `ref` names the calendar entry: the
 * world's flight event id for a seeded leg, `<PNR>-<position>` for a leg booked here (stable across changes). */
interface MailLeg { flight: string; origin: string; destination: string; dep_utc: string; arr_utc: string; dep_local: string; arr_local: string; ref: string; seat?: string }

const AIR_HOST = "meridianair.test";

/** The calendar file of a trip (one VEVENT per leg, UTC times, METHOD:PUBLISH), written like the world's booking
 * .ics: UID `<ref>@meridianair.test`, title "Flight MR 123 PDX → LIS", location "PDX airport", the code and seat
 * in the description (German words for a de persona, as the world's calendar writes them). */
function tripCalendar(ctx: AirContext, pnr: string, legs: MailLeg[], sequence = 0): IcsCalendar {
  const de = ctx.locale.startsWith("de");
  return {
    prodid: `-//${ctx.airline}//Trips//EN`,
    stamp: new Date(ctx.nowMs).toISOString(),
    method: "PUBLISH",
    events: legs.map((l) => ({
      uid: icsUid(l.ref, AIR_HOST),
      start: l.dep_utc,
      end: l.arr_utc,
      summary: `${de ? "Flug" : "Flight"} ${l.flight} ${l.origin} → ${l.destination}`,
      location: de ? `Flughafen ${l.origin}` : `${l.origin} airport`,
      description: [de ? `Buchungscode ${pnr}` : `Confirmation ${pnr}`, l.seat ? (de ? `Sitzplatz ${l.seat}` : `Seat ${l.seat}`) : ""].filter(Boolean).join("\n"),
      sequence,
    })),
  };
}

/** The legs of a booking as they stand in the database (for the change and cancel mails). */
function mailLegs(bookingId: number, pnr: string, direction?: string): MailLeg[] {
  const rows = db().prepare(`SELECT g.*, (SELECT t.seat FROM seats t JOIN passengers p ON p.id = t.passenger_id WHERE t.segment_id = g.id AND p.position = 0) AS my_seat
    FROM segments g WHERE g.booking_id = ? ORDER BY g.position`).all(bookingId) as (Segment & { world_ref: string | null; my_seat: string | null })[];
  return rows.filter((g) => !direction || g.direction === direction).map((g) => ({
    flight: g.flight_number, origin: g.origin, destination: g.destination, dep_utc: g.dep_utc, arr_utc: g.arr_utc, dep_local: g.dep_local, arr_local: g.arr_local,
    ref: g.world_ref ?? `${pnr}-${g.position + 1}`, seat: g.my_seat ?? undefined,
  }));
}

/** Mail the persona through the mail app's internal deliver route (best effort: a missing mail app leaves the booking
 * as it is). `calendar` attaches `<PNR>.ics`. */
async function mail(ctx: AirContext, user: User, subject: string, body: string, calendar?: { pnr: string; cal: IcsCalendar }): Promise<void> {
  const attachments = calendar ? [icsAttachment(`${calendar.pnr}.ics`, calendar.cal)] : [];
  const mailHost = serviceDomain("mail-delivery");
  if (!mailHost) return;
  try {
    await callApp(mailHost, "/api/internal/deliver", {
      from: { name: ctx.airline, email: "reservations@meridianair.test" }, to: [user.email], subject, body, folder: "inbox", attachments,
    }, 5000);
  } catch {
    /* the mail app is not on this machine, or refused: the booking stands */
  }
}

/** The itinerary block of a mail, as the world's confirmation writes it: flight, route, departs/arrives in local times. */
function itineraryText(ctx: AirContext, legs: { flight: string; origin: string; destination: string; dep_local: string; arr_local: string }[]): string {
  return legs.map((l) => `${l.flight}   ${l.origin} → ${l.destination}\n  Departs  ${day(l.dep_local, ctx.locale)}, ${clockZone(l.dep_local, tzOf(l.origin), ctx.locale)}\n  Arrives  ${day(l.arr_local, ctx.locale)}, ${clockZone(l.arr_local, tzOf(l.destination), ctx.locale)}`).join("\n\n");
}

function tzOf(code: string): string {
  return (db().prepare("SELECT timezone FROM airports WHERE code = ?").get(code) as { timezone: string } | undefined)?.timezone ?? "UTC";
}

/** Book the options `out` (and `ret`) for the user and companions in a fare family, paying with a saved card:
 * validate, charge the card (the bank shows it pending at once), then write the booking in one transaction.
 * Returns the new PNR. Throws AirError (nothing charged or written) or PaymentDeclined (nothing written). */
export async function book(ctx: AirContext, user: User, req: BookRequest): Promise<string> {
  const fam = db().prepare("SELECT * FROM fare_families WHERE code = ?").get(req.family) as ReturnType<typeof family> | undefined;
  if (!fam) throw new AirError("Choose a fare.", "family");
  const card = cards(user.id).find((c) => c.id === req.cardId);
  if (!card) throw new AirError("Choose one of your saved cards.", "card");
  if (req.companions.length > 5) throw new AirError("Book up to six travellers at a time.", "companions");
  for (const n of req.companions) if (!validName(n)) throw new AirError("Enter each traveller's first and last name as on their ID (letters, spaces, hyphens and apostrophes only).", "companions");
  const outOpt = optionByKey(ctx, req.origin, req.destination, req.out);
  const retOpt: Option | null = req.ret ? optionByKey(ctx, req.destination, req.origin, req.ret) : null;
  if (retOpt && instant(retOpt.legs[0].dep_utc) < instant(outOpt.legs[outOpt.legs.length - 1].arr_utc) + 60 * 60_000) throw new AirError("The return flight must leave after the outbound one lands.", "ret");
  const pax = 1 + req.companions.length;
  for (const opt of [outOpt, retOpt]) {
    if (!opt) continue;
    if ((fam.cabin === "business" ? opt.seatsBusiness : opt.seatsEconomy) < pax) throw new AirError("There are not enough seats left on that flight in this cabin.");
  }
  const fare = outOpt.fares[fam.code] + (retOpt ? retOpt.fares[fam.code] : 0);
  const legs = [...outOpt.legs.map((l) => ({ ...l, direction: "outbound" })), ...(retOpt?.legs ?? []).map((l) => ({ ...l, direction: "return" }))];
  const codes = [outOpt.legs[0].origin, ...outOpt.legs.map((l) => l.destination)];
  const split = priceSplit(fare, legs.length, isInternational(codes));
  const total = fare * pax;
  const count = (db().prepare("SELECT COUNT(*) AS n FROM bookings").get() as { n: number }).n;
  const pnr = newPnr(ctx, `${count}|${req.out}|${req.ret ?? ""}`);
  const myName = (db().prepare("SELECT p.bcbp_name FROM passengers p JOIN bookings b ON b.id = p.booking_id WHERE b.user_id = ? AND p.position = 0 ORDER BY b.id DESC LIMIT 1").get(user.id) as { bcbp_name: string } | undefined)?.bcbp_name ?? bcbpName(user.full_name);
  const names = [user.full_name, ...req.companions.map((n) => n.trim().replace(/\s+/g, " "))];
  const tickets = names.map((_, k) => newTicket(ctx, `${pnr}|${k}`));
  const seatPlan = legs.map((l) => assignSeats(ctx, l.aircraft, l.flight, flightDate(l.dep_local), fam.cabin, pax, user.seat_preference));
  const dest = (db().prepare("SELECT city FROM airports WHERE code = ?").get(req.destination) as { city: string }).city;
  const used = req.useCredit ? Math.max(0, Math.min(creditAvailable(user.id), total)) : 0;
  const charge = total - used;
  const auth = charge > 0 ? await chargeCard({
    app: "airline", merchant: `${ctx.airline.toUpperCase()} ${tickets[0]}`, amount_cents: charge, card_last4: card.last4, reference: pnr,
    category: "travel", memo: `${pax} passenger${pax > 1 ? "s" : ""}, ${req.origin}-${req.destination}${retOpt ? `-${req.origin}` : ""}`,
  }) : null;
  const d = db();
  d.transaction(() => {
    const bid = Number(d.prepare(`INSERT INTO bookings (user_id, pnr, status, fare_family, destination, trip_type, passengers, fare_per_passenger_cents,
      base_fare_cents, taxes_cents, carrier_fees_cents, total_cents, card_id, booked_at, credit_cents, refund_cents, authorization, world_ref)
      VALUES (?, ?, 'upcoming', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, ?, NULL)`).run(
      user.id, pnr, fam.code, dest, retOpt ? "round_trip" : "one_way", pax, fare, split.base_fare_cents, split.taxes_cents, split.carrier_fees_cents,
      total, card.id, ctx.now, auth?.authorization ?? null).lastInsertRowid);
    if (auth) d.prepare("INSERT INTO payments (booking_id, kind, amount_cents, card_id, reference, authorization, description, at, world_ref) VALUES (?, 'charge', ?, ?, ?, ?, ?, ?, NULL)")
      .run(bid, charge, card.id, pnr, auth.authorization, `${ctx.airline.toUpperCase()} ${tickets[0]}`, ctx.now);
    if (used > 0) d.prepare("INSERT INTO travel_credits (user_id, booking_id, amount_cents, issued_at, expires_on, reason) VALUES (?, ?, ?, ?, ?, ?)")
      .run(user.id, bid, -used, ctx.now, ctx.now.slice(0, 10), `Applied to trip ${pnr}`);
    const paxIds = names.map((n, k) => {
      const [given, ...rest] = n.split(" ");
      const surname = rest.length ? rest[rest.length - 1] : n;
      return Number(d.prepare("INSERT INTO passengers (booking_id, position, full_name, given_name, surname, ticket_number, loyalty_number, bcbp_name, world_ref) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL)")
        .run(bid, k, n, k === 0 ? user.given_name : rest.length > 1 ? [given, ...rest.slice(0, -1)].join(" ") : given, k === 0 ? user.surname : surname, tickets[k], k === 0 ? user.username : null, k === 0 ? myName : bcbpName(n)).lastInsertRowid);
    });
    legs.forEach((l, pos) => {
      const leg = legs.slice(0, pos + 1).filter((x) => x.direction === l.direction).length;
      const sid = Number(d.prepare(`INSERT INTO segments (booking_id, position, direction, leg, flight_number, origin, destination, dep_local, arr_local, dep_utc, arr_utc,
        duration_minutes, distance_miles, aircraft, gate, boarding_group, status, world_ref) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, 'scheduled', NULL)`).run(
        bid, pos, l.direction, leg, l.flight, l.origin, l.destination, l.dep_local, l.arr_local, l.dep_utc, l.arr_utc, l.minutes,
        Math.max(500, Math.round(l.km / 1.609344)), l.aircraft, fam.cabin === "business" ? 1 : 2).lastInsertRowid);
      paxIds.forEach((p, k) => d.prepare("INSERT INTO seats (segment_id, passenger_id, seat, checked_in_at, sequence, changed_at, world_ref) VALUES (?, ?, ?, NULL, NULL, NULL, NULL)").run(sid, p, seatPlan[pos][k]));
    });
  })();
  const bid = (d.prepare("SELECT id FROM bookings WHERE pnr = ?").get(pnr) as { id: number }).id;
  await mail(ctx, user, `Booking confirmed: ${req.origin} to ${dest} - confirmation ${pnr}`,
    `Hi ${user.given_name},\n\nThank you for flying ${ctx.airline}. Your booking is confirmed and your e-tickets have been issued.\n\nConfirmation code (PNR): ${pnr}\nPassengers: ${names.join(", ")}\nFare: ${fam.name}\n\nYOUR ITINERARY\n\n${itineraryText(ctx, legs)}\n\nAll times are local to each airport.\n\nTicket number${tickets.length > 1 ? "s" : ""}: ${tickets.join(", ")}\n${ctx.airline} Miles: ${user.username}\nTotal: ${money(ctx, total)}${used ? `\nTravel credit applied: ${money(ctx, used)}` : ""}\nTotal charged to ${card.label}: ${money(ctx, charge)}\n\nManage your booking, choose seats or add bags: http://${AIR_HOST}/trips/${pnr}\n\nCheck-in opens 24 hours before departure.\n\n${ctx.airline}`,
    { pnr, cal: tripCalendar(ctx, pnr, mailLegs(bid, pnr)) });
  return pnr;
}

/** Move the journey `direction` of `pnr` to option `key` (same route): the fare difference for every traveller is
 * charged to the booking's card, or (cheaper) left as travel credit (refunded for refundable fares). Basic Economy
 * cannot be changed. Seats are reassigned and check-in reset on the new flights. Returns the difference in cents. */
export async function changeFlight(ctx: AirContext, user: User, pnr: string, direction: string, key: string): Promise<number> {
  const b = bookingByPnr(user.id, pnr);
  requireUpcoming(ctx, b);
  const fam = family(b.fare_family);
  if (!fam.changeable) throw new AirError("Basic Economy fares can't be changed.");
  const segs = segmentsOf(b.id);
  const journey = segs.filter((s) => s.direction === direction);
  if (!journey.length) throw new AirError("Choose the outbound or the return flight to change.", "direction");
  if (instant(journey[0].dep_utc) <= ctx.nowMs) throw new AirError("That flight has already left.");
  const opt = optionByKey(ctx, journey[0].origin, journey[journey.length - 1].destination, key);
  if (opt.legs.length !== journey.length) throw new AirError("That flight is not on this route.");
  if (opt.legs.every((l, i) => l.flight === journey[i].flight_number && l.dep_utc === journey[i].dep_utc)) throw new AirError("You are already on that flight.");
  const other = segs.filter((s) => s.direction !== direction);
  if (direction === "outbound" && other.length && instant(opt.legs[opt.legs.length - 1].arr_utc) + 60 * 60_000 > instant(other[0].dep_utc)) throw new AirError("The new flight would land after your return flight leaves.");
  if (direction === "return" && other.length && instant(opt.legs[0].dep_utc) < instant(other[other.length - 1].arr_utc) + 60 * 60_000) throw new AirError("The new return flight would leave before your outbound flight lands.");
  const pax = passengersOf(b.id);
  if ((fam.cabin === "business" ? opt.seatsBusiness : opt.seatsEconomy) < pax.length) throw new AirError("There are not enough seats left on that flight.");
  const oldValue = b.trip_type === "round_trip" ? Math.floor(b.fare_per_passenger_cents / 2) : b.fare_per_passenger_cents;
  const diff = (opt.fares[fam.code] - oldValue) * pax.length;
  const card = cards(user.id).find((c) => c.id === b.card_id) ?? cards(user.id)[0];
  const n = (db().prepare("SELECT COUNT(*) AS n FROM payments WHERE booking_id = ?").get(b.id) as { n: number }).n;
  const reference = `${pnr}-CHG${n}`;
  let authorization: string | null = null;
  if (diff > 0) authorization = (await chargeCard({ app: "airline", merchant: `${ctx.airline.toUpperCase()} ${pax[0].ticket_number}`, amount_cents: diff, card_last4: card.last4, reference, category: "travel", memo: `Flight change ${pnr}` })).authorization;
  else if (diff < 0 && fam.cancel === "refund") authorization = (await refundCard({ app: "airline", merchant: `${ctx.airline.toUpperCase()} ${pax[0].ticket_number}`, amount_cents: -diff, card_last4: card.last4, reference, category: "travel", memo: `Flight change ${pnr}` })).authorization;
  const seatPlan = opt.legs.map((l) => assignSeats(ctx, l.aircraft, l.flight, flightDate(l.dep_local), fam.cabin, pax.length, user.seat_preference));
  const d = db();
  d.transaction(() => {
    opt.legs.forEach((l, i) => {
      const s = journey[i];
      d.prepare(`UPDATE segments SET flight_number = ?, dep_local = ?, arr_local = ?, dep_utc = ?, arr_utc = ?, duration_minutes = ?, aircraft = ?, gate = NULL WHERE id = ?`)
        .run(l.flight, l.dep_local, l.arr_local, l.dep_utc, l.arr_utc, l.minutes, l.aircraft, s.id);
      seatsOf(s.id).forEach((t, k) => d.prepare("UPDATE seats SET seat = ?, checked_in_at = NULL, sequence = NULL, changed_at = ? WHERE id = ?").run(seatPlan[i][k], ctx.now, t.id));
    });
    d.prepare("UPDATE bookings SET changed_at = ?, total_cents = total_cents + ? WHERE id = ?").run(ctx.now, diff > 0 ? diff : fam.cancel === "refund" ? diff : 0, b.id);
    if (diff !== 0 && (diff > 0 || fam.cancel === "refund")) {
      d.prepare("INSERT INTO payments (booking_id, kind, amount_cents, card_id, reference, authorization, description, at, world_ref) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL)")
        .run(b.id, diff > 0 ? "charge" : "refund", Math.abs(diff), card.id, reference, authorization, `Flight change ${pnr}`, ctx.now);
    } else if (diff < 0) {
      d.prepare("INSERT INTO travel_credits (user_id, booking_id, amount_cents, issued_at, expires_on, reason) VALUES (?, ?, ?, ?, ?, ?)")
        .run(user.id, b.id, -diff, ctx.now, `${Number(ctx.now.slice(0, 4)) + 1}${ctx.now.slice(4, 10)}`, `Fare difference, flight change on ${pnr}`);
    }
  })();
  const money_line = diff > 0 ? `Fare difference charged to ${card.label}: ${money(ctx, diff)}` : diff < 0 ? (fam.cancel === "refund" ? `Fare difference refunded to ${card.label}: ${money(ctx, -diff)}` : `Fare difference kept as travel credit: ${money(ctx, -diff)} (valid for 12 months)`) : "There is no fare difference.";
  const now = mailLegs(b.id, pnr);
  await mail(ctx, user, `Your itinerary has changed - confirmation ${pnr}`,
    `Hi ${user.given_name},\n\nYour ${direction} flight on confirmation ${pnr} has been changed as you asked. Your seats were reassigned on the new flight${opt.legs.length > 1 ? "s" : ""}; if you had checked in, please check in again.\n\nYOUR NEW ${direction.toUpperCase()} FLIGHT${opt.legs.length > 1 ? "S" : ""}\n\n${itineraryText(ctx, now.filter((l) => opt.legs.some((o) => o.flight === l.flight && o.dep_utc === l.dep_utc)))}\n\nAll times are local to each airport.\n\n${money_line}\n\nYour updated trip: http://${AIR_HOST}/trips/${pnr}\n\n${ctx.airline}`,
    { pnr, cal: tripCalendar(ctx, pnr, now, n + 1) });
  return diff;
}

/** What cancelling `b` gives back (cents): nothing on a fare that keeps no value; else what was paid, less what a
 * change to a cheaper flight already left as travel credit on this trip. */
export function cancelValue(b: Booking): number {
  if (family(b.fare_family).cancel === "none") return 0;
  const given = (db().prepare("SELECT COALESCE(SUM(amount_cents), 0) AS n FROM travel_credits WHERE booking_id = ? AND amount_cents > 0 AND reason LIKE 'Fare difference%'").get(b.id) as { n: number }).n;
  return Math.max(0, b.total_cents - given);
}

/** Cancel `pnr` before its first flight: Basic Economy keeps no value; Economy and Economy Flex become travel credit
 * worth what was paid (less any fare difference a change already left as credit); Business is refunded to the card.
 * Returns what the traveller gets back. */
export async function cancelTrip(ctx: AirContext, user: User, pnr: string): Promise<{ kind: "none" | "credit" | "refund"; cents: number }> {
  const b = bookingByPnr(user.id, pnr);
  requireUpcoming(ctx, b);
  const segs = segmentsOf(b.id);
  if (instant(segs[0].dep_utc) <= ctx.nowMs) throw new AirError("Part of this trip has been flown; call us to cancel the rest.");
  const fam = family(b.fare_family);
  const kind = fam.cancel as "none" | "credit" | "refund";
  const cents = cancelValue(b);
  const card = cards(user.id).find((c) => c.id === b.card_id) ?? cards(user.id)[0];
  let authorization: string | null = null;
  if (kind === "refund" && cents > 0) {
    authorization = (await refundCard({ app: "airline", merchant: `${ctx.airline.toUpperCase()} REFUND`, amount_cents: cents, card_last4: card.last4, reference: `${pnr}-CXL`, category: "travel", memo: `Cancelled ${pnr}` })).authorization;
  }
  const d = db();
  d.transaction(() => {
    d.prepare("UPDATE bookings SET status = 'cancelled', cancelled_at = ?, credit_cents = ?, refund_cents = ? WHERE id = ?").run(ctx.now, kind === "credit" ? cents : 0, kind === "refund" ? cents : 0, b.id);
    d.prepare("UPDATE segments SET status = 'cancelled' WHERE booking_id = ?").run(b.id);
    if (kind === "credit") d.prepare("INSERT INTO travel_credits (user_id, booking_id, amount_cents, issued_at, expires_on, reason) VALUES (?, ?, ?, ?, ?, ?)")
      .run(user.id, b.id, cents, ctx.now, `${Number(ctx.now.slice(0, 4)) + 1}${ctx.now.slice(4, 10)}`, `Cancelled trip ${pnr}`);
    if (kind === "refund") d.prepare("INSERT INTO payments (booking_id, kind, amount_cents, card_id, reference, authorization, description, at, world_ref) VALUES (?, 'refund', ?, ?, ?, ?, ?, ?, NULL)")
      .run(b.id, cents, card.id, `${pnr}-CXL`, authorization, `Refund ${pnr}`, ctx.now);
  })();
  const what = kind === "refund" ? `A refund of ${money(ctx, cents)} is on its way to ${card.label}; it may take a few days to appear.`
    : kind === "credit" ? `You have a travel credit of ${money(ctx, cents)}, valid for 12 months, to use on a new ${ctx.airline} booking (choose "Use travel credit" when you pay).`
    : `Your ${fam.name} fare was non-refundable, so no refund or credit was issued.`;
  await mail(ctx, user, `Your trip is cancelled - confirmation ${pnr}`,
    `Hi ${user.given_name},\n\nAs you asked, we have cancelled your trip to ${b.destination} (confirmation ${pnr}).\n\nCANCELLED FLIGHTS\n\n${itineraryText(ctx, segs.map((g) => ({ flight: g.flight_number, origin: g.origin, destination: g.destination, dep_local: g.dep_local, arr_local: g.arr_local })))}\n\n${what}\n\nYour trips: http://${AIR_HOST}/trips/${pnr}\n\nWe hope to welcome you on board again soon.\n${ctx.airline}`);
  return { kind, cents };
}

export { PaymentDeclined };
