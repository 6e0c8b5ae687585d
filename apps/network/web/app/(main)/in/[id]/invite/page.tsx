import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { Frame } from "@/network/components/Frame";
import { Avatar } from "@/network/components/Logo";
import { Flash } from "@/network/components/Nav";
import { NOTE_MAX, personHit } from "@/network/lib/network";

export const metadata = { title: "Invite to connect" };

/** "Add a note to your invitation?": send with a note (at most NOTE_MAX characters) or without one. */
export default async function InvitePage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { id } = await params;
  const sp = await searchParams;
  const p = /^\d{1,9}$/.test(id) ? personHit(Number(id)) : null;
  if (!p) notFound();
  if (p.connected_on || p.pending) redirect(`/in/${p.id}`);
  return (
    <Frame active="network">
      <div className="gl-cols gl-cols-profile">
        <section className="gl-center">
          <Flash error={errorMessage(sp)} />
          <form action="/api/invitations" method="post" className="gl-card gl-form" data-testid="invite-form">
            <input type="hidden" name="_idem" value={idempotencyToken()} />
            <input type="hidden" name="action" value="send" />
            <input type="hidden" name="person" value={p.id} />
            <h1 className="gl-h2">Invite {p.name} to connect</h1>
            <div className="gl-invite">
              <Avatar name={p.name} size={48} />
              <div className="gl-grow"><div className="gl-strong">{p.name}</div><div className="gl-muted gl-small">{p.headline}</div></div>
            </div>
            <label>
              Add a note to your invitation? (optional)
              <textarea name="note" rows={5} maxLength={NOTE_MAX} placeholder={`Ex: We know each other from…`} />
            </label>
            <p className="gl-muted gl-small">Personalize your invitation with a note of up to {NOTE_MAX} characters. {p.name.split(" ")[0]} sees it with your invitation.</p>
            <div className="gl-actions">
              <Link href={`/in/${p.id}`} className="gl-link">Cancel</Link>
              <button type="submit" name="without_note" value="1" className="gl-secondary" data-testid="send-without-note">Send without a note</button>
              <button type="submit" className="gl-primary" data-testid="send">Send</button>
            </div>
          </form>
        </section>
      </div>
    </Frame>
  );
}
