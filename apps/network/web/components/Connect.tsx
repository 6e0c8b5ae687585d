import { idempotencyToken } from "@persona/platform/once";
import Link from "next/link";
import type { PersonHit } from "@/network/lib/network";

/** What a person's card offers: Message (a connection), Pending (invited by the persona), Accept (they invited the
 * persona), else Connect (to the invitation's page, where a note can be added). */
export function ConnectAction({ p }: { p: PersonHit }) {
  if (p.connected_on)
    return (
      <form action="/api/threads" method="post">
        <input type="hidden" name="_idem" value={idempotencyToken()} />
        <input type="hidden" name="person" value={p.id} />
        <button type="submit" className="gl-secondary" data-testid="message">Message</button>
      </form>
    );
  if (p.pending === "sent") return <span className="gl-secondary gl-disabled" data-testid="pending" aria-disabled="true">Pending</span>;
  if (p.pending === "incoming")
    return (
      <form action="/api/invitations" method="post">
        <input type="hidden" name="_idem" value={idempotencyToken()} />
        <input type="hidden" name="invitation" value={p.invitation_id ?? ""} />
        <button type="submit" name="action" value="accept" className="gl-primary" data-testid="accept">Accept</button>
      </form>
    );
  return <Link href={`/in/${p.id}/invite`} className="gl-primary" data-testid="connect">Connect</Link>;
}

/** `1st`, or `2nd` with the mutual connections' count. */
export function degree(p: PersonHit): string {
  if (p.connected_on) return "1st";
  const n = (JSON.parse(p.mutual_json) as string[]).length;
  return n ? `2nd · ${n} mutual connection${n > 1 ? "s" : ""}` : "2nd";
}
