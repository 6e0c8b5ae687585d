import { BadRequest, readForm as readPlatformForm, withQuery } from "@persona/platform/http";
import { acceptsJson, formRoute } from "@persona/platform/forms";
import { requestUser, type User } from "./auth";
import { taxContext, type TaxContext } from "./context";
import { FieldError } from "./fields";

/** A request no form of the app sends (a body that is not a form, a field twice or as a file, a missing or unknown
 * step, an id that is not digits): @persona/platform/http BadRequest, answered `status` (4xx) with `{error, field?}`
 * as JSON, nothing written. */
export { BadRequest };

/** Largest form body the app reads (bytes): its biggest form, the income step, is well under 4 KB. */
export const MAX_FORM_BYTES = 64 * 1024;

/** The posted form, read strictly (@persona/platform/http readForm, at most MAX_FORM_BYTES): text fields only,
 * each at most once, at least one. */
export async function readForm(req: Request): Promise<FormData> {
  const form = await readPlatformForm(req, MAX_FORM_BYTES);
  const seen = new Set<string>();
  for (const [name, value] of form.entries()) {
    const shown = name.slice(0, 40);
    if (typeof value !== "string") throw new BadRequest(`${shown}: files are not accepted here.`, 400, shown);
    if (seen.has(name)) throw new BadRequest(`${shown} was sent more than once.`, 400, shown);
    seen.add(name);
  }
  if (!seen.size) throw new BadRequest("The form is empty.");
  return form;
}

/** A posted text field, or null when the form lacks it (readForm has refused files and repeats). */
export function field(form: FormData, name: string): string | null {
  const v = form.get(name);
  return typeof v === "string" ? v : null;
}

/** For a field the route cannot do without: `field(form, "x") ?? need("x")` answers 400 when it is absent. */
export function need(name: string): never {
  throw new BadRequest(`The form lacks the field ${name}.`, 400, name);
}

/** A record id: digits only (no sign, space, exponent or fraction), 1 ... 999999999; else BadRequest. */
export function idOf(value: string | null | undefined, name: string): number {
  if (!value || !/^[0-9]{1,9}$/.test(value) || Number(value) < 1) throw new BadRequest(`${name} must be a record number (digits only).`, 400, name);
  return Number(value);
}

/**
 * The POST handler of a form (@persona/platform/forms formRoute): signed out, to the sign-in page (401 for a JSON
 * client); the form read by readForm; signed in, runs `act` and answers 303 to the path it returns (JSON: `{ok,
 * next}`). A FieldError (a value the person typed that the app refuses) answers 303 to `back(form)` with
 * `?error=&field=` (JSON: 400); a BadRequest (a malformed request) answers its 4xx status with `{error, field?}`.
 * Nothing is written in either case. `once`: idempotent per `_idem` token (@persona/platform/once).
 */
export function formPost(act: (ctx: TaxContext, user: User, form: FormData) => string, back: (form: FormData) => string, { once = false } = {}) {
  return formRoute({
    user: requestUser,
    refusal: FieldError,
    read: readForm,
    json: acceptsJson,
    unreadable: "json",
    once,
    act: (user, form) => act(taxContext(), user, form),
    failed: (e, form) => withQuery(back(form), { error: e.message, field: e.field }),
  });
}
