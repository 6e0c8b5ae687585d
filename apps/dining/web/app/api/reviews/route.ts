import { diningContext } from "@/dining/lib/context";
import { field, formPost, withQuery } from "@/dining/lib/http";
import { review } from "@/dining/lib/tabletime";

export const dynamic = "force-dynamic";

/** Review a past visit: confirmation, rating (1-5), body. */
export const POST = formPost({
  act: (user, form) => {
    const conf = field(form, "confirmation");
    review(diningContext(), user, conf, field(form, "rating"), field(form, "body"));
    return `/reservations/${encodeURIComponent(conf)}?done=reviewed`;
  },
  failed: (e, form) => withQuery(`/reservations/${encodeURIComponent(field(form, "confirmation").slice(0, 40) || "-")}`, { error: e.message }),
});
