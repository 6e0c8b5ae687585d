import { field, formPost, idValue } from "@/network/lib/http";
import { addSkill, NetworkError, removeSkill } from "@/network/lib/network";

export const dynamic = "force-dynamic";

/** `action` add (`skill`, 1-60 characters, not already listed) or remove (`id`). */
export const POST = formPost("/in/me/edit", (_u, form) => {
  const action = field(form, "action");
  if (action === "add") addSkill(field(form, "skill"));
  else if (action === "remove") removeSkill(idValue(field(form, "id")));
  else throw new NetworkError("Unknown action.", "action");
  return "/in/me/edit?saved=1";
});
