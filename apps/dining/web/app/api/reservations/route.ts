import { diningContext } from "@/dining/lib/context";
import { field, formPost, withQuery } from "@/dining/lib/http";
import { book } from "@/dining/lib/tabletime";

export const dynamic = "force-dynamic";

/** Book a table (or, for a large party, send the restaurant a request): r (slug), date, time, party, occasion (an OCCASIONS key or empty), request. 303 to the reservation, or back to the form with ?error=. */
export const POST = formPost({
  act: async (user, form) => {
    const { confirmation, status } = await book(diningContext(), user, { slug: field(form, "r"), day: field(form, "date"), time: field(form, "time"), party: field(form, "party"), request: field(form, "request"), occasion: field(form, "occasion") });
    return `/reservations/${confirmation}?done=${status}`;
  },
  failed: (e, form) => withQuery("/book", { r: field(form, "r"), date: field(form, "date"), time: field(form, "time"), party: field(form, "party"), error: e.message }),
});
