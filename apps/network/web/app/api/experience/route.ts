import { field, formPost, idValue } from "@/network/lib/http";
import { addExperience, deleteExperience, NetworkError, updateExperience } from "@/network/lib/network";

export const dynamic = "force-dynamic";

const FIELDS = ["title", "company", "location", "start", "end", "description"] as const;

/** `action` add / update / delete an experience entry (`id` for update and delete; months `YYYY-MM`, end empty: current). */
export const POST = formPost("/in/me/edit", (_u, form) => {
  const action = field(form, "action") || "add";
  const values = Object.fromEntries(FIELDS.map((k) => [k, field(form, k)]));
  if (action === "add") addExperience(values);
  else if (action === "update") updateExperience(idValue(field(form, "id")), values);
  else if (action === "delete") deleteExperience(idValue(field(form, "id")));
  else throw new NetworkError("Unknown action.", "action");
  return "/in/me/edit?saved=1";
});
