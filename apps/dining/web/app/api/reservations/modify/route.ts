import { diningContext } from "@/dining/lib/context";
import { field, formPost, withQuery } from "@/dining/lib/http";
import { modify } from "@/dining/lib/tabletime";

export const dynamic = "force-dynamic";

/** Change an upcoming reservation: confirmation, date, time, party. */
export const POST = formPost({
  act: async (user, form) => {
    const conf = field(form, "confirmation");
    await modify(diningContext(), user, conf, { day: field(form, "date"), time: field(form, "time").slice(0, 5), party: field(form, "party") });
    return `/reservations/${encodeURIComponent(conf)}?done=modified`;
  },
  failed: (e, form) => withQuery(`/reservations/${encodeURIComponent(field(form, "confirmation").slice(0, 40) || "-")}`, { error: e.message }),
});
