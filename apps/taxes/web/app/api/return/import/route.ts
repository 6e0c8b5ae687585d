import { withQuery } from "@persona/platform/http";
import { FieldError } from "@/taxes/lib/fields";
import { field, formPost, idOf, need } from "@/taxes/lib/http";
import { importForm, issuedForms, startReturn } from "@/taxes/lib/store";

export const dynamic = "force-dynamic";

/** Import an issued form (`form` = its id, digits only: else 400) into the year's draft. */
export const POST = formPost(
  (ctx, user, form) => {
    const id = idOf(field(form, "form") ?? need("form"), "form");
    // An unknown form is refused before the draft is started: a refused import writes nothing.
    if (!issuedForms(ctx, null).some((f) => f.id === id)) throw new FieldError("That form isn't available for this tax year.", "form");
    const ret = startReturn(ctx, user);
    const f = importForm(ctx, ret, id);
    return withQuery("/return/income", { imported: `${f.form} ${f.issuer}` });
  },
  () => "/return/income",
);
