import { field } from "@persona/platform/http";
import { FieldError } from "@/taxes/lib/fields";
import { formPost } from "@/taxes/lib/http";
import { currentReturn, fileReturn } from "@/taxes/lib/store";

export const dynamic = "force-dynamic";

/** File the year's return: `consent` = yes and `signature` = the full name. */
export const POST = formPost(
  (ctx, user, form) => {
    const ret = currentReturn(ctx, user);
    if (!ret) throw new FieldError("Start your return first.", "");
    fileReturn(ctx, user, ret, field(form, "signature"), field(form, "consent") === "yes");
    return "/return/file?done=filed";
  },
  () => "/return/file",
);
