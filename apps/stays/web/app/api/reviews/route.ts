import { formPost, field, withQuery } from "@/stays/lib/http";
import { stayContext } from "@/stays/lib/context";
import { review } from "@/stays/lib/stays";

export const dynamic = "force-dynamic";

/** Review a past stay: fields confirmation, rating (1-5), body. */
export const POST = formPost({
  act: (user, form) => {
    const conf = field(form, "confirmation");
    review(user.id, user.full_name, conf, field(form, "rating"), field(form, "body"), stayContext().locale.startsWith("de") ? "de" : "en");
    return `/trips/${encodeURIComponent(conf)}#review`;
  },
  failed: (e, form) => withQuery(/^[A-Z0-9]{1,20}$/.test(field(form, "confirmation")) ? `/trips/${field(form, "confirmation")}` : "/trips", { error: e.message }),
});
