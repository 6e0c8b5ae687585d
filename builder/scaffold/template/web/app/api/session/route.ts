import type { NextRequest } from "next/server";
import { field, seeOther, withQuery } from "@persona/platform/http";
import { sessionCookie, signIn } from "@/__APP__/lib/auth";

/** Sign-in form post: a session and its cookie, or back to the form with an error. */
export async function POST(req: NextRequest) {
  const form = await req.formData();
  const username = field(form, "username");
  const token = username ? signIn(username, field(form, "password")) : null;
  if (!token) return seeOther(withQuery("/login", { error: "invalid", username }));
  return seeOther("/", { "Set-Cookie": sessionCookie(token) });
}
