import type { NextRequest } from "next/server";
import { back, idToken, signedWrite } from "@/calendar/lib/http";
import { answerInvitation, CalError, NO_EVENT } from "@/calendar/lib/write";

export const dynamic = "force-dynamic";

const NOTICE = { sent: "rsvp", failed: "rsvp_mail_failed", unchanged: "rsvp_same" } as const;

/** Answer an invitation: `answer` yes|no|maybe. Saves the RSVP and mails the reply through the mail app (once per
 * answer: the same answer again mails nothing). `back` (same-origin) is where the answer lands. */
export async function POST(req: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const id = idToken((await params).id);
  const home = id ? `/events/${id}` : "/week";
  return signedWrite(
    req,
    home,
    async (_u, f) => {
      if (!id) throw new CalError(NO_EVENT, undefined, 404);
      const r = await answerInvitation(id, f.answer ?? "");
      return { path: back(f.back, home, { notice: NOTICE[r.mail] }), body: r };
    },
    (f, e) => back(f.back, home, { error: e.message }),
  );
}
