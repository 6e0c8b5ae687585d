import { createTicket, type TicketFields } from "@/board/lib/board";
import { post } from "@/board/lib/http";

export const dynamic = "force-dynamic";

const FIELDS = ["title", "description", "assignee", "priority", "type", "labels", "points", "due", "sprint", "project"] as const;

/** Create a ticket: title and project required; the rest as on the edit route. Answers the new key. */
export const POST = post(
  ({ user, now, prefix, fields }) => {
    const f: TicketFields = {};
    for (const k of FIELDS) if (fields[k] !== undefined) f[k] = fields[k];
    const t = createTicket(f, user.person_id, now, prefix);
    return { result: { key: t.key }, redirect: `/t/${t.key}?ok=${encodeURIComponent(`Created ${t.key}.`)}` };
  },
  () => "/new",
);
