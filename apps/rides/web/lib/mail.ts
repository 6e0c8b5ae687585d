import { callApp } from "@persona/platform/internal";
import { serviceDomain } from "@persona/platform/services";
import { db } from "./db";
import type { RideContext } from "./context";
import { clock, day, distance, money } from "./format";
import type { Ride } from "./rides";

/**
 * The mails ZipRide sends for what the rider does in the app: "Your ride is scheduled", a cancellation of a
 * scheduled ride, and the receipt when a ride requested in the app is over (in the voice of the world's
 * ZipRide receipt, builder/world/templates/mail/ride.j2: "Thanks for riding with ZipRide, <first>."). Sent to
 * the persona's Mailbox through the app that provides `mail-delivery`; best effort (the ride stands).
 */

export const RIDES_HOST = "zipride.test";
const BRAND = "ZipRide";

async function deliver(local: string, subject: string, body: string): Promise<void> {
  const host = serviceDomain("mail-delivery");
  if (!host) return;
  const user = db().prepare("SELECT full_name, email FROM users ORDER BY id LIMIT 1").get() as { full_name: string; email: string } | undefined;
  if (!user) return;
  try {
    await callApp(host, "/api/internal/deliver", { from: { name: BRAND, email: `${local}@${RIDES_HOST}` }, to: [user.email], subject, body, folder: "inbox", attachments: [] }, 5000);
  } catch {
    /* the mail app is not on this machine, or refused: the ride stands */
  }
}

const first = (ctx: RideContext) => ctx.userName.trim().split(/\s+/)[0] || "there";

function fareLines(ctx: RideContext, r: Ride): string {
  return [
    `Base fare: ${money(ctx, r.base_cents)}`,
    `Distance: ${money(ctx, r.distance_cents)}`,
    `Time: ${money(ctx, r.time_cents)}`,
    `Booking fee: ${money(ctx, r.booking_fee_cents)}`,
  ].join("\n");
}

/** "Your ride is scheduled": pickup time, the two places, the ride type and the fare charged up front. */
export async function mailScheduled(ctx: RideContext, r: Ride, freeCancelMinutes: number): Promise<void> {
  await deliver("rides", `Your ride is scheduled - ${day(ctx, r.pickup_at)}, ${clock(ctx, r.pickup_at)}`,
    `Hi ${first(ctx)}, your ${BRAND} ${r.type_name} is scheduled.\n\nRide ${r.ride_id}\nPickup time: ${day(ctx, r.pickup_at)}, ${clock(ctx, r.pickup_at)}\n\nPickup:  ${r.pickup}\nDropoff: ${r.dropoff}\n${distance(ctx, r.distance_miles)}, about ${r.duration_minutes} min\n\n${fareLines(ctx, r)}\nFare: ${money(ctx, r.fare_cents)}, charged to ${r.card_label}\n\nWe'll match you with a driver shortly before pickup. Cancel for free up to ${freeCancelMinutes} minutes before pickup: http://${RIDES_HOST}/rides/${r.id}\n\n${BRAND}`);
}

/** The cancellation of a scheduled ride: the refund, and the fee kept inside the last hour. */
export async function mailCancelled(ctx: RideContext, r: Ride, t: { free: boolean; fee_cents: number; refund_cents: number }): Promise<void> {
  const money_line = t.fee_cents > 0
    ? `Cancellation fee: ${money(ctx, t.fee_cents)} (cancelled less than an hour before pickup)\nRefund: ${money(ctx, t.refund_cents)} to ${r.card_label}`
    : t.refund_cents > 0
      ? `Refund: ${money(ctx, t.refund_cents)} to ${r.card_label}. No cancellation fee.`
      : "Nothing was charged for this ride, so there is nothing to refund. No cancellation fee.";
  await deliver("rides", `Your scheduled ride was cancelled - ${day(ctx, r.pickup_at)}`,
    `Hi ${first(ctx)}, your scheduled ${BRAND} ride has been cancelled.\n\nRide ${r.ride_id}\n${day(ctx, r.pickup_at)} ${clock(ctx, r.pickup_at)}\n\nPickup:  ${r.pickup}\nDropoff: ${r.dropoff}\n\n${money_line}\nRefunds usually appear within 3-5 business days.\n\n${BRAND}`);
}

/** The receipt of a finished ride (as the world's ZipRide receipt). */
export async function mailReceipt(ctx: RideContext, r: Ride): Promise<void> {
  await deliver("receipts", `Your ${BRAND} receipt - ${day(ctx, r.pickup_at)}`,
    `Thanks for riding with ${BRAND}, ${first(ctx)}.\n\nRide ${r.ride_id}\n${day(ctx, r.pickup_at)} ${clock(ctx, r.pickup_at)} - ${clock(ctx, r.dropoff_at)}\n\nPickup:  ${r.pickup}\nDropoff: ${r.dropoff}\n${distance(ctx, r.distance_miles)}, ${r.duration_minutes} min\nDriver: ${r.driver_name ?? "your driver"}${r.vehicle ? ` (${r.vehicle}, ${r.plate})` : ""}\n\n${fareLines(ctx, r)}\nFare: ${money(ctx, r.fare_cents)}\nTip: ${money(ctx, r.tip_cents)}\nTotal: ${money(ctx, r.total_cents)}\nCharged to ${r.card_label}\n\nRate your ride or report an issue: http://${RIDES_HOST}/rides/${r.id}\n\n${BRAND}`);
}
