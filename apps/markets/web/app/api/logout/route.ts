import type { NextRequest } from "next/server";
import { seeOther } from "@persona/platform/http";
import { SESSION_COOKIE, sessionCookie, signOut } from "@/markets/lib/auth";

export const dynamic = "force-dynamic";

export async function POST(req: NextRequest) {
  signOut(req.cookies.get(SESSION_COOKIE)?.value);
  return seeOther("/login?signed_out=1", { "Set-Cookie": sessionCookie(null) });
}
