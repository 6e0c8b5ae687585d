import type { NextRequest } from "next/server";
import { BadRequest, field, readForm, seeOther, withQuery } from "@persona/platform/http";
import { idempotent } from "@persona/platform/once";
import { db, now, requestUser } from "@/__APP__/lib/app";

const MAX_TITLE = 200;

/** Add a note: a title of 1-200 characters, stored verbatim; anything else changes nothing. The form carries a
 * one-time `_idem` token, so a double click adds one note (@persona/platform/once). */
export const POST = idempotent(
  async function POST(req: NextRequest): Promise<Response> {
    const user = requestUser(req);
    if (!user) return seeOther("/login");
    let title: string;
    try {
      title = field(await readForm(req), "title").trim();
    } catch (e) {
      if (e instanceof BadRequest) return seeOther(withQuery("/", { error: e.message }));
      throw e;
    }
    if (!title) return seeOther(withQuery("/", { error: "Give the note a title." }));
    if (title.length > MAX_TITLE) return seeOther(withQuery("/", { error: `A title has at most ${MAX_TITLE} characters.` }));
    db().prepare("INSERT INTO notes (user_id, title, body, created_at, world_ref) VALUES (?, ?, '', ?, NULL)").run(user.id, title, now());
    return seeOther("/");
  },
  { user: (req) => requestUser(req)?.id },
);
