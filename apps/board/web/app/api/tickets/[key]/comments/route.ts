import { addComment } from "@/board/lib/board";
import { post } from "@/board/lib/http";

export const dynamic = "force-dynamic";

/** Add a comment: `body` (stored verbatim). */
export const POST = post(
  ({ user, now, fields, params }) => {
    const id = addComment(params.key, fields.body ?? "", user.person_id, now);
    return { result: { id }, redirect: `/t/${encodeURIComponent(params.key.toUpperCase())}#comments` };
  },
  (p) => `/t/${encodeURIComponent(p.key)}`,
);
