import { checkIn } from "@/airline/lib/actions";
import { field, formPost, idValue, pnrValue, withQuery } from "@/airline/lib/http";

export const dynamic = "force-dynamic";

/** Online check-in for the journey of `segment` on `pnr` (24 h to 45 min before departure, by the app's clock). */
export const POST = formPost({
  act: (ctx, user, form) => {
    const pnr = pnrValue(field(form, "pnr"));
    const journey = checkIn(ctx, user, pnr, idValue(field(form, "segment")));
    return withQuery(`/trips/${pnr}/boarding-pass`, { segment: journey[0].id, checked_in: 1 });
  },
  failed: (message, form) => {
    const pnr = pnrValue(field(form, "pnr"));
    return /^[A-Z0-9]{6}$/.test(pnr) ? withQuery(`/trips/${pnr}`, { error: message }) : withQuery("/", { error: message });
  },
});
