import type { NextRequest } from "next/server";
import { signedWrite, withQuery } from "@/calendar/lib/http";
import { moveEvent } from "@/calendar/lib/write";

export const dynamic = "force-dynamic";

/** Move an event (or occurrence `occ`) to `date` + `time` (HH:MM, persona's zone), keeping its length. */
export async function POST(req: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return signedWrite(
    req,
    `/events/${id}`,
    (_u, f) => {
      moveEvent(id, f.occ ?? "", f.date ?? "", f.time ?? "");
      return { path: `/week?date=${f.date}&notice=moved`, body: { id, ok: true } };
    },
    (f, e) => withQuery(`/events/${id}`, { occ: f.occ, error: e.message }),
  );
}
