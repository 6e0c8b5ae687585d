import { setNotifications } from "@/workchat/lib/actions";
import { backTo, formPost } from "@/workchat/lib/http";
import { channelName } from "@/workchat/lib/paths";
import type { NextRequest } from "next/server";

export const dynamic = "force-dynamic";

/** The persona's notifications for a conversation: `notify` all / mentions / nothing, `muted` 1 to mute. Back to
 * its Notifications tab with a notice, or the error. */
export async function POST(req: NextRequest, { params }: { params: Promise<{ name: string }> }) {
  const name = channelName((await params).name);
  return formPost(["notify", "muted"], (user, v) => {
    const ch = setNotifications(user, name, v.notify, v.muted === "1");
    return backTo(`/c/${encodeURIComponent(ch)}?details=notifications`, { notice: "Your notification preferences are saved." });
  })(req);
}
