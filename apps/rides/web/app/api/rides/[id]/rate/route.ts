import type { NextRequest } from "next/server";
import { field, formPost, idValue, withQuery } from "@/rides/lib/http";
import { rateRide } from "@/rides/lib/rides";

export const dynamic = "force-dynamic";

function rideId(req: NextRequest): number {
  return idValue(req.nextUrl.pathname.split("/").at(-2) ?? "");
}

/** Rate a finished ride: `stars` (1-5) and any number of `compliment` values; once per ride. */
export const POST = formPost({
  act: (_user, form, req) => {
    const id = rideId(req);
    const stars = idValue(field(form, "stars"));
    const compliments = form.getAll("compliment").filter((v): v is string => typeof v === "string");
    rateRide(id, stars, compliments);
    return `/rides/${id}?rated=1`;
  },
  failed: (e, form) => withQuery(`/rides/${field(form, "ride")}`, { error: e.message }),
});
