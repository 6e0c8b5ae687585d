import type { NextRequest } from "next/server";
import { field, seeOther, withQuery } from "@persona/platform/http";
import { db } from "@/__APP__/lib/db";
import { now, requestUser } from "@/__APP__/lib/auth";

const MAX_TITLE = 200;

/** Add a note: a title of 1-200 characters, stored verbatim; anything else changes nothing. */
export async function POST(req: NextRequest) {
  const user = requestUser(req);
  if (!user) return seeOther("/login");
  const title = field(await req.formData(), "title").trim();
  if (!title) return seeOther(withQuery("/", { error: "Give the note a title." }));
  if (title.length > MAX_TITLE) return seeOther(withQuery("/", { error: `A title has at most ${MAX_TITLE} characters.` }));
  db().prepare("INSERT INTO notes (user_id, title, body, created_at, world_ref) VALUES (?, ?, '', ?, NULL)").run(user.id, title, now());
  return seeOther("/");
}
