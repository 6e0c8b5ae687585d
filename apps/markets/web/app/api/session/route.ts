import type { NextRequest } from "next/server";
import { field, safeNext, seeOther, withQuery } from "@persona/platform/http";
import { sessionCookie, signIn } from "@/markets/lib/auth";

export const dynamic = "force-dynamic";

/** Sign-in form post: check username + password, create a session row, set sw_session. */
export async function POST(req: NextRequest) {
  let form: FormData;
  try {
    form = await req.formData();
  } catch {
    return seeOther(withQuery("/login", { error: "invalid" }));
  }
  const username = field(form, "username");
  const next = safeNext(field(form, "next"));
  const token = username ? signIn(username, field(form, "password")) : null;
  if (!token) return seeOther(withQuery("/login", { error: "invalid", username, next: next === "/" ? "" : next }));
  return seeOther(next, { "Set-Cookie": sessionCookie(token) });
}
