import type { NextRequest } from "next/server";
import { json, jsonError } from "@persona/platform/http";
import { chatContext } from "@/workchat/lib/context";
import { channelByName, pendingReplies } from "@/workchat/lib/chat";
import { requestUser } from "@/workchat/lib/http";

export const dynamic = "force-dynamic";

/** `?channel=<name>`: replies still on their way there: `{count, next, names, now}`. */
export async function GET(req: NextRequest) {
  const user = requestUser(req);
  if (!user) return jsonError("Sign in first.", 401);
  const { now } = chatContext();
  const ch = channelByName(user.person_id, now, req.nextUrl.searchParams.get("channel") ?? "");
  if (!ch) return jsonError("No such conversation.", 404, "channel");
  return json({ ...pendingReplies(ch.id, now), now });
}
