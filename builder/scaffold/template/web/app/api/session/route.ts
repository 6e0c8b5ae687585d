import type { NextRequest } from "next/server";
import { field, seeOther, withQuery } from "@persona/platform/http";
import { signIn } from "@/__APP__/lib/auth";

/** Sign-in form post: a session and its cookie, or back to the form with an error. */
export async function POST(req: NextRequest) {
  const form = await req.formData();
  const username = field(form, "username");
  const cookie = username ? signIn(username, field(form, "password")) : null;
  if (!cookie) return seeOther(withQuery("/login", { error: "invalid", username }));
  return seeOther("/", { "Set-Cookie": cookie });
}
