import { field, formPost, idValue } from "@/network/lib/http";
import { openThread } from "@/network/lib/network";

export const dynamic = "force-dynamic";

/** Open the thread with a connection: `person`. To the thread. */
export const POST = formPost("/network", (_u, form) => `/messaging/${openThread(idValue(field(form, "person")))}`);
