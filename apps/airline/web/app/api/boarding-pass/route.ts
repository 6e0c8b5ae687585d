import type { NextRequest } from "next/server";
import { fileResponse, jsonError } from "@persona/platform/http";
import { AirError } from "@/airline/lib/air";
import { requestUser } from "@/airline/lib/auth";
import { airContext } from "@/airline/lib/context";
import { idValue, pnrValue } from "@/airline/lib/http";
import { passes, passesPdf } from "@/airline/lib/pass";

export const dynamic = "force-dynamic";

/** GET ?pnr=&segment=: the boarding passes of a checked-in flight as a PDF download. */
export async function GET(req: NextRequest) {
  const user = requestUser(req);
  if (!user) return jsonError("Sign in first.", 401);
  const pnr = pnrValue(req.nextUrl.searchParams.get("pnr") ?? "");
  const ctx = airContext();
  try {
    const list = passes(ctx, user, pnr, idValue(req.nextUrl.searchParams.get("segment") ?? ""));
    const pdf = await passesPdf(ctx, list);
    return fileResponse(Buffer.from(pdf), "application/pdf", `boarding-pass-${pnr}-${list[0].flight.replace(/\s+/g, "")}.pdf`);
  } catch (e) {
    if (e instanceof AirError) return jsonError(e.message, 404);
    throw e;
  }
}
