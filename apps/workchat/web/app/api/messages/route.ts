import { postMessage, scheduleMessage } from "@/workchat/lib/actions";
import { backTo, formPost, idValue } from "@/workchat/lib/http";

export const dynamic = "force-dynamic";

/**
 * Post a message: `channel` (its name), `text`, optional `thread` (root message id) and `back`
 * (the page to return to). Back to the conversation at the new message, or the error with the draft.
 * With `when` = schedule, the message is scheduled for `at` (`YYYY-MM-DDTHH:MM`, local) instead: back to the
 * conversation with `scheduled` = its id.
 */
export const POST = formPost(["channel", "text", "thread", "when", "at"], async (user, v) => {
  const thread = v.thread ? idValue(v.thread) : null;
  if (v.when === "schedule") {
    const s = scheduleMessage(user, v.channel, v.text, thread, v.at);
    const back = v.back && v.back.startsWith(`/c/${s.channel}`) ? v.back : `/c/${s.channel}`;
    return backTo(back, { scheduled: s.id, posted: s.id });
  }
  const posted = await postMessage(user, v.channel, v.text, thread);
  const back = v.back && v.back.startsWith(`/c/${posted.channel}`) ? v.back : `/c/${posted.channel}`;
  return backTo(back, { thread: posted.thread ?? undefined, posted: posted.id }, `#m${posted.id}`);
});
