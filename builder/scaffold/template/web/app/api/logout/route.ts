import type { NextRequest } from "next/server";
import { seeOther } from "@persona/platform/http";
import { SESSION_COOKIE, sessionCookie, signOut } from "@/__APP__/lib/auth";

/** Sign out: delete the session, clear the cookie. */
export async function POST(req: NextRequest) {
  signOut(req.cookies.get(SESSION_COOKIE)?.value);
  return seeOther("/login", { "Set-Cookie": sessionCookie(null) });
}
