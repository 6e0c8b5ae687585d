import type { NextRequest } from "next/server";
import { getEvent } from "@/calendar/lib/events";
import { idToken, signedWrite, withQuery } from "@/calendar/lib/http";
import { CalError, deleteEvent, NO_EVENT } from "@/calendar/lib/write";

export const dynamic = "force-dynamic";

/** Delete: `scope` this|following|all (series), `occ` the occurrence. */
export async function POST(req: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const id = idToken((await params).id);
  return signedWrite(
    req,
    id ? `/events/${id}` : "/week",
    (_u, f) => {
      if (!id) throw new CalError(NO_EVENT, undefined, 404);
      const day = (f.occ || getEvent(id)?.start_local || "").slice(0, 10);
      deleteEvent(id, f.scope || "all", f.occ ?? "");
      return { path: withQuery("/week", { date: day, notice: "deleted" }), body: { id, ok: true } };
    },
    (f, e) => (id ? withQuery(`/events/${id}`, { occ: f.occ, error: e.message }) : withQuery("/week", { error: e.message })),
  );
}
