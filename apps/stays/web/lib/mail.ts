import { icsAttachment, icsUid, type IcsCalendar } from "@persona/platform/ics";
import { callApp } from "@persona/platform/internal";
import { serviceDomain } from "@persona/platform/services";
import { db } from "./db";
import type { StayContext } from "./context";
import { zonedInstant } from "./rates";

/**
 * The mails Bramblestay sends for what the guest does on the site (a booking, a change of dates, a
 * cancellation), delivered to the persona's Mailbox through the app that provides `mail-delivery`
 * (its /api/internal/deliver route). Written in the voice of the world's Bramblestay confirmation
 * (builder/world/templates/mail/hotel_booking.j2): "Reservation confirmed: ...", "Dear <name>", the
 * confirmation number, check-in from 15:00 and check-out until 11:00, "Happy travels, The Bramblestay team".
 * Sending is best effort: a missing or refusing mail app leaves the booking as it is.
 */

export const STAYS_HOST = "bramblestay.test";
const SITE = "Bramblestay";

/** What a stay mail needs to know about the booking (a TripRow has all of it). */
export interface MailStay {
  confirmation: string;
  property_name: string;
  kind: string;
  address: string;
  host_name: string | null;
  room_name: string;
  guests: number;
  check_in: string;
  check_out: string;
  nights: number;
  nightly_cents: number;
  taxes_cents: number;
  fees_cents: number;
  total_cents: number;
  payment: string;
  cancel_until: string | null;
  city_zone: string;
  /** The city (its currency prices the stay). */
  city: string;
  user_id: number;
  /** The calendar's UID for this stay when it has one (a world booking). */
  calendar_uid?: string | null;
}

/** 15:00 / 3:00 PM in the persona's locale. */
function clock(ctx: StayContext, hour: number): string {
  return new Intl.DateTimeFormat(ctx.locale, { hour: "numeric", minute: "2-digit", timeZone: "UTC" }).format(new Date(Date.UTC(2000, 0, 1, hour)));
}

/** The stay's calendar file: one timed VEVENT from 15:00 on check-in to 11:00 on check-out in the property's zone
 * (as the world's hotel entry), UID the calendar's for a world booking (so a changed stay updates that entry),
 * else `<confirmation>@bramblestay.test`; `sequence` > 0 for a changed stay. */
export function stayCalendar(ctx: StayContext, s: MailStay, sequence = 0): IcsCalendar {
  const de = ctx.locale.startsWith("de");
  return {
    prodid: `-//${SITE}//Trips//EN`,
    stamp: new Date(zonedInstant(ctx.now, ctx.timezone)).toISOString(),
    events: [{
      uid: s.calendar_uid || icsUid(s.confirmation, STAYS_HOST),
      start: new Date(zonedInstant(`${s.check_in}T15:00:00`, s.city_zone)).toISOString(),
      end: new Date(zonedInstant(`${s.check_out}T11:00:00`, s.city_zone)).toISOString(),
      summary: de ? `Hotel: ${s.property_name}` : `Stay at ${s.property_name}`,
      location: s.address,
      description: de ? `Buchungscode ${s.confirmation}` : `Confirmation ${s.confirmation}`,
      sequence,
    }],
  };
}

async function deliver(userId: number, subject: string, body: string, attachments: ReturnType<typeof icsAttachment>[] = []): Promise<void> {
  const host = serviceDomain("mail-delivery");
  if (!host) return;
  const user = db().prepare("SELECT full_name, email FROM users WHERE id = ?").get(userId) as { full_name: string; email: string } | undefined;
  if (!user) return;
  try {
    await callApp(host, "/api/internal/deliver", {
      from: { name: SITE, email: `reservations@${STAYS_HOST}` }, to: [user.email], subject, body, folder: "inbox", attachments,
    }, 5000);
  } catch {
    /* the mail app is not on this machine, or refused: the booking stands */
  }
}

function greeting(userId: number): string {
  const row = db().prepare("SELECT full_name FROM users WHERE id = ?").get(userId) as { full_name: string } | undefined;
  return `Dear ${row?.full_name ?? "guest"},`;
}

function stayLines(ctx: StayContext, s: MailStay): string {
  return [
    `Confirmation number: ${s.confirmation}`,
    `${s.kind === "rental" ? "Rental" : "Hotel"}: ${s.property_name}`,
    `Address: ${s.address}`,
    `Check-in: ${ctx.date(s.check_in, "long")}, from ${clock(ctx, 15)}`,
    `Check-out: ${ctx.date(s.check_out, "long")}, until ${clock(ctx, 11)}`,
    `Nights: ${s.nights}`,
    `Room: ${s.room_name}, ${s.guests} guest${s.guests === 1 ? "" : "s"}`,
  ].join("\n");
}

