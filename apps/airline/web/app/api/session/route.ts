import type { NextRequest } from "next/server";
import { field, safeNext, seeOther, withQuery } from "@persona/platform/http";
import { sessionCookie, signIn } from "@/airline/lib/auth";

export const dynamic = "force-dynamic";

/** Sign-in form post: MileagePass number + password; a new session row and the ma_session cookie. */
export async function POST(req: NextRequest) {
  let form: FormData;
  try {
    form = await req.formData();
  } catch {
    return seeOther(withQuery("/login", { error: "invalid" }));
  }
  const username = field(form, "username").trim().toUpperCase();
  const next = safeNext(field(form, "next"));
  const token = username ? signIn(username, field(form, "password")) : null;
  if (!token) return seeOther(withQuery("/login", { error: "invalid", username: username.slice(0, 20), next: next === "/" ? "" : next }));
  return seeOther(next, { "Set-Cookie": sessionCookie(token) });
}
