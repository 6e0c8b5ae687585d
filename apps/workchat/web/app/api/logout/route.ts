import type { NextRequest } from "next/server";
import { SESSION_COOKIE, sessionCookie, signOut } from "@/workchat/lib/auth";
import { seeOther } from "@/workchat/lib/http";

export const dynamic = "force-dynamic";

/** Sign out: delete this browser's session row and clear the cookie. */
export async function POST(req: NextRequest) {
  signOut(req.cookies.get(SESSION_COOKIE)?.value);
  return seeOther("/login?signed_out=1", { "Set-Cookie": sessionCookie(null) });
}
