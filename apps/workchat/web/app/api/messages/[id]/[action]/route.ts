import type { NextRequest } from "next/server";
import { ChatError, deleteMessage, editMessage, toggleReaction, togglePin, toggleSaved } from "@/workchat/lib/actions";
import { backTo, formPost, idValue } from "@/workchat/lib/http";

export const dynamic = "force-dynamic";

type Action = "edit" | "delete" | "react" | "save" | "pin";

/**
 * One message's actions, posted from its hover menu: `edit` (`text`), `delete`, `react` (`emoji`,
 * a toggle), `save` (toggle), `pin` (toggle). Back to `back`, at the message.
 */
export async function POST(req: NextRequest, { params }: { params: Promise<{ id: string; action: string }> }) {
  const { id: raw, action } = await params;
  const id = idValue(raw);
  const handler = formPost(["text", "emoji"], (user, v) => {
    switch (action as Action) {
      case "edit":
        editMessage(user, id, v.text);
        return backTo(v.back, { edit: "" }, `#m${id}`);
      case "delete":
        deleteMessage(user, id);
        return backTo(v.back, { notice: "Message deleted." });
      case "react":
        toggleReaction(user, id, v.emoji);
        return backTo(v.back, {}, `#m${id}`);
      case "save":
        return backTo(v.back, { notice: toggleSaved(user, id) ? "Saved for later." : "Removed from saved items." }, `#m${id}`);
      case "pin":
        return backTo(v.back, { notice: togglePin(user, id) ? "Pinned to this conversation." : "Unpinned." }, `#m${id}`);
      default:
        throw new ChatError("Unknown message action.");
    }
  });
  return handler(req);
}
