import { book } from "@/airline/lib/actions";
import { field, formPost, idValue, withQuery } from "@/airline/lib/http";

export const dynamic = "force-dynamic";

const code = (v: string) => v.trim().toUpperCase().slice(0, 3);

function review(form: FormData, extra: Record<string, string>): string {
  const ret = field(form, "ret").slice(0, 60);
  const outFamily = field(form, "family").slice(0, 12);
  return withQuery("/book/review", {
    from: code(field(form, "origin")), to: code(field(form, "destination")), out: field(form, "out").slice(0, 60), ret,
    // The review page's names: `family` is the last family chosen (the return's on a round trip), `outfamily` the outbound's.
    family: ret ? (field(form, "retfamily") || outFamily).slice(0, 12) : outFamily, outfamily: ret ? outFamily : "",
    pax: String(Math.min(6, 1 + form.getAll("companion").filter((v) => String(v).trim()).length)), ...extra,
  });
}

/** Book: `origin`, `destination`, `out` (an option key), optional `ret`, `family` (the outbound's fare family),
 * `retfamily` (the return's; default `family`), `card` (a saved card's id), `companion` (repeated: the other
 * travellers' names), `credit` "yes" to pay with travel credit first. Holds the seats and writes the booking
 * (pending), charges the card, confirms it; mails the confirmation. Idempotent on the form's `_idem`. */
export const POST = formPost({
  act: async (ctx, user, form) => {
    const companions = form.getAll("companion").map(String).filter((v) => v.trim());
    const pnr = await book(ctx, user, {
      origin: code(field(form, "origin")), destination: code(field(form, "destination")), out: field(form, "out"),
      ret: field(form, "ret") || null, family: field(form, "family"), retFamily: field(form, "retfamily"), cardId: idValue(field(form, "card")), companions,
      useCredit: field(form, "credit") === "yes",
    });
    return withQuery(`/trips/${pnr}`, { booked: 1 });
  },
  failed: (message, form) => review(form, { error: message }),
});
