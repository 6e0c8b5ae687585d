import { formPost, field, withQuery } from "@/stays/lib/http";
import { cancel, StayError } from "@/stays/lib/stays";

export const dynamic = "force-dynamic";

/** Cancel a booking: fields confirmation, confirm=yes (the policy was shown on /trips/<conf>/cancel). */
export const POST = formPost({
  act: async (user, form) => {
    const conf = field(form, "confirmation");
    if (field(form, "confirm") !== "yes") throw new StayError("Tick the box to confirm the cancellation.");
    await cancel(user.id, conf);
    return `/trips/${encodeURIComponent(conf)}?cancelled=1`;
  },
  failed: (e, form) => withQuery(/^[A-Z0-9]{1,20}$/.test(field(form, "confirmation")) ? `/trips/${field(form, "confirmation")}` : "/trips", { error: e.message }),
});
