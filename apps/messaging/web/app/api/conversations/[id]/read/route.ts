import type { NextRequest } from "next/server";
import { idValue, json, jsonError } from "@persona/platform/http";
import { requestUser } from "@/messaging/lib/auth";
import { getConversation, markRead } from "@/messaging/lib/chat";
import { chatContext } from "@/messaging/lib/context";

export const dynamic = "force-dynamic";

/** Mark every delivered message of conversation `id` read: `{marked}`. */
export async function POST(req: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  if (!requestUser(req)) return jsonError("Sign in first.", 401);
  const raw = (await params).id;
  const id = idValue(raw);
  const conv = id !== null ? getConversation(id) : null;
  if (!conv) return jsonError("That conversation does not exist.", 404);
  return json({ marked: markRead(conv.id, chatContext().now) });
}
