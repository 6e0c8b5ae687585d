import { errorMessage, idValue, lookupId } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Avatar } from "@/messaging/components/Avatar";
import { AutoRefresh, Composer, MarkRead, ScrollTo } from "@/messaging/components/Live";
import { Sidebar } from "@/messaging/components/Sidebar";
import {
  MAX_MESSAGE,
  TAPBACKS,
  canEdit,
  conversationName,
  getConversation,
  memberNames,
  messageIn,
  messageWindow,
  pendingReply,
  reactionsFor,
  unreadCount,
} from "@/messaging/lib/chat";
import { chatContext } from "@/messaging/lib/context";
import { clock, dayLabel, readLabel } from "@/messaging/lib/format";

type Params = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

export async function generateMetadata({ params }: Params) {
  const c = getConversation(lookupId((await params).id));
  return { title: c ? conversationName(c) : "Conversation" };
}

export default async function ConversationPage({ params, searchParams }: Params) {
  const id = lookupId((await params).id);
  const sp = await searchParams;
  const conv = getConversation(id);
  if (!conv) notFound();
  const ctx = chatContext();
  const around = idValue(one(sp.m)) ?? undefined;
  const before = idValue(one(sp.before)) ?? undefined;
  const win = messageWindow(id, ctx.now, { around, before });
  // The composer's bar: replying to a message (?reply=<id>) or editing one of mine (?edit=<id>).
  const quoting = messageIn(id, idValue(one(sp.reply)) ?? Number.NaN, ctx.now);
  const editing = messageIn(id, idValue(one(sp.edit)) ?? Number.NaN, ctx.now);
  const shown = new Set(win.messages.map((m) => m.id));
  // A message's menu closes once one of its links (Reply, Edit) has been followed.
  const menuKey = `${one(sp.reply)}|${one(sp.edit)}`;
  const reactions = reactionsFor(win.messages.map((m) => m.id));
  const pending = pendingReply(id, ctx.now);
  const unread = unreadCount(id, ctx.now);
  const name = conversationName(conv);
  const members = conv.kind === "group" ? memberNames(id) : [];
  const lastMine = [...win.messages].reverse().find((m) => m.sender_id === null);
  const isGroup = conv.kind === "group";
  let day = "";
  return (
    <>
      <Sidebar active={id} />
      <main className="pl-main" data-testid="conversation-pane" data-id={id}>
        <header className="pl-conv-head">
          <Link href={conv.kind === "direct" ? `/contacts/${conv.contact_id}` : `/c/${id}/info`} className="pl-conv-who" data-testid="conversation-info-link">
            <Avatar name={name} group={isGroup} size={40} />
            <span>
              <span className="pl-conv-name" data-testid="conversation-title">
                {name}
              </span>
              <span className="pl-conv-sub">
                {pending ? (
                  <em data-testid="typing">{isGroup ? `${pending.name.split(" ")[0]} is typing…` : "typing…"}</em>
                ) : isGroup ? (
                  <span data-testid="group-members">{[...members, "You"].join(", ")}</span>
                ) : (
                  "tap here for contact info"
                )}
              </span>
            </span>
          </Link>
        </header>
        <section className="pl-thread" data-testid="thread">
          {win.hasEarlier && win.messages[0] ? (
            <p className="pl-earlier">
              <Link href={`/c/${id}?before=${win.messages[0].id}`} data-testid="load-earlier">
                Show earlier messages
              </Link>
            </p>
          ) : null}
          {win.messages.length === 0 ? <p className="pl-system">No messages yet. Say hello!</p> : null}
          {win.messages.map((m, i) => {
            const mine = m.sender_id === null;
            const label = dayLabel(m.deliver_at, ctx.today, ctx.locale);
            const sep = label !== day;
            day = label;
            const prev = win.messages[i - 1];
            const firstOfRun = sep || !prev || prev.sender_id !== m.sender_id;
            const rs = reactions.get(m.id) ?? [];
            const counts = new Map<string, { n: number; mine: boolean }>();
            for (const r of rs) {
              const c = counts.get(r.emoji) ?? { n: 0, mine: false };
              counts.set(r.emoji, { n: c.n + 1, mine: c.mine || r.contact_id === null });
            }
            const readAt = mine ? win.readAt.get(m.id) : null;
            const gone = !!m.deleted_at;
            return (
              <div key={m.id}>
                {sep ? (
                  <div className="pl-day" data-testid="day-separator">
                    <span>{label}</span>
                  </div>
                ) : null}
                <div
                  id={`m${m.id}`}
                  className={`pl-row ${mine ? "is-mine" : "is-theirs"}${firstOfRun ? " is-first" : ""}${m.id === around ? " is-target" : ""}`}
                  data-testid="message"
                  data-id={m.id}
                  data-mine={mine ? "1" : "0"}
                  data-edited={m.edited_at && !gone ? "1" : "0"}
                  data-deleted={gone ? "1" : "0"}
                >
                  <div className="pl-bubble">
                    {isGroup && !mine && firstOfRun ? <span className="pl-sender">{m.sender_name}</span> : null}
                    {gone ? (
                      <p className="pl-text pl-deleted" data-testid="message-tombstone">
                        <svg viewBox="0 0 24 24" width="14" height="14" fill="currentColor" aria-hidden="true">
                          <path d="M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm0 2a8 8 0 0 1 6.3 12.9L7.1 5.7A8 8 0 0 1 12 4Zm0 16a8 8 0 0 1-6.3-12.9l11.2 11.2A8 8 0 0 1 12 20Z" />
                        </svg>
                        {mine ? "You deleted this message" : "This message was deleted"}
                      </p>
                    ) : (
                      <>
                        {m.quote_id && m.quote_mine !== null ? (
                          <Link
                            href={shown.has(m.quote_id) ? `#m${m.quote_id}` : `/c/${id}?m=${m.quote_id}#m${m.quote_id}`}
                            className={`pl-quote${m.quote_mine ? " is-mine" : ""}`}
                            data-testid="quote"
                            data-quote-id={m.quote_id}
                          >
                            <span className="pl-quote-who" data-testid="quote-sender">
                              {m.quote_mine ? "You" : m.quote_sender}
                            </span>
                            <span className="pl-quote-text" data-testid="quote-text">
                              {m.quote_deleted ? "This message was deleted" : (m.quote_body ?? "").split("\n")[0]}
                            </span>
                          </Link>
                        ) : null}
                        <p className="pl-text" data-testid="message-text">
                          {m.body}
                        </p>
                      </>
                    )}
                    <span className="pl-meta">
                      {m.edited_at && !gone ? (
                        <span className="pl-edited" data-testid="edited" title={`Edited ${clock(m.edited_at, ctx.locale)}`}>
                          Edited
                        </span>
                      ) : null}
                      <time dateTime={m.deliver_at}>{clock(m.deliver_at, ctx.locale)}</time>
                      {mine ? (
                        <span className={`pl-ticks${readAt ? " is-read" : ""}`} aria-label={readAt ? "Read" : "Delivered"}>
                          ✓✓
                        </span>
                      ) : null}
                    </span>
                    {counts.size && !gone ? (
                      <span className="pl-reactions" data-testid="reactions">
                        {[...counts].map(([emoji, c]) => (
                          <span key={emoji} className={`pl-chip${c.mine ? " is-mine" : ""}`} data-testid="reaction" data-emoji={emoji} data-mine={c.mine ? "1" : "0"}>
                            {emoji}
                            {c.n > 1 ? <small>{c.n}</small> : null}
                          </span>
                        ))}
                      </span>
                    ) : null}
                  </div>
                  {gone ? null : (
                    <details className="pl-more" key={`more-${m.id}-${menuKey}`}>
                      <summary aria-label="Message options" title="Message options" data-testid="message-menu">
                        <svg viewBox="0 0 24 24" width="16" height="16" fill="currentColor" aria-hidden="true">
                          <path d="M7.4 9.3 12 13.9l4.6-4.6L18 10.7l-6 6-6-6 1.4-1.4Z" />
                        </svg>
                      </summary>
                      <div className="pl-more-menu" role="menu">
                        <Link href={`/c/${id}?reply=${m.id}`} role="menuitem" data-testid="reply-open">
                          Reply
                        </Link>
                        {canEdit(m, ctx.now) ? (
                          <Link href={`/c/${id}?edit=${m.id}`} role="menuitem" data-testid="edit-open">
                            Edit
                          </Link>
                        ) : null}
                        {mine ? (
                          <form action="/api/messages/delete" method="post">
                            <input type="hidden" name="_idem" value={idempotencyToken()} />
                            <input type="hidden" name="conversation" value={id} />
                            <input type="hidden" name="message" value={m.id} />
                            <button type="submit" role="menuitem" className="is-danger" data-testid="delete-message">
                              Delete for everyone
                            </button>
                          </form>
                        ) : null}
                      </div>
                    </details>
                  )}
                  {gone ? null : (
                  <details className="pl-react">
                    <summary aria-label="React" title="React" data-testid="react-open">
                      <svg viewBox="0 0 24 24" width="16" height="16" fill="currentColor" aria-hidden="true">
                        <path d="M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm0 18a8 8 0 1 1 0-16 8 8 0 0 1 0 16Zm-3.5-9a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3Zm7 0a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3ZM12 17.5c2.3 0 4.3-1.5 5-3.5H7c.7 2 2.7 3.5 5 3.5Z" />
                      </svg>
                    </summary>
                    <form action="/api/reactions" method="post" className="pl-react-menu">
                      <input type="hidden" name="_idem" value={idempotencyToken()} />
                      <input type="hidden" name="message" value={m.id} />
                      {TAPBACKS.map((e) => (
                        <button key={e} type="submit" name="emoji" value={e} data-testid="tapback" data-emoji={e} className={counts.get(e)?.mine ? "is-on" : ""}>
                          {e}
                        </button>
                      ))}
                    </form>
                  </details>
                  )}
                </div>
                {mine && lastMine?.id === m.id ? (
                  <p className="pl-receipt" data-testid="receipt">
                    {readAt ? readLabel(readAt, ctx.today, ctx.locale) : "Delivered"}
                  </p>
                ) : null}
              </div>
            );
          })}
          {pending ? (
            <div className="pl-row is-theirs is-first" data-testid="typing-bubble">
              <div className="pl-bubble pl-typing" aria-label={`${pending.name} is typing`}>
                <i />
                <i />
                <i />
              </div>
            </div>
          ) : null}
          <div id="pl-end" />
        </section>
        <Composer
          conversation={id}
          max={MAX_MESSAGE}
          error={errorMessage(sp)}
          idem={idempotencyToken()}
          quote={
            quoting && !quoting.deleted_at && !editing
              ? { id: quoting.id, who: quoting.sender_id === null ? "You" : (quoting.sender_name ?? ""), text: quoting.body.split("\n")[0]! }
              : undefined
          }
          edit={editing && canEdit(editing, ctx.now) ? { id: editing.id, text: editing.body } : undefined}
        />
        <ScrollTo target={around} stamp={`${win.messages.length}|${win.messages[win.messages.length - 1]?.id ?? 0}`} />
        <MarkRead conversation={id} unread={unread} />
        {pending ? <AutoRefresh everyMs={2000} /> : null}
      </main>
    </>
  );
}
