import type { NextRequest } from "next/server";
import { idToken, signedWrite, withQuery } from "@/calendar/lib/http";
import { CalError, moveEvent, NO_EVENT } from "@/calendar/lib/write";

export const dynamic = "force-dynamic";

/** Move an event (or occurrence `occ`) to `date` + `time` (HH:MM, persona's zone), keeping its length. */
export async function POST(req: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const id = idToken((await params).id);
  return signedWrite(
    req,
    id ? `/events/${id}` : "/week",
    (_u, f) => {
      if (!id) throw new CalError(NO_EVENT, undefined, 404);
      moveEvent(id, f.occ ?? "", f.date ?? "", f.time ?? "");
      return { path: withQuery("/week", { date: f.date, notice: "moved" }), body: { id, ok: true } };
    },
    (f, e) => (id ? withQuery(`/events/${id}`, { occ: f.occ, error: e.message }) : withQuery("/week", { error: e.message })),
  );
}
