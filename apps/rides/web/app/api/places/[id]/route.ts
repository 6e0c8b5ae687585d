import type { NextRequest } from "next/server";
import { field, formPost, idValue, withQuery } from "@/rides/lib/http";
import { deleteSavedPlace, renameSavedPlace, RideError } from "@/rides/lib/rides";

export const dynamic = "force-dynamic";

/** Change a saved place: `action` "rename" (with `label`) or "delete". */
export const POST = formPost({
  act: (_user, form, req: NextRequest) => {
    const id = idValue(req.nextUrl.pathname.split("/").at(-1) ?? "");
    const action = field(form, "action");
    if (action === "rename") renameSavedPlace(id, field(form, "label"));
    else if (action === "delete") deleteSavedPlace(id);
    else throw new RideError("Choose rename or delete.");
    return `/places?${action === "delete" ? "deleted" : "renamed"}=1`;
  },
  failed: (e) => withQuery("/places", { error: e.message }),
});
