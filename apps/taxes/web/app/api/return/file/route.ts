import { FieldError } from "@/taxes/lib/fields";
import { BadRequest, field, formPost, need } from "@/taxes/lib/http";
import { currentReturn, fileReturn } from "@/taxes/lib/store";

export const dynamic = "force-dynamic";

/** File the year's return: `consent` = yes (the ticked box; absent when not ticked) and `signature` = the full name.
 * The form carries `_idem` (@persona/platform/once): a double click or a retry gets the first answer. */
export const POST = formPost(
  (ctx, user, form) => {
    const consent = field(form, "consent");
    if (consent !== null && consent !== "yes") throw new BadRequest("consent must be yes (or left out).", 400, "consent");
    const signature = field(form, "signature") ?? need("signature");
    if (signature.length > 200) throw new BadRequest("The signature is too long.", 400, "signature");
    const ret = currentReturn(ctx, user);
    if (!ret) throw new FieldError("Start your return first.", "");
    fileReturn(ctx, user, ret, signature, consent === "yes");
    return "/return/file?done=filed";
  },
  () => "/return/file",
  { once: true },
);
