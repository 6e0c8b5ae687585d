import type { NextRequest } from "next/server";
import { db } from "@/calendar/lib/db";
import { back, idToken, signedWrite } from "@/calendar/lib/http";
import { CalError } from "@/calendar/lib/write";

export const dynamic = "force-dynamic";

/** Show or hide one calendar (toggles `hidden`); `back` (same-origin) is where it lands. */
export async function POST(req: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const id = idToken((await params).id);
  return signedWrite(
    req,
    "/week",
    (_u, f) => {
      const r = id ? db().prepare("UPDATE calendars SET hidden = 1 - hidden WHERE id = ?").run(id) : { changes: 0 };
      if (!r.changes) throw new CalError("No such calendar.", "calendar", 404);
      return { path: back(f.back, "/week", {}), body: { id, ok: true } };
    },
    (f, e) => back(f.back, "/week", { error: e.message }),
  );
}
