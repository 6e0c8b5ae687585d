import { postMessage } from "@/workchat/lib/actions";
import { backTo, formPost, idValue } from "@/workchat/lib/http";

export const dynamic = "force-dynamic";

/**
 * Post a message: `channel` (its name), `text`, optional `thread` (root message id) and `back`
 * (the page to return to). Back to the conversation at the new message, or the error with the draft.
 */
export const POST = formPost(["channel", "text", "thread"], async (user, v) => {
  const posted = await postMessage(user, v.channel, v.text, v.thread ? idValue(v.thread) : null);
  const back = v.back && v.back.startsWith(`/c/${posted.channel}`) ? v.back : `/c/${posted.channel}`;
  return backTo(back, { thread: posted.thread ?? undefined, posted: posted.id }, `#m${posted.id}`);
});
