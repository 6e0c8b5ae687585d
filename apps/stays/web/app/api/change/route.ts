import { formPost, field, withQuery } from "@/stays/lib/http";
import { changeDates, StayError } from "@/stays/lib/stays";

export const dynamic = "force-dynamic";

const CONF = /^[A-Z0-9]{1,20}$/;

/** Change a booking's dates: fields confirmation, checkin, checkout (YYYY-MM-DD), confirm=yes (the new price and
 * the difference were shown on /trips/<conf>/change). */
export const POST = formPost({
  act: async (user, form) => {
    const conf = field(form, "confirmation");
    if (field(form, "confirm") !== "yes") throw new StayError("Review the new price, then confirm the change.");
    await changeDates(user.id, conf, field(form, "checkin"), field(form, "checkout"));
    return `/trips/${encodeURIComponent(conf)}?changed=1`;
  },
  failed: (e, form) =>
    CONF.test(field(form, "confirmation"))
      ? withQuery(`/trips/${field(form, "confirmation")}/change`, { checkin: field(form, "checkin").slice(0, 10), checkout: field(form, "checkout").slice(0, 10), error: e.message })
      : withQuery("/trips", { error: e.message }),
});
