import type { NextRequest } from "next/server";
import { seeOther } from "@persona/platform/http";
import { SESSION_COOKIE, signOut } from "@/__APP__/lib/auth";

/** Sign out: delete the session, clear the cookie. */
export async function POST(req: NextRequest) {
  return seeOther("/login", { "Set-Cookie": signOut(req.cookies.get(SESSION_COOKIE)?.value) });
}
