import { channelName } from "@/workchat/lib/paths";
import type { NextRequest } from "next/server";
import { jsonError, json } from "@persona/platform/http";
import { markRead } from "@/workchat/lib/actions";
import { chatContext } from "@/workchat/lib/context";
import { channelByName } from "@/workchat/lib/chat";
import { requestUser } from "@/workchat/lib/http";

export const dynamic = "force-dynamic";

/** Mark a conversation read (the channel page calls this once it is on screen). */
export async function POST(req: NextRequest, { params }: { params: Promise<{ name: string }> }) {
  const user = requestUser(req);
  if (!user) return jsonError("Sign in first.", 401);
  const ch = channelByName(user.person_id, chatContext().now, channelName((await params).name));
  if (!ch) return jsonError("No such conversation.", 404);
  markRead(ch.id);
  return json({ ok: true });
}
