import type { NextRequest } from "next/server";
import { field, safeNext, seeOther, withQuery } from "@persona/platform/http";
import { sessionCookie, signIn } from "@/network/lib/auth";

export const dynamic = "force-dynamic";

/** Sign-in form post: check username + password, create a session row, set gl_session. */
export async function POST(req: NextRequest) {
  const form = await req.formData();
  const username = field(form, "username");
  const next = safeNext(field(form, "next"));
  const token = username ? signIn(username, field(form, "password")) : null;
  if (!token) return seeOther(withQuery("/login", { error: "invalid", username, next: next === "/" ? "" : next }));
  return seeOther(next, { "Set-Cookie": sessionCookie(token) });
}
