import type { NextRequest } from "next/server";
import { requestUser } from "@/calendar/lib/auth";
import { attendeesOf, getEvent, overridesOf, remindersOf } from "@/calendar/lib/events";
import { idToken, json, jsonError, signedWrite, withQuery } from "@/calendar/lib/http";
import { CalError, EVENT_FIELDS, EVENT_FORM_BYTES, NO_EVENT, updateEvent, type EventInput } from "@/calendar/lib/write";

export const dynamic = "force-dynamic";

const FIELDS = EVENT_FIELDS;

/** The event row with its guests, reminders and overrides, as JSON. */
export async function GET(req: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  if (!requestUser(req)) return jsonError("Sign in first.", 401);
  const e = getEvent((await params).id);
  if (!e) return jsonError("No such event.", 404);
  return json({ event: e, attendees: attendeesOf(e.id), reminders: remindersOf(e.id), overrides: overridesOf(e.id) });
}

/** Edit (form or JSON): `scope` this|all, `occ` the occurrence for a series. */
export async function POST(req: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const id = idToken((await params).id);
  return signedWrite(
    req,
    id ? `/events/${id}` : "/week",
    (_u, f) => {
      if (!id) throw new CalError(NO_EVENT, undefined, 404);
      const v = Object.fromEntries(FIELDS.map((k) => [k, f[k] ?? ""])) as unknown as EventInput;
      updateEvent(id, v, f.scope ?? "", f.occ ?? "");
      return { path: withQuery(`/events/${id}`, { notice: "saved", occ: f.scope === "this" ? f.occ : "" }), body: { id, ok: true } };
    },
    (f, e) =>
      id
        ? withQuery(`/events/${id}/edit`, { ...Object.fromEntries(FIELDS.map((k) => [k, f[k] ?? ""])), scope: f.scope, occ: f.occ, error: e.message, field: e.field })
        : withQuery("/week", { error: e.message }),
    { maxBytes: EVENT_FORM_BYTES },
  );
}
