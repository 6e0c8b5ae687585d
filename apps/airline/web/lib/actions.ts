import { callApp } from "@persona/platform/internal";
import { icsAttachment, icsUid, type IcsCalendar } from "@persona/platform/ics";
import { serviceDomain } from "@persona/platform/services";
import { chargeCard, PaymentDeclined, refundCard } from "@persona/platform/payments";
import { db } from "./db";
import type { AirContext } from "./context";
import { money } from "./context";
import type { User } from "./auth";
import {
  AirError, aircraftOf, assignSeats, bcbpName, bookingByPnr, cards, checkinWindow, family, familyNamed, familyOf, flightDate, fnv,
  isInternational, journeyFare, journeysOf, optionByKey, passengersOf, priceSplit, seatExists, seatsLeft, seatsOf, segmentsOf, takenSeats,
  tripStatus, type Booking, type Family, type Option, type Segment,
} from "./air";
import { awareIso, clockZone, day, instant } from "./time";

const PNR_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

function segmentOf(b: Booking, segmentId: number | null): Segment {
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
 * a flight that has left or is checked in (seat changes after check-in happen at the gate). Checks and writes in
 * one immediate transaction, so two bookings never get the same seat. */
export function changeSeat(ctx: AirContext, user: User, pnr: string, segmentId: number | null, passengerId: number | null, seatIn: string): string {
  const d = db();
  return d.transaction(() => {
    const b = bookingByPnr(user.id, pnr);
    requireUpcoming(ctx, b);
    const seg = segmentOf(b, segmentId);
    if (instant(seg.dep_utc) <= ctx.nowMs) throw new AirError("This flight has already left.");
    const seat = seatIn.trim().toUpperCase();
    const fam = familyOf(b, seg);
    const ac = aircraftOf(seg.aircraft);
    if (!seatExists(ac, fam.cabin, seat)) throw new AirError(`Seat ${seatIn.trim().slice(0, 8)} does not exist in the ${fam.cabin} cabin of this ${seg.aircraft}.`, "seat");
    const rows = seatsOf(seg.id);
    const mine = rows.find((r) => r.passenger_id === passengerId);
    if (!mine) throw new AirError("That traveller is not on this flight.", "passenger");
    if (mine.seat === seat) return seat;
    if (mine.sequence != null) throw new AirError("You're checked in for this flight: seat changes now happen at the gate.", "seat");
    if (rows.some((r) => r.seat === seat)) throw new AirError(`Seat ${seat} is already held by a traveller on this trip.`, "seat");
    if (takenSeats(ctx, ac, seg.flight_number, flightDate(seg.dep_local), seg.id).has(seat)) throw new AirError(`Seat ${seat} is already taken.`, "seat");
    d.prepare("UPDATE seats SET seat = ?, changed_at = ? WHERE id = ?").run(seat, ctx.now, mine.id);
    return seat;
  }).immediate();
}

/** Check every traveller of `pnr` in for the journey (direction) of segment `segmentId`: inside the window
 * (24 h to 45 min before the first leg leaves), each seat gets a sequence number; the boarding group is the segment's.
 * One immediate transaction (two check-ins at once number their seats one after the other). */
export function checkIn(ctx: AirContext, user: User, pnr: string, segmentId: number | null): Segment[] {
  const d = db();
  return d.transaction(() => {
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
    for (const s of journey) {
      const done = d.prepare("SELECT COUNT(*) AS n FROM seats t JOIN segments g ON g.id = t.segment_id WHERE g.flight_number = ? AND substr(g.dep_local, 1, 10) = ? AND t.sequence IS NOT NULL").get(s.flight_number, flightDate(s.dep_local)) as { n: number };
      let seq = 20 + (fnv(`${ctx.salt}|checkin|${s.flight_number}|${flightDate(s.dep_local)}`) % 140) + done.n;
      for (const t of seatsOf(s.id)) {
        if (t.sequence != null) continue;
        d.prepare("UPDATE seats SET checked_in_at = ?, sequence = ? WHERE id = ?").run(ctx.now, seq++, t.id);
      }
    }
    return journey;
  }).immediate();
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
  origin: string; destination: string; out: string; ret: string | null;
  /** The outbound journey's fare family; `retFamily` the return's (default: the same). */
  family: string; retFamily?: string;
  cardId: number | null; companions: string[];
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

/** A journey of a new booking: its legs with the fare family and one-way fare per passenger they are sold at. */
export interface Priced { direction: "outbound" | "return"; opt: Option; fam: Family; fare: number }

/** What a booking costs per passenger: each journey at its own fare family's fare (taxes and fees included, as
 * the results list them), and how that total splits into base fare, taxes and carrier fees. */
export function bookingPrice(journeys: Priced[]) {
  const fare = journeys.reduce((n, j) => n + j.fare, 0);
  const legs = journeys.flatMap((j) => j.opt.legs);
  const out = journeys[0].opt;
  const split = priceSplit(fare, legs.length, isInternational([out.legs[0].origin, ...out.legs.map((l) => l.destination)]));
  return { fare, split };
}

/** The fare line of a mail or page: "Economy" for one family, else each journey's ("Basic Economy (departing),
 * Economy Flex (return)"). */
export function fareNames(journeys: { direction: string; family: Family }[]): string {
  const names = [...new Set(journeys.map((j) => j.family.name))];
  if (names.length === 1) return names[0];
  return journeys.map((j) => `${j.family.name} (${j.direction === "outbound" ? "departing" : "return"})`).join(", ");
}

/** Delete a booking the bank refused (still `pending`), with its travellers, legs, seats and applied credit. */
function dropPending(bookingId: number): void {
  const d = db();
  d.transaction(() => {
    if (!d.prepare("SELECT 1 FROM bookings WHERE id = ? AND status = 'pending'").get(bookingId)) return;
    d.prepare("DELETE FROM seats WHERE segment_id IN (SELECT id FROM segments WHERE booking_id = ?)").run(bookingId);
    d.prepare("DELETE FROM segments WHERE booking_id = ?").run(bookingId);
    d.prepare("DELETE FROM passengers WHERE booking_id = ?").run(bookingId);
    d.prepare("DELETE FROM travel_credits WHERE booking_id = ?").run(bookingId);
    d.prepare("DELETE FROM payments WHERE booking_id = ?").run(bookingId);
    d.prepare("DELETE FROM bookings WHERE id = ?").run(bookingId);
  }).immediate();
}

/** Book the options `out` (and `ret`) for the user and companions, each journey in its own fare family, paying
 * with a saved card. Reserve first: one immediate transaction checks the seats (and any travel credit) and writes
 * the booking as `pending` with its PNR, tickets and seats; then the card is charged (the bank shows it pending at
 * once) and the booking confirmed; a declined card deletes it again. Returns the new PNR. Throws AirError (nothing
 * charged or kept) or PaymentDeclined (nothing kept). */
export async function book(ctx: AirContext, user: User, req: BookRequest): Promise<string> {
  const outFam = familyNamed(req.family);
  if (!outFam) throw new AirError("Choose a fare.", "family");
  const retFam = req.ret ? familyNamed(req.retFamily || req.family) : null;
  if (req.ret && !retFam) throw new AirError("Choose a fare for your return flight.", "family");
  if (retFam && retFam.cabin !== outFam.cabin) throw new AirError("Choose fares in the same cabin for both flights (search again for the other cabin).", "family");
  const card = cards(user.id).find((c) => c.id === req.cardId);
  if (!card) throw new AirError("Choose one of your saved cards.", "card");
  if (req.companions.length > 5) throw new AirError("Book up to six travellers at a time.", "companions");
  for (const n of req.companions) if (!validName(n)) throw new AirError("Enter each traveller's first and last name as on their ID (letters, spaces, hyphens and apostrophes only).", "companions");
  const outOpt = optionByKey(ctx, req.origin, req.destination, req.out);
  const retOpt: Option | null = req.ret ? optionByKey(ctx, req.destination, req.origin, req.ret) : null;
  if (retOpt && instant(retOpt.legs[0].dep_utc) < instant(outOpt.legs[outOpt.legs.length - 1].arr_utc) + 60 * 60_000) throw new AirError("The return flight must leave after the outbound one lands.", "ret");
  const priced: Priced[] = [{ direction: "outbound", opt: outOpt, fam: outFam, fare: outOpt.fares[outFam.code] }];
  if (retOpt && retFam) priced.push({ direction: "return", opt: retOpt, fam: retFam, fare: retOpt.fares[retFam.code] });
  const pax = 1 + req.companions.length;
  const { fare, split } = bookingPrice(priced);
  const total = fare * pax;
  const legs = priced.flatMap((j) => j.opt.legs.map((l) => ({ ...l, direction: j.direction, fam: j.fam, fare: j.fare })));
  const dest = (db().prepare("SELECT city FROM airports WHERE code = ?").get(req.destination) as { city: string }).city;
  const names = [user.full_name, ...req.companions.map((n) => n.trim().replace(/\s+/g, " "))];
  const d = db();
  // Reserve: the seats, the credit and the booking (pending) in one immediate transaction.
  const held = d.transaction(() => {
    const seatPlan = legs.map((l) => {
      const left = seatsLeft(ctx, l.aircraft, l.flight, flightDate(l.dep_local), l.fam.cabin);
      if (left < pax) throw new AirError(left ? `Only ${left} seat${left > 1 ? "s are" : " is"} left on ${l.flight} in this cabin.` : `${l.flight} is sold out in this cabin.`);
      return assignSeats(ctx, l.aircraft, l.flight, flightDate(l.dep_local), l.fam.cabin, pax, user.seat_preference);
    });
    const used = req.useCredit ? Math.max(0, Math.min(creditAvailable(user.id), total)) : 0;
    const count = (d.prepare("SELECT COUNT(*) AS n FROM bookings").get() as { n: number }).n;
    const pnr = newPnr(ctx, `${count}|${req.out}|${req.ret ?? ""}`);
    const myName = (d.prepare("SELECT p.bcbp_name FROM passengers p JOIN bookings b ON b.id = p.booking_id WHERE b.user_id = ? AND p.position = 0 ORDER BY b.id DESC LIMIT 1").get(user.id) as { bcbp_name: string } | undefined)?.bcbp_name ?? bcbpName(user.full_name);
    const bid = Number(d.prepare(`INSERT INTO bookings (user_id, pnr, status, fare_family, destination, trip_type, passengers, fare_per_passenger_cents,
      base_fare_cents, taxes_cents, carrier_fees_cents, total_cents, card_id, booked_at, credit_cents, refund_cents, authorization, world_ref)
      VALUES (?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, NULL, NULL)`).run(
      user.id, pnr, outFam.code, dest, retOpt ? "round_trip" : "one_way", pax, fare, split.base_fare_cents, split.taxes_cents, split.carrier_fees_cents,
      total, card.id, ctx.now).lastInsertRowid);
    if (used > 0) d.prepare("INSERT INTO travel_credits (user_id, booking_id, amount_cents, issued_at, expires_on, reason) VALUES (?, ?, ?, ?, ?, ?)")
      .run(user.id, bid, -used, ctx.now, ctx.now.slice(0, 10), `Applied to trip ${pnr}`);
    const tickets: string[] = [];
    const paxIds = names.map((n, k) => {
      const [given, ...rest] = n.split(" ");
      const surname = rest.length ? rest[rest.length - 1] : n;
      const ticket = newTicket(ctx, `${pnr}|${k}`);
      tickets.push(ticket);
      return Number(d.prepare("INSERT INTO passengers (booking_id, position, full_name, given_name, surname, ticket_number, loyalty_number, bcbp_name, world_ref) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL)")
        .run(bid, k, n, k === 0 ? user.given_name : rest.length > 1 ? [given, ...rest.slice(0, -1)].join(" ") : given, k === 0 ? user.surname : surname, ticket, k === 0 ? user.username : null, k === 0 ? myName : bcbpName(n)).lastInsertRowid);
    });
    legs.forEach((l, pos) => {
      const leg = legs.slice(0, pos + 1).filter((x) => x.direction === l.direction).length;
      const sid = Number(d.prepare(`INSERT INTO segments (booking_id, position, direction, leg, flight_number, origin, destination, dep_local, arr_local, dep_utc, arr_utc,
        duration_minutes, distance_miles, aircraft, gate, boarding_group, status, fare_family, fare_cents, world_ref) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, 'scheduled', ?, ?, NULL)`).run(
        bid, pos, l.direction, leg, l.flight, l.origin, l.destination, l.dep_local, l.arr_local, l.dep_utc, l.arr_utc, l.minutes,
        Math.max(500, Math.round(l.km / 1.609344)), l.aircraft, l.fam.cabin === "business" ? 1 : 2, l.fam.code, l.fare).lastInsertRowid);
      paxIds.forEach((p, k) => d.prepare("INSERT INTO seats (segment_id, passenger_id, seat, checked_in_at, sequence, changed_at, world_ref) VALUES (?, ?, ?, NULL, NULL, NULL, NULL)").run(sid, p, seatPlan[pos][k]));
    });
    return { bid, pnr, tickets, used, charge: total - used };
  }).immediate();
  const { bid, pnr, tickets, used, charge } = held;
  let authorization: string | null = null;
  if (charge > 0) {
    try {
      authorization = (await chargeCard({
        app: "airline", merchant: `${ctx.airline.toUpperCase()} ${tickets[0]}`, amount_cents: charge, card_last4: card.last4, reference: pnr,
        category: "travel", memo: `${pax} passenger${pax > 1 ? "s" : ""}, ${req.origin}-${req.destination}${retOpt ? `-${req.origin}` : ""}`,
      })).authorization;
    } catch (e) {
      dropPending(bid);
      throw e;
    }
  }
  d.transaction(() => {
    d.prepare("UPDATE bookings SET status = 'upcoming', authorization = ? WHERE id = ? AND status = 'pending'").run(authorization, bid);
    if (authorization) d.prepare("INSERT INTO payments (booking_id, kind, amount_cents, card_id, reference, authorization, description, at, world_ref) VALUES (?, 'charge', ?, ?, ?, ?, ?, ?, NULL)")
      .run(bid, charge, card.id, pnr, authorization, `${ctx.airline.toUpperCase()} ${tickets[0]}`, ctx.now);
  }).immediate();
  const fareLines = priced.length > 1 && priced[0].fam.code !== priced[1].fam.code
    ? `\nFare per traveller: ${priced.map((j) => `${j.direction === "outbound" ? "departing" : "return"} ${j.fam.name} ${money(ctx, j.fare)}`).join(", ")}` : "";
  await mail(ctx, user, `Booking confirmed: ${req.origin} to ${dest} - confirmation ${pnr}`,
    `Hi ${user.given_name},\n\nThank you for flying ${ctx.airline}. Your booking is confirmed and your e-tickets have been issued.\n\nConfirmation code (PNR): ${pnr}\nPassengers: ${names.join(", ")}\nFare: ${fareNames(priced.map((j) => ({ direction: j.direction, family: j.fam })))}${fareLines}\n\nYOUR ITINERARY\n\n${itineraryText(ctx, legs)}\n\nAll times are local to each airport.\n\nTicket number${tickets.length > 1 ? "s" : ""}: ${tickets.join(", ")}\n${ctx.airline} Miles: ${user.username}\nTotal: ${money(ctx, total)}${used ? `\nTravel credit applied: ${money(ctx, used)}` : ""}\nTotal charged to ${card.label}: ${money(ctx, charge)}\n\nManage your booking, choose seats or add bags: http://${AIR_HOST}/trips/${pnr}\n\nCheck-in opens 24 hours before departure.\n\n${ctx.airline}`,
    { pnr, cal: tripCalendar(ctx, pnr, mailLegs(bid, pnr)) });
  return pnr;
}

/** A card payment of a change or cancellation, written before the bank answers (authorization NULL). */
function pendingPayment(bookingId: number, kind: "charge" | "refund", cents: number, cardId: number, reference: string, description: string, at: string): number {
  return Number(db().prepare("INSERT INTO payments (booking_id, kind, amount_cents, card_id, reference, authorization, description, at, world_ref) VALUES (?, ?, ?, ?, ?, NULL, ?, ?, NULL)")
    .run(bookingId, kind, cents, cardId, reference, description, at).lastInsertRowid);
}

/** A payment reference of `pnr` no payment has yet: `<PNR>-<tag><n>` from n = `from` on. */
function freeReference(pnr: string, tag: string, from: number): { reference: string; n: number } {
  const taken = db().prepare("SELECT 1 FROM payments WHERE reference = ?");
  for (let n = from; ; n++) if (!taken.get(`${pnr}-${tag}${n}`)) return { reference: `${pnr}-${tag}${n}`, n };
}

/** Move the journey `direction` of `pnr` to option `key` (same route, same fare family): the fare difference for
 * every traveller is charged to the booking's card, or (cheaper) left as travel credit (refunded for refundable
 * fares). Basic Economy cannot be changed. Seats are reassigned and check-in reset on the new flights. Reserve
 * first: one immediate transaction checks and moves the journey (and writes the payment or credit); then the bank
 * is asked; a refusal puts everything back. Returns the difference in cents. */
export async function changeFlight(ctx: AirContext, user: User, pnr: string, direction: string, key: string): Promise<number> {
  const d = db();
  const plan = d.transaction(() => {
    const b = bookingByPnr(user.id, pnr);
    requireUpcoming(ctx, b);
    const segs = segmentsOf(b.id);
    const journey = segs.filter((s) => s.direction === direction);
    if (!journey.length) throw new AirError("Choose the outbound or the return flight to change.", "direction");
    const fam = familyOf(b, journey[0]);
    if (!fam.changeable) throw new AirError(`${fam.name} fares can't be changed.`);
    if (instant(journey[0].dep_utc) <= ctx.nowMs) throw new AirError("That flight has already left.");
    const opt = optionByKey(ctx, journey[0].origin, journey[journey.length - 1].destination, key);
    if (opt.legs.length !== journey.length) throw new AirError("That flight is not on this route.");
    if (opt.legs.every((l, i) => l.flight === journey[i].flight_number && l.dep_utc === journey[i].dep_utc)) throw new AirError("You are already on that flight.");
    const other = segs.filter((s) => s.direction !== direction);
    if (direction === "outbound" && other.length && instant(opt.legs[opt.legs.length - 1].arr_utc) + 60 * 60_000 > instant(other[0].dep_utc)) throw new AirError("The new flight would land after your return flight leaves.");
    if (direction === "return" && other.length && instant(opt.legs[0].dep_utc) < instant(other[other.length - 1].arr_utc) + 60 * 60_000) throw new AirError("The new return flight would leave before your outbound flight lands.");
    const pax = passengersOf(b.id);
    const left = Math.min(...opt.legs.map((l) => seatsLeft(ctx, l.aircraft, l.flight, flightDate(l.dep_local), fam.cabin)));
    if (left < pax.length) throw new AirError("There are not enough seats left on that flight.");
    const newFare = opt.fares[fam.code];
    const diff = (newFare - journeyFare(b, journey)) * pax.length;
    const card = cards(user.id).find((c) => c.id === b.card_id) ?? cards(user.id)[0];
    const paid = (d.prepare("SELECT COUNT(*) AS n FROM payments WHERE booking_id = ?").get(b.id) as { n: number }).n;
    const { reference, n } = freeReference(pnr, "CHG", paid);
    const seatPlan = opt.legs.map((l) => assignSeats(ctx, l.aircraft, l.flight, flightDate(l.dep_local), fam.cabin, pax.length, user.seat_preference));
    const before = { segments: journey, seats: journey.flatMap((s) => seatsOf(s.id)), total: b.total_cents, changed_at: b.changed_at };
    opt.legs.forEach((l, i) => {
      const s = journey[i];
      d.prepare(`UPDATE segments SET flight_number = ?, dep_local = ?, arr_local = ?, dep_utc = ?, arr_utc = ?, duration_minutes = ?, aircraft = ?, gate = NULL, fare_cents = ? WHERE id = ?`)
        .run(l.flight, l.dep_local, l.arr_local, l.dep_utc, l.arr_utc, l.minutes, l.aircraft, newFare, s.id);
      seatsOf(s.id).forEach((t, k) => d.prepare("UPDATE seats SET seat = ?, checked_in_at = NULL, sequence = NULL, changed_at = ? WHERE id = ?").run(seatPlan[i][k], ctx.now, t.id));
    });
    d.prepare("UPDATE bookings SET changed_at = ?, total_cents = total_cents + ? WHERE id = ?").run(ctx.now, diff > 0 ? diff : fam.cancel === "refund" ? diff : 0, b.id);
    let paymentId: number | null = null;
    if (diff !== 0 && (diff > 0 || fam.cancel === "refund")) paymentId = pendingPayment(b.id, diff > 0 ? "charge" : "refund", Math.abs(diff), card.id, reference, `Flight change ${pnr}`, ctx.now);
    else if (diff < 0) d.prepare("INSERT INTO travel_credits (user_id, booking_id, amount_cents, issued_at, expires_on, reason) VALUES (?, ?, ?, ?, ?, ?)")
      .run(user.id, b.id, -diff, ctx.now, `${Number(ctx.now.slice(0, 4)) + 1}${ctx.now.slice(4, 10)}`, `Fare difference, flight change on ${pnr}`);
    return { b, fam, opt, diff, card, pax, reference, n, paymentId, before };
  }).immediate();
  const { b, fam, opt, diff, card, pax, reference, n, paymentId, before } = plan;
  if (paymentId !== null) {
    try {
      const p = { app: "airline", merchant: `${ctx.airline.toUpperCase()} ${pax[0].ticket_number}`, amount_cents: Math.abs(diff), card_last4: card.last4, reference, category: "travel", memo: `Flight change ${pnr}` };
      const auth = diff > 0 ? await chargeCard(p) : await refundCard(p);
      d.prepare("UPDATE payments SET authorization = ? WHERE id = ?").run(auth.authorization, paymentId);
    } catch (e) {
      d.transaction(() => {
        for (const s of before.segments) {
          d.prepare(`UPDATE segments SET flight_number = ?, dep_local = ?, arr_local = ?, dep_utc = ?, arr_utc = ?, duration_minutes = ?, aircraft = ?, gate = ?, fare_cents = ? WHERE id = ?`)
            .run(s.flight_number, s.dep_local, s.arr_local, s.dep_utc, s.arr_utc, s.duration_minutes, s.aircraft, s.gate, s.fare_cents, s.id);
        }
        for (const t of before.seats) d.prepare("UPDATE seats SET seat = ?, checked_in_at = ?, sequence = ?, changed_at = ? WHERE id = ?").run(t.seat, t.checked_in_at, t.sequence, t.changed_at, t.id);
        d.prepare("UPDATE bookings SET changed_at = ?, total_cents = ? WHERE id = ?").run(before.changed_at, before.total, b.id);
        d.prepare("DELETE FROM payments WHERE id = ?").run(paymentId);
      }).immediate();
      if (e instanceof PaymentDeclined && diff < 0) throw new AirError(`Your flight was not changed: the refund could not be made (${e.message}).`);
      throw e;
    }
  }
  const money_line = diff > 0 ? `Fare difference charged to ${card.label}: ${money(ctx, diff)}` : diff < 0 ? (fam.cancel === "refund" ? `Fare difference refunded to ${card.label}: ${money(ctx, -diff)}` : `Fare difference kept as travel credit: ${money(ctx, -diff)} (valid for 12 months)`) : "There is no fare difference.";
  const now = mailLegs(b.id, pnr);
  await mail(ctx, user, `Your itinerary has changed - confirmation ${pnr}`,
    `Hi ${user.given_name},\n\nYour ${direction} flight on confirmation ${pnr} has been changed as you asked. Your seats were reassigned on the new flight${opt.legs.length > 1 ? "s" : ""}; if you had checked in, please check in again.\n\nYOUR NEW ${direction.toUpperCase()} FLIGHT${opt.legs.length > 1 ? "S" : ""}\n\n${itineraryText(ctx, now.filter((l) => opt.legs.some((o) => o.flight === l.flight && o.dep_utc === l.dep_utc)))}\n\nAll times are local to each airport.\n\n${money_line}\n\nYour updated trip: http://${AIR_HOST}/trips/${pnr}\n\n${ctx.airline}`,
    { pnr, cal: tripCalendar(ctx, pnr, now, n + 1) });
  return diff;
}

/** What cancelling `b` gives back, by the fare rules of each journey: `credit` (travel credit) and `refund` (to the
 * card) in cents, and the kind that names it (refund when anything is refunded, else credit, else none). One fare
 * family (every seeded trip): what was paid, less what a change to a cheaper flight already left as travel credit,
 * as that family keeps it (Basic: nothing). Journeys in different families (an app booking): each journey's current
 * fare times the travellers, kept as its family keeps it. */
export function cancelOutcome(b: Booking, segs: Segment[] = segmentsOf(b.id)): { kind: "none" | "credit" | "refund"; credit: number; refund: number; cents: number } {
  const js = journeysOf(b, segs);
  const mixed = new Set(js.map((j) => j.family.code)).size > 1 && js.every((j) => j.fare != null);
  if (!mixed) {
    const fam = js[0]?.family ?? family(b.fare_family);
    const kind = fam.cancel as "none" | "credit" | "refund";
    const given = (db().prepare("SELECT COALESCE(SUM(amount_cents), 0) AS n FROM travel_credits WHERE booking_id = ? AND amount_cents > 0 AND reason LIKE 'Fare difference%'").get(b.id) as { n: number }).n;
    const cents = kind === "none" ? 0 : Math.max(0, b.total_cents - given);
    return { kind, credit: kind === "credit" ? cents : 0, refund: kind === "refund" ? cents : 0, cents };
  }
  let credit = 0, refund = 0;
  for (const j of js) {
    if (j.family.cancel === "credit") credit += (j.fare ?? 0) * b.passengers;
    if (j.family.cancel === "refund") refund += (j.fare ?? 0) * b.passengers;
  }
  return { kind: refund > 0 ? "refund" : credit > 0 ? "credit" : "none", credit, refund, cents: credit + refund };
}

/** What cancelling `b` gives back in cents (credit and refund together). */
export function cancelValue(b: Booking): number {
  return cancelOutcome(b).cents;
}

/** Cancel `pnr` before its first flight: Basic Economy keeps no value; Economy and Economy Flex become travel credit
 * worth what was paid (less any fare difference a change already left as credit); Business is refunded to the card;
 * a trip in two families gives back each journey's part by its own rules. Reserve first: one immediate transaction
 * cancels the trip and writes the credit or the refund; then the bank refunds (once: a second cancel finds the trip
 * cancelled); a refused refund puts the trip back. Returns what the traveller gets back. */
export async function cancelTrip(ctx: AirContext, user: User, pnr: string): Promise<{ kind: "none" | "credit" | "refund"; cents: number }> {
  const d = db();
  const plan = d.transaction(() => {
    const b = bookingByPnr(user.id, pnr);
    requireUpcoming(ctx, b);
    const segs = segmentsOf(b.id);
    if (instant(segs[0].dep_utc) <= ctx.nowMs) throw new AirError("Part of this trip has been flown; call us to cancel the rest.");
    const out = cancelOutcome(b, segs);
    const card = cards(user.id).find((c) => c.id === b.card_id) ?? cards(user.id)[0];
    d.prepare("UPDATE bookings SET status = 'cancelled', cancelled_at = ?, credit_cents = ?, refund_cents = ? WHERE id = ?").run(ctx.now, out.credit, out.refund, b.id);
    d.prepare("UPDATE segments SET status = 'cancelled' WHERE booking_id = ?").run(b.id);
    const creditId = out.credit > 0 ? Number(d.prepare("INSERT INTO travel_credits (user_id, booking_id, amount_cents, issued_at, expires_on, reason) VALUES (?, ?, ?, ?, ?, ?)")
      .run(user.id, b.id, out.credit, ctx.now, `${Number(ctx.now.slice(0, 4)) + 1}${ctx.now.slice(4, 10)}`, `Cancelled trip ${pnr}`).lastInsertRowid) : null;
    const paymentId = out.refund > 0 ? pendingPayment(b.id, "refund", out.refund, card.id, `${pnr}-CXL`, `Refund ${pnr}`, ctx.now) : null;
    return { b, segs, out, card, creditId, paymentId };
  }).immediate();
  const { b, segs, out, card, creditId, paymentId } = plan;
  if (paymentId !== null) {
    try {
      const auth = await refundCard({ app: "airline", merchant: `${ctx.airline.toUpperCase()} REFUND`, amount_cents: out.refund, card_last4: card.last4, reference: `${pnr}-CXL`, category: "travel", memo: `Cancelled ${pnr}` });
      d.prepare("UPDATE payments SET authorization = ? WHERE id = ?").run(auth.authorization, paymentId);
    } catch (e) {
      d.transaction(() => {
        d.prepare("UPDATE bookings SET status = ?, cancelled_at = NULL, credit_cents = ?, refund_cents = ? WHERE id = ?").run(b.status, b.credit_cents, b.refund_cents, b.id);
        for (const s of segs) d.prepare("UPDATE segments SET status = ? WHERE id = ?").run(s.status, s.id);
        if (creditId !== null) d.prepare("DELETE FROM travel_credits WHERE id = ?").run(creditId);
        d.prepare("DELETE FROM payments WHERE id = ?").run(paymentId);
      }).immediate();
      if (e instanceof PaymentDeclined) throw new AirError(`Your trip was not cancelled: the refund could not be made (${e.message}).`);
      throw e;
    }
  }
  const fams = journeysOf(b, segs);
  const what = [
    out.refund > 0 ? `A refund of ${money(ctx, out.refund)} is on its way to ${card.label}; it may take a few days to appear.` : "",
    out.credit > 0 ? `You have a travel credit of ${money(ctx, out.credit)}, valid for 12 months, to use on a new ${ctx.airline} booking (choose "Use travel credit" when you pay).` : "",
  ].filter(Boolean).join("\n\n") || `Your ${fareNames(fams)} fare was non-refundable, so no refund or credit was issued.`;
  await mail(ctx, user, `Your trip is cancelled - confirmation ${pnr}`,
    `Hi ${user.given_name},\n\nAs you asked, we have cancelled your trip to ${b.destination} (confirmation ${pnr}).\n\nCANCELLED FLIGHTS\n\n${itineraryText(ctx, segs.map((g) => ({ flight: g.flight_number, origin: g.origin, destination: g.destination, dep_local: g.dep_local, arr_local: g.arr_local })))}\n\n${what}\n\nYour trips: http://${AIR_HOST}/trips/${pnr}\n\nWe hope to welcome you on board again soon.\n${ctx.airline}`);
  return { kind: out.kind, cents: out.cents };
}

export { PaymentDeclined };
