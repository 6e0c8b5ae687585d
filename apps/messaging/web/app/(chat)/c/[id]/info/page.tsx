import { lookupId } from "@persona/platform/http";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { Avatar } from "@/messaging/components/Avatar";
import { Sidebar } from "@/messaging/components/Sidebar";
import { getConversation } from "@/messaging/lib/chat";
import { db } from "@/messaging/lib/db";
import { chatContext } from "@/messaging/lib/context";
import { dayLabel } from "@/messaging/lib/format";

export const metadata = { title: "Group info" };

export default async function GroupInfo({ params }: { params: Promise<{ id: string }> }) {
  const id = lookupId((await params).id);
  const conv = getConversation(id);
  if (!conv) notFound();
  if (conv.kind === "direct") redirect(`/contacts/${conv.contact_id}`);
  const ctx = chatContext();
  const members = db()
    .prepare("SELECT k.id, k.name, k.phone FROM members b JOIN contacts k ON k.id = b.contact_id WHERE b.conversation_id = ? ORDER BY k.name COLLATE NOCASE")
    .all(id) as { id: number; name: string; phone: string }[];
  return (
    <>
      <Sidebar active={id} />
      <main className="pl-main pl-panel">
        <div className="pl-card" data-testid="group-info">
          <div className="pl-card-hero">
            <Avatar name={conv.title ?? ""} group size={96} />
            <h1>{conv.title}</h1>
            <p className="pl-muted">
              Group · {members.length + 1} people · created {dayLabel(conv.created_at, ctx.today, ctx.locale)}
            </p>
            <div className="pl-card-actions">
              <Link href={`/c/${id}`} className="pl-primary">
                Open chat
              </Link>
            </div>
          </div>
          <section className="pl-card-section">
            <h2>Members</h2>
            <ul data-testid="group-member-list">
              <li className="pl-member">
                <Avatar name={ctx.userName || "You"} size={32} /> <span>You</span>
              </li>
              {members.map((m) => (
                <li key={m.id} className="pl-member">
                  <Link href={`/contacts/${m.id}`} data-testid="group-member" data-name={m.name}>
                    <Avatar name={m.name} size={32} /> <span>{m.name}</span>
                  </Link>
                  <span className="pl-muted">{m.phone}</span>
                </li>
              ))}
            </ul>
          </section>
        </div>
      </main>
    </>
  );
}
