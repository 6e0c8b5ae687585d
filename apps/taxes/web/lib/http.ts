import type { NextRequest } from "next/server";
import { BadRequest as PlatformBadRequest, json, jsonError, readForm as readPlatformForm, seeOther, withQuery } from "@persona/platform/http";
import { requestUser, type User } from "./auth";
import { taxContext, type TaxContext } from "./context";
import { FieldError } from "./fields";

/**
 * A request no form of the app sends (a body that is not a form, a field twice or as a file, a missing or unknown
 * step, an id that is not digits): answered `status` (4xx) with `{error, field?}` as JSON, nothing written. A
 * @persona/platform/http BadRequest (its readForm's: not a form, too large) is answered the same way.
 */
export class BadRequest extends PlatformBadRequest {
  constructor(
    message: string,
    status = 400,
    public field = "",
  ) {
    super(message, status);
  }
}

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

function wantsJson(req: Request): boolean {
  return (req.headers.get("accept") ?? "").includes("application/json");
}

/**
 * The POST handler of a form: signed out, to the sign-in page (401 for a JSON client); the form read by readForm;
 * signed in, runs `act` and answers 303 to the path it returns (JSON: `{ok, next}`). A FieldError (a value the
 * person typed that the app refuses) answers 303 to `back(form)` with `?error=&field=` (JSON: 400); a BadRequest
 * (a malformed request) answers its 4xx status with `{error, field?}`. Nothing is written in either case.
 */
export function formPost(act: (ctx: TaxContext, user: User, form: FormData) => string, back: (form: FormData) => string) {
  return async function POST(req: NextRequest): Promise<Response> {
    const user = requestUser(req);
    if (!user) return wantsJson(req) ? jsonError("Sign in first.", 401) : seeOther("/login");
    let form: FormData | null = null;
    try {
      form = await readForm(req);
      const next = act(taxContext(), user, form);
      return wantsJson(req) ? json({ ok: true, next }) : seeOther(next);
    } catch (e) {
      if (e instanceof PlatformBadRequest) return jsonError(e.message, e.status, (e instanceof BadRequest && e.field) || undefined);
      if (e instanceof FieldError && form) {
        return wantsJson(req) ? jsonError(e.message, 400, e.field || undefined) : seeOther(withQuery(back(form), { error: e.message, field: e.field }));
      }
      throw e;
    }
  };
}
