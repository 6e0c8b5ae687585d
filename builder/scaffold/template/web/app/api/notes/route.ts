import { formRoute } from "@persona/platform/forms";
import { field, withQuery } from "@persona/platform/http";
import { db, now, requestUser } from "@/__APP__/lib/app";

const MAX_TITLE = 200;

/** A note the person should correct: nothing was written. */
class NoteError extends Error {}

/** Add a note: a title of 1-200 characters, stored verbatim; anything else changes nothing and goes back with the
 * message (@persona/platform/forms). The form carries a one-time `_idem` token, so a double click adds one note. */
export const POST = formRoute({
  user: requestUser,
  refusal: NoteError,
  act: (user, form) => {
    const title = field(form, "title").trim();
    if (!title) throw new NoteError("Give the note a title.");
    if (title.length > MAX_TITLE) throw new NoteError(`A title has at most ${MAX_TITLE} characters.`);
    db().prepare("INSERT INTO notes (user_id, title, body, created_at, world_ref) VALUES (?, ?, '', ?, NULL)").run(user.id, title, now());
    return "/";
  },
  failed: (e) => withQuery("/", { error: e.message }),
});
