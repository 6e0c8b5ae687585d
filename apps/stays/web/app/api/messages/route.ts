import { formPost, field, withQuery } from "@/stays/lib/http";
import { sendMessage } from "@/stays/lib/stays";

export const dynamic = "force-dynamic";

/** Message the host or hotel about a booking: fields confirmation, body. */
export const POST = formPost({
  act: (user, form) => {
    const conf = field(form, "confirmation");
    sendMessage(user.id, user.full_name, conf, field(form, "body"));
    return `/trips/${encodeURIComponent(conf)}#messages`;
  },
  failed: (e, form) => withQuery(/^[A-Z0-9]{1,20}$/.test(field(form, "confirmation")) ? `/trips/${field(form, "confirmation")}` : "/trips", { error: e.message }),
});
