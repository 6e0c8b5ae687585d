import { changeScheduled } from "@/workchat/lib/actions";
import { backTo, formPost, idValue } from "@/workchat/lib/http";

export const dynamic = "force-dynamic";

/** A scheduled message: `message` (its id), `action` send (now) / reschedule (to `at`) / delete. Back to Scheduled
 * with what was done (`done` = send / reschedule / delete), or the error. */
export const POST = formPost(["message", "action", "at"], (user, v) => {
  changeScheduled(user, idValue(v.message), v.action, v.at);
  return backTo("/scheduled", { done: v.action });
});
