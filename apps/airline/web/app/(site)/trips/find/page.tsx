import { redirect } from "next/navigation";
import { withQuery } from "@persona/platform/http";
import { requireUser } from "@/airline/lib/auth";
import { db } from "@/airline/lib/db";
import { one, type SP } from "@/airline/lib/page";

/** `?pnr=`: the trip's page, or My Trips with a clear message. */
export default async function FindTrip({ searchParams }: { searchParams: SP }) {
  const user = await requireUser();
  const pnr = one((await searchParams).pnr).trim().toUpperCase();
  const found = /^[A-Z0-9]{6}$/.test(pnr) && db().prepare("SELECT 1 FROM bookings WHERE pnr = ? AND user_id = ?").get(pnr, user.id);
  redirect(found ? `/trips/${pnr}` : withQuery("/", { error: "We couldn't find a trip with that confirmation code." }));
}
