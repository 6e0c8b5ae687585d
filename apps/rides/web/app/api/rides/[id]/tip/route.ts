import { parseMoney } from "@persona/ui/format";
import { rideContext } from "@/rides/lib/context";
import { field, formPost, ridePage, rideIdOf, withQuery } from "@/rides/lib/http";
import { ride, RideError, tipRide } from "@/rides/lib/rides";

export const dynamic = "force-dynamic";

/**
 * Tip a finished ride once: `percent` (10, 15, 20, 25: of the fare, rounded half up to the cent) or
 * `amount` (money in the persona's locale). A new charge on the ride's card, made once even when the form is sent
 * twice at once (the tip is written first, then charged; a declined card takes it back).
 */
export const POST = formPost({
  act: async (_user, form, req) => {
    const id = rideIdOf(req);
    const r = ride(id);
    if (!r) throw new RideError("That ride doesn't exist.");
    const percent = field(form, "percent");
    let cents: number | null;
    if (percent) {
      if (!["10", "15", "20", "25"].includes(percent)) throw new RideError("Choose 10, 15, 20 or 25 % or enter an amount.");
      cents = Math.floor((r.fare_cents * Number(percent) + 50) / 100);
    } else {
      cents = parseMoney(field(form, "amount").slice(0, 40), rideContext().locale);
      if (cents === null) throw new RideError("Enter the tip as an amount, like 4.50.");
    }
    await tipRide(r.id, cents);
    return `/rides/${r.id}?tipped=1`;
  },
  failed: (e, _form, req) => withQuery(ridePage(req), { error: e.message }),
});
