import { updateTicket, type TicketFields } from "@/board/lib/board";
import { post } from "@/board/lib/http";

export const dynamic = "force-dynamic";

const EDITABLE = ["title", "description", "assignee", "priority", "type", "labels", "points", "due", "sprint", "project"] as const;

/** Edit a ticket: any of title, description, assignee (person id or ""), priority, type, labels (comma list),
 * points, due (YYYY-MM-DD or ""), sprint (id or "backlog"), project (id). Only posted fields change. */
export const POST = post(
  ({ user, now, fields, params }) => {
    const f: TicketFields = {};
    for (const k of EDITABLE) if (fields[k] !== undefined) f[k] = fields[k];
    const t = updateTicket(params.key, f, user.person_id, now);
    return { result: { key: t.key }, redirect: `/t/${t.key}?ok=${encodeURIComponent("Saved.")}` };
  },
  (p) => `/t/${encodeURIComponent(p.key)}`,
);
