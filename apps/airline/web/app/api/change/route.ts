import { changeFlight } from "@/airline/lib/actions";
import { field, formPost, pnrValue, withQuery } from "@/airline/lib/http";

export const dynamic = "force-dynamic";

/** Change flight: `pnr`, `direction` (outbound | return), `option` (a schedule option key on the same route). */
export const POST = formPost({
  act: async (ctx, user, form) => {
    const pnr = pnrValue(field(form, "pnr"));
    const diff = await changeFlight(ctx, user, pnr, field(form, "direction"), field(form, "option"));
    return withQuery(`/trips/${pnr}`, { changed: diff });
  },
  failed: (message, form) => {
    const pnr = pnrValue(field(form, "pnr"));
    return /^[A-Z0-9]{6}$/.test(pnr) ? withQuery(`/trips/${pnr}`, { error: message }) : withQuery("/", { error: message });
  },
});
