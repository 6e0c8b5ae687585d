import { field, withQuery } from "@persona/platform/http";
import { FieldError } from "@/taxes/lib/fields";
import { formPost } from "@/taxes/lib/http";
import { importForm, issuedForms, startReturn } from "@/taxes/lib/store";

export const dynamic = "force-dynamic";

/** Import an issued form (`form` = its id) into the year's draft. */
export const POST = formPost(
  (ctx, user, form) => {
    const id = Number(field(form, "form"));
    if (!Number.isInteger(id) || id <= 0) throw new FieldError("Choose a form to import.", "form");
    // An unknown form is refused before the draft is started: a refused import writes nothing.
    if (!issuedForms(ctx, null).some((f) => f.id === id)) throw new FieldError("That form isn't available for this tax year.", "form");
    const ret = startReturn(ctx, user);
    const f = importForm(ctx, ret, id);
    return withQuery("/return/income", { imported: `${f.form} ${f.issuer}` });
  },
  () => "/return/income",
);
