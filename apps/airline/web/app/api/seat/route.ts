import { changeSeat } from "@/airline/lib/actions";
import { field, formPost, idValue, pnrValue, withQuery } from "@/airline/lib/http";

export const dynamic = "force-dynamic";

/** Change seat: `pnr`, `segment`, `passenger`, `seat` (`14C`). Refused: unknown trip, a seat that does not exist or is taken. */
export const POST = formPost({
  act: (ctx, user, form) => {
    const pnr = pnrValue(field(form, "pnr"));
    const seat = changeSeat(ctx, user, pnr, idValue(field(form, "segment")), idValue(field(form, "passenger")), field(form, "seat"));
    return withQuery(`/trips/${pnr}/seats`, { segment: idValue(field(form, "segment")), passenger: idValue(field(form, "passenger")), saved: seat });
  },
  failed: (message, form) => {
    const pnr = pnrValue(field(form, "pnr"));
    return /^[A-Z0-9]{6}$/.test(pnr)
      ? withQuery(`/trips/${pnr}/seats`, { segment: idValue(field(form, "segment")), passenger: idValue(field(form, "passenger")), error: message })
      : withQuery("/", { error: message });
  },
});
