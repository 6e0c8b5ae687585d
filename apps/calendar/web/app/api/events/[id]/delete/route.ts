import type { NextRequest } from "next/server";
import { getEvent } from "@/calendar/lib/events";
import { signedWrite, withQuery } from "@/calendar/lib/http";
import { deleteEvent } from "@/calendar/lib/write";

export const dynamic = "force-dynamic";

/** Delete: `scope` this|following|all (series), `occ` the occurrence. */
export async function POST(req: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return signedWrite(
    req,
    `/events/${id}`,
    (_u, f) => {
      const day = (f.occ || getEvent(id)?.start_local || "").slice(0, 10);
      deleteEvent(id, f.scope || "all", f.occ ?? "");
      return { path: `/week?date=${day}&notice=deleted`, body: { id, ok: true } };
    },
    (f, e) => withQuery(`/events/${id}`, { occ: f.occ, error: e.message }),
  );
}