function priceLines(ctx: StayContext, s: MailStay, card: string): string {
  const cur = ctx.cityCurrency(s.city);
  return [
    `Nightly rate (average): ${ctx.money(s.nightly_cents, cur)}`,
    `Taxes: ${ctx.money(s.taxes_cents, cur)}`,
    `Fees: ${ctx.money(s.fees_cents, cur)}`,
    `Total for your stay: ${ctx.money(s.total_cents, cur)} (${s.payment === "pay_now" ? `charged to ${card}${cur !== ctx.currency ? `: ${ctx.money(ctx.toCard(s.total_cents, cur))}` : ""}` : "charged at check-out"})`,
  ].join("\n");
}

function policyLine(ctx: StayContext, s: MailStay): string {
  const manage = `http://${STAYS_HOST}/trips/${s.confirmation}`;
  return s.cancel_until
    ? `Free cancellation and date changes until ${ctx.dateTime(s.cancel_until)}: manage your booking at ${manage}`
    : `This rate is non-refundable and its dates can't be changed. Your booking: ${manage}`;
}

const welcome = (s: MailStay) => (s.kind === "rental" && s.host_name ? `Your host, ${s.host_name}, looks forward to welcoming you.` : `${s.property_name} looks forward to welcoming you.`);

/** "Reservation confirmed" with the stay's .ics (`reservation-<confirmation>.ics`, as the world names it). */
export async function mailBooked(ctx: StayContext, s: MailStay, card: string): Promise<void> {
  await deliver(s.user_id, `Reservation confirmed: ${s.property_name}, ${ctx.day(s.check_in)} - ${ctx.day(s.check_out)} (#${s.confirmation})`,
    `${greeting(s.user_id)}\n\nThank you for booking with ${SITE}. ${welcome(s)}\n\n${stayLines(ctx, s)}\n\n${priceLines(ctx, s, card)}\n\n${policyLine(ctx, s)}\n\nHappy travels,\nThe ${SITE} team`,
    [icsAttachment(`reservation-${s.confirmation}.ics`, stayCalendar(ctx, s))]);
}

/** "Your reservation has new dates": old and new dates, the new total and what moved on the card, with the
 * updated .ics (same UID, `sequence` = the change's number). */
export async function mailChanged(ctx: StayContext, s: MailStay, old: { check_in: string; check_out: string }, diff: number, card: string, sequence: number): Promise<void> {
  const cur = ctx.cityCurrency(s.city);
  const money = diff > 0 ? (s.payment === "pay_now" ? `We've charged the difference of ${ctx.charged(diff, cur)} to ${card}.` : `Your new total is ${ctx.money(diff, cur)} more, charged at check-out.`)
    : diff < 0 ? (s.payment === "pay_now" ? `We've refunded the difference of ${ctx.charged(-diff, cur)} to ${card}.` : `Your new total is ${ctx.money(-diff, cur)} less, charged at check-out.`)
    : "The price of your stay is unchanged.";
  await deliver(s.user_id, `Your reservation has new dates: ${s.property_name}, ${ctx.day(s.check_in)} - ${ctx.day(s.check_out)} (#${s.confirmation})`,
    `${greeting(s.user_id)}\n\nYour dates at ${s.property_name} have been changed as you asked.\n\nPrevious dates: ${ctx.date(old.check_in, "long")} - ${ctx.date(old.check_out, "long")}\nNew dates: ${ctx.date(s.check_in, "long")} - ${ctx.date(s.check_out, "long")}\n\n${stayLines(ctx, s)}\n\n${priceLines(ctx, s, card)}\n${money}\n\n${policyLine(ctx, s)}\n\nAdd the updated stay to your calendar with the attached file.\n\nHappy travels,\nThe ${SITE} team`,
    [icsAttachment(`reservation-${s.confirmation}.ics`, stayCalendar(ctx, s, sequence))]);
}

/** "Your reservation is cancelled": the refund, the late-cancellation fee, or that no refund is due. */
export async function mailCancelled(ctx: StayContext, s: MailStay, terms: { free: boolean; refund_cents: number; fee_cents: number }, card: string): Promise<void> {
  const cur = ctx.cityCurrency(s.city);
  const outcome = terms.refund_cents > 0 ? `Refund: ${ctx.charged(terms.refund_cents, cur)} to ${card}. Refunds usually appear within 5-10 business days.`
    : terms.fee_cents > 0 ? `Cancellation fee: ${ctx.charged(terms.fee_cents, cur)} (the first night with tax), charged to ${card}, as the free-cancellation deadline had passed.`
    : s.payment === "pay_now" ? `No refund: this booking was past its free-cancellation deadline or on a non-refundable rate, so the ${ctx.money(s.total_cents, cur)} you paid is not refunded.`
    : "Nothing was charged.";
  await deliver(s.user_id, `Your reservation is cancelled: ${s.property_name} (#${s.confirmation})`,
    `${greeting(s.user_id)}\n\nAs you asked, we've cancelled your stay at ${s.property_name}, ${ctx.date(s.check_in, "long")} - ${ctx.date(s.check_out, "long")} (confirmation ${s.confirmation}).\n\n${outcome}\n\nYour trips: http://${STAYS_HOST}/trips/${s.confirmation}\n\nWe hope to see you again soon,\nThe ${SITE} team`);
}
