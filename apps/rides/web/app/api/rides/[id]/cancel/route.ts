import { formPost, rideIdOf, withQuery } from "@/rides/lib/http";
import { cancelRide } from "@/rides/lib/rides";

export const dynamic = "force-dynamic";

/** Cancel a scheduled ride (free more than 60 min ahead, else the cancellation fee is kept); refunds via the card
 * network, once (the ride is cancelled first; a second cancel finds it cancelled; a refused refund undoes it). */
export const POST = formPost({
  act: async (_user, _form, req) => {
    await cancelRide(rideIdOf(req));
    return `/scheduled?cancelled=1`;
  },
  failed: (e) => withQuery("/scheduled", { error: e.message }),
});
