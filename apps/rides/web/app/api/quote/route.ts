import type { NextRequest } from "next/server";
import { requestUser } from "@/rides/lib/auth";
import { rideContext } from "@/rides/lib/context";
import { json, jsonError } from "@/rides/lib/http";
import { quotes, requirePlace, RideError } from "@/rides/lib/rides";

export const dynamic = "force-dynamic";

/** Fare estimates: `GET /api/quote?pickup=..&dropoff=..` -> `{pickup, dropoff, quotes: [{ride_type, fare_cents, eta_minutes, ...}]}`. */
export async function GET(req: NextRequest) {
  if (!requestUser(req)) return jsonError("Sign in first.", 401);
  const q = req.nextUrl.searchParams;
  try {
    const a = requirePlace(q.get("pickup") ?? "", "pickup");
    const b = requirePlace(q.get("dropoff") ?? "", "drop-off");
    const ctx = rideContext();
    return json({ pickup: a, dropoff: b, quotes: quotes(a, b, ctx.now, ctx.tariff) });
  } catch (e) {
    if (e instanceof RideError) return jsonError(e.message);
    throw e;
  }
}
