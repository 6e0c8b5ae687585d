import type { NextRequest } from "next/server";
import { safeNext } from "@persona/platform/http";
import { signedWrite, withQuery } from "@/calendar/lib/http";
import { answerInvitation } from "@/calendar/lib/write";

export const dynamic = "force-dynamic";

/** Answer an invitation: `answer` yes|no|maybe. Saves the RSVP and mails the reply through the mail app. */
export async function POST(req: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return signedWrite(
    req,
    `/events/${id}`,
    async (_u, f) => {
      const r = await answerInvitation(id, f.answer ?? "");
      const back = safeNext(f.back || `/events/${id}`);
      return { path: `${back}${back.includes("?") ? "&" : "?"}notice=${r.mail === "sent" ? "rsvp" : "rsvp_mail_failed"}`, body: r };
    },
    (f, e) => withQuery(`/events/${id}`, { error: e.message }),
  );
}
