import { diningContext } from "@/dining/lib/context";
import { DiningError } from "@/dining/lib/tabletime";
import { field, formPost, withQuery } from "@/dining/lib/http";
import { cancel } from "@/dining/lib/tabletime";

export const dynamic = "force-dynamic";

/** Cancel an upcoming reservation: confirmation, confirm=yes. */
export const POST = formPost({
  act: async (user, form) => {
    const conf = field(form, "confirmation");
    if (field(form, "confirm") !== "yes") throw new DiningError("Tick the box to confirm the cancellation.");
    await cancel(diningContext(), user, conf);
    return `/reservations/${encodeURIComponent(conf)}?done=cancelled`;
  },
  failed: (e, form) => withQuery(`/reservations/${encodeURIComponent(field(form, "confirmation").slice(0, 40) || "-")}`, { error: e.message }),
});
