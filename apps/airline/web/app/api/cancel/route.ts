import { cancelTrip } from "@/airline/lib/actions";
import { field, formPost, pnrValue, withQuery } from "@/airline/lib/http";

export const dynamic = "force-dynamic";

/** Cancel a trip (`pnr`, `confirm=yes`): travel credit or a refund per the fare rules. */
export const POST = formPost({
  act: async (ctx, user, form) => {
    const pnr = pnrValue(field(form, "pnr"));
    if (field(form, "confirm") !== "yes") return withQuery(`/trips/${pnr}/cancel`, { error: "Tick the box to confirm the cancellation." });
    const r = await cancelTrip(ctx, user, pnr);
    return withQuery(`/trips/${pnr}`, { cancelled: r.kind });
  },
  failed: (message, form) => {
    const pnr = pnrValue(field(form, "pnr"));
    return /^[A-Z0-9]{6}$/.test(pnr) ? withQuery(`/trips/${pnr}`, { error: message }) : withQuery("/", { error: message });
  },
});
