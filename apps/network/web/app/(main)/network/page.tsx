import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import Link from "next/link";
import { Frame } from "@/network/components/Frame";
import { Avatar } from "@/network/components/Logo";
import { Flash } from "@/network/components/Nav";
import { one } from "@/network/lib/format";
import { listConnections, pendingInvitations, type Invitation } from "@/network/lib/network";

export const metadata = { title: "My Network" };

function InvitationRow({ inv }: { inv: Invitation }) {
  const mutual = JSON.parse(inv.mutual_json) as string[];
  return (
    <li className="gl-invite" data-testid={`invitation-${inv.direction}`} data-id={inv.id} data-name={inv.name}>
      <Avatar name={inv.name} size={48} />
      <div className="gl-grow">
        <Link href={`/in/${inv.person_id}`} className="gl-strong">{inv.name}</Link>
        <div className="gl-muted gl-small">{inv.headline}</div>
        {mutual.length ? <div className="gl-muted gl-small">{mutual.length} mutual connection{mutual.length > 1 ? "s" : ""}</div> : null}
        {inv.note ? <p className="gl-small gl-note-text">“{inv.note}”</p> : null}
        <div className="gl-muted gl-small">{inv.direction === "sent" ? "Sent" : "Received"} {inv.sent_at.slice(0, 10)}</div>
      </div>
      <form action={`/api/invitations`} method="post" className="gl-actions">
        <input type="hidden" name="_idem" value={idempotencyToken()} />
        <input type="hidden" name="invitation" value={inv.id} />
        {inv.direction === "incoming" ? (
          <>
            <button type="submit" name="action" value="decline" className="gl-secondary" data-testid="decline">Ignore</button>
            <button type="submit" name="action" value="accept" className="gl-primary" data-testid="accept">Accept</button>
          </>
        ) : (
          <button type="submit" name="action" value="withdraw" className="gl-secondary" data-testid="withdraw">Withdraw</button>
        )}
      </form>
    </li>
  );
}

export default async function NetworkPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const incoming = pendingInvitations("incoming");
  const sent = pendingInvitations("sent");
  const connections = listConnections();
  return (
    <Frame active="network">
      <div className="gl-cols gl-cols-profile">
        <section className="gl-center">
          <Flash error={errorMessage(sp)} notice={one(sp.done)} />
          <section className="gl-card">
            <h2 className="gl-h2">Invitations ({incoming.length})</h2>
            {incoming.length ? <ul className="gl-list">{incoming.map((i) => <InvitationRow key={i.id} inv={i} />)}</ul> : <p className="gl-muted">No pending invitations.</p>}
          </section>
          <section className="gl-card">
            <h2 className="gl-h2">Sent ({sent.length})</h2>
            {sent.length ? <ul className="gl-list">{sent.map((i) => <InvitationRow key={i.id} inv={i} />)}</ul> : <p className="gl-muted">No invitations waiting for an answer.</p>}
          </section>
          <section className="gl-card">
            <h2 className="gl-h2" data-testid="connection-count">{connections.length} connections</h2>
            <ul className="gl-list">
              {connections.map((c) => (
                <li key={c.id} className="gl-invite" data-testid="connection" data-name={c.name}>
                  <Avatar name={c.name} size={48} />
                  <div className="gl-grow">
                    <Link href={`/in/${c.id}`} className="gl-strong">{c.name}</Link>
                    <div className="gl-muted gl-small">{c.headline}</div>
                    <div className="gl-muted gl-small">Connected on {c.connected_on}</div>
                  </div>
                  <form action="/api/threads" method="post">
                    <input type="hidden" name="_idem" value={idempotencyToken()} />
                    <input type="hidden" name="person" value={c.id} /><button type="submit" className="gl-secondary">Message</button></form>
                </li>
              ))}
            </ul>
          </section>
        </section>
      </div>
    </Frame>
  );
}
