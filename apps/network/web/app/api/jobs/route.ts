import { backTo, field, formPost, idValue } from "@/network/lib/http";
import { NetworkError, setSaved } from "@/network/lib/network";

export const dynamic = "force-dynamic";

/** Save or unsave a job: `job`, `action` save / unsave. Back to the search. */
export const POST = formPost("/jobs", (_u, form) => {
  const action = field(form, "action");
  if (action !== "save" && action !== "unsave") throw new NetworkError("Save or unsave a job.", "action");
  setSaved(idValue(field(form, "job")), action === "save");
  return backTo(form, "/jobs");
});
