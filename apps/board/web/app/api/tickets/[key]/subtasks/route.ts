import { BoardError, setSubtask } from "@/board/lib/board";
import { post } from "@/board/lib/http";

export const dynamic = "force-dynamic";

/** Tick or untick a sub-task: `position` (1-based) and `done` ("1" or "0"). */
export const POST = post(
  ({ user, now, fields, params }) => {
    const pos = /^\d{1,3}$/.test(fields.position ?? "") ? Number(fields.position) : NaN;
    if (!Number.isInteger(pos)) throw new BoardError("Which sub-task?", "position");
    if (fields.done !== "1" && fields.done !== "0") throw new BoardError("done must be 1 or 0.", "done");
    setSubtask(params.key, pos, fields.done === "1", user.person_id, now);
    return {};
  },
  (p) => `/t/${encodeURIComponent(p.key)}`,
);
