import { field, formPost, idValue, ridePage, rideIdOf, withQuery } from "@/rides/lib/http";
import { rateRide } from "@/rides/lib/rides";

export const dynamic = "force-dynamic";

/** Rate a finished ride: `stars` (1-5) and any number of `compliment` values; once per ride. */
export const POST = formPost({
  act: (_user, form, req) => {
    const id = rideIdOf(req);
    const stars = idValue(field(form, "stars"));
    const compliments = form.getAll("compliment").filter((v): v is string => typeof v === "string");
    rateRide(id, stars, compliments);
    return `/rides/${id}?rated=1`;
  },
  failed: (e, _form, req) => withQuery(ridePage(req), { error: e.message }),
});
