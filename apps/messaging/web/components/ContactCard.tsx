import { idempotencyToken } from "@persona/platform/once";
import Link from "next/link";
import { Avatar } from "@/messaging/components/Avatar";
import { directConversationOf, groupsOf, type Contact } from "@/messaging/lib/chat";
import { chatContext } from "@/messaging/lib/context";
import { db } from "@/messaging/lib/db";

const REL: Record<string, string> = {
  parent: "Parent", sibling: "Sibling", child: "Child", spouse: "Spouse", partner: "Partner", friend: "Friend",
  colleague: "Colleague", roommate: "Roommate", neighbor: "Neighbor", other: "Contact",
};

/** A contact's card: phone, email, relationship, shared activities, the groups you share. */
export function ContactCard({ contact, birthday }: { contact: Contact; birthday: string | null }) {
  const groups = groupsOf(contact.id);
  const direct = directConversationOf(contact.id);
  const activities = JSON.parse(contact.shared_activities || "[]") as string[];
  const count = direct
    ? (db().prepare("SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ? AND deliver_at <= ?").get(direct, chatContext().now) as { n: number }).n
    : 0;
  return (
    <div className="pl-card" data-testid="contact-card" data-id={contact.id}>
      <div className="pl-card-hero">
        <Avatar name={contact.name} size={96} />
        <h1 data-testid="contact-name">{contact.name}</h1>
        <p className="pl-muted" data-testid="contact-relationship">
          {REL[contact.relationship ?? "other"] ?? contact.relationship}
          {contact.city ? ` · ${contact.city}` : ""}
        </p>
        <div className="pl-card-actions">
          {direct ? (
            <Link href={`/c/${direct}`} className="pl-primary">
              Message
            </Link>
          ) : (
            <form action="/api/direct" method="post">
              <input type="hidden" name="_idem" value={idempotencyToken()} />
              <input type="hidden" name="contact" value={contact.id} />
              <button className="pl-primary" type="submit">
                Message
              </button>
            </form>
          )}
        </div>
      </div>
      <dl className="pl-facts">
        <div>
          <dt>Phone</dt>
          <dd data-testid="contact-phone">{contact.phone}</dd>
        </div>
        <div>
          <dt>Email</dt>
          <dd data-testid="contact-email">{contact.email ?? "—"}</dd>
        </div>
        <div>
          <dt>Messages</dt>
          <dd data-testid="message-count" data-count={count}>
            {count.toLocaleString("en-US")} in your chat
          </dd>
        </div>
        {birthday ? (
          <div>
            <dt>Birthday</dt>
            <dd>{birthday}</dd>
          </div>
        ) : null}
        {activities.length ? (
          <div>
            <dt>You both like</dt>
            <dd>{activities.join(", ")}</dd>
          </div>
        ) : null}
      </dl>
      <section className="pl-card-section">
        <h2>{groups.length === 1 ? "1 group in common" : `${groups.length} groups in common`}</h2>
        <ul data-testid="shared-groups">
          {groups.map((g) => (
            <li key={g.id}>
              <Link href={`/c/${g.id}`} data-testid="shared-group">
                <Avatar name={g.title} group size={32} /> {g.title}
              </Link>
            </li>
          ))}
          {groups.length === 0 ? <li className="pl-muted">No groups together yet.</li> : null}
        </ul>
      </section>
    </div>
  );
}
