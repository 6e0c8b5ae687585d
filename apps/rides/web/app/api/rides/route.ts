import { field, formPost, idValue, withQuery } from "@/rides/lib/http";
import { requestRide } from "@/rides/lib/rides";

export const dynamic = "force-dynamic";

/**
 * Request a ride now or schedule one: `pickup`, `dropoff` (a saved label, a known address), `ride_type`,
 * `when` ("now" | "later"), `at` (local `YYYY-MM-DDTHH:MM`, when later), `card` (card id), `purpose`
 * ("personal" | "work"). Charges the fare to the card (pending in the bank at once), then to the ride's page.
 */
export const POST = formPost({
  act: async (_user, form) => {
    const id = await requestRide({
      pickup: field(form, "pickup"),
      dropoff: field(form, "dropoff"),
      rideType: field(form, "ride_type"),
      when: field(form, "when"),
      at: field(form, "at"),
      cardId: idValue(field(form, "card")),
      purpose: field(form, "purpose"),
    });
    return `/rides/${id}?requested=1`;
  },
  failed: (e, form) =>
    withQuery("/", { error: e.message, pickup: field(form, "pickup").slice(0, 200), dropoff: field(form, "dropoff").slice(0, 200), when: field(form, "when"), at: field(form, "at") }),
});
