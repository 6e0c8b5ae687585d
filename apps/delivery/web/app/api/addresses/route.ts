import { addAddress } from "@/delivery/lib/dash";
import { field, formPost, withQuery } from "@/delivery/lib/http";

export const dynamic = "force-dynamic";

/** Save a delivery address: `label` (unique), `line` (the full one-line address), `instructions` (optional). */
export const POST = formPost({
  act: (_user, form) => {
    addAddress(field(form, "label"), field(form, "line"), field(form, "instructions"));
    return "/account?saved=1";
  },
  failed: (e, form) => withQuery("/account", { error: e.message, label: field(form, "label").slice(0, 40), line: field(form, "line").slice(0, 200) }),
});
