import type { NextRequest } from "next/server";
import { safeNext } from "@persona/platform/http";
import { db } from "@/calendar/lib/db";
import { signedWrite } from "@/calendar/lib/http";
import { CalError } from "@/calendar/lib/write";

export const dynamic = "force-dynamic";

/** Show or hide one calendar (toggles `hidden`). */
export async function POST(req: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return signedWrite(
    req,
    "/week",
    (_u, f) => {
      const r = db().prepare("UPDATE calendars SET hidden = 1 - hidden WHERE id = ?").run(id);
      if (!r.changes) throw new CalError("No such calendar.", "calendar", 404);
      return { path: safeNext(f.back || "/week"), body: { id, ok: true } };
    },
    (f, e) => `${safeNext(f.back || "/week")}`.replace(/$/, `${(f.back ?? "").includes("?") ? "&" : "?"}error=${encodeURIComponent(e.message)}`),
  );
}
