import { moveStatus } from "@/board/lib/board";
import { post } from "@/board/lib/http";

export const dynamic = "force-dynamic";

/** Move a ticket to another column: `{status}` as JSON (a drop on the board) or a form (the Move button). */
export const POST = post(
  ({ user, now, fields, params }) => {
    const t = moveStatus(params.key, fields.status ?? "", user.person_id, now);
    return { result: { key: t.key, status: t.status } };
  },
  () => "/board",
);
