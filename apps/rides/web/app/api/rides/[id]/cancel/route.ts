import type { NextRequest } from "next/server";
import { formPost, idValue, withQuery } from "@/rides/lib/http";
import { cancelRide } from "@/rides/lib/rides";

export const dynamic = "force-dynamic";

function rideId(req: NextRequest): number {
  return idValue(req.nextUrl.pathname.split("/").at(-2) ?? "");
}

/** Cancel a scheduled ride (free more than 60 min ahead, else the cancellation fee is kept); refunds via the card network. */
export const POST = formPost({
  act: async (_user, _form, req) => {
    await cancelRide(rideId(req));
    return `/scheduled?cancelled=1`;
  },
  failed: (e) => withQuery("/scheduled", { error: e.message }),
});
