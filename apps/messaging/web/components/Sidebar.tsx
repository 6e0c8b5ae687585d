import Link from "next/link";
import { Avatar, Logo } from "@/messaging/components/Avatar";
import { listConversations } from "@/messaging/lib/chat";
import { chatContext } from "@/messaging/lib/context";
import { listTime } from "@/messaging/lib/format";

/** The left pane: brand bar, search, and every conversation, newest first, with unread badges. */
export function Sidebar({ active, q = "" }: { active?: number; q?: string }) {
  const ctx = chatContext();
  const items = listConversations(ctx.now);
  return (
    <aside className="pl-side">
      <header className="pl-side-head">
        <Link href="/" className="pl-brand">
          <Logo /> <span>Parley</span>
        </Link>
        <nav className="pl-side-actions">
          <Link href="/new-group" className="pl-iconbtn" title="New group" data-testid="new-group-link">
            <svg viewBox="0 0 24 24" width="20" height="20" fill="currentColor" aria-hidden="true">
              <path d="M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm-7 9c0-3.3 3.1-6 7-6s7 2.7 7 6v1H2v-1Zm17-12V5h-2v3h-3v2h3v3h2v-3h3V8h-3Z" />
            </svg>
            <span className="sr-only">New group</span>
          </Link>
          <form action="/api/logout" method="post">
            <button className="pl-linkbtn" type="submit">Sign out</button>
          </form>
        </nav>
      </header>
      <form action="/search" method="get" className="pl-search" role="search">
        <svg viewBox="0 0 24 24" width="16" height="16" fill="currentColor" aria-hidden="true">
          <path d="M10 3a7 7 0 0 1 5.6 11.2l5.1 5.1-1.4 1.4-5.1-5.1A7 7 0 1 1 10 3Zm0 2a5 5 0 1 0 0 10 5 5 0 0 0 0-10Z" />
        </svg>
        <input name="q" defaultValue={q} placeholder="Search messages" aria-label="Search messages" data-testid="search-input" maxLength={200} />
      </form>
      <ul className="pl-list" data-testid="conversation-list">
        {items.map((c) => {
          const preview = c.last?.deleted_at
            ? c.last.sender_id === null
              ? "🚫 You deleted this message"
              : "🚫 This message was deleted"
            : c.last
            ? `${c.last.sender_id === null ? "You: " : c.kind === "group" ? `${(c.last.sender_name ?? "").split(" ")[0]}: ` : ""}${c.last.body}`
            : c.kind === "group"
              ? `${c.members.length + 1} people`
              : "No messages yet";
          return (
            <li key={c.id}>
              <Link
                href={`/c/${c.id}`}
                className={`pl-item${c.id === active ? " is-active" : ""}${c.unread ? " is-unread" : ""}`}
                data-testid="conversation"
                data-id={c.id}
                data-name={c.name}
                data-unread={c.unread}
                data-kind={c.kind}
              >
                <Avatar name={c.name} group={c.kind === "group"} size={48} />
                <span className="pl-item-main">
                  <span className="pl-item-top">
                    <span className="pl-item-name">{c.name}</span>
                    <span className="pl-item-time">{listTime(c.last_at, ctx.today, ctx.locale)}</span>
                  </span>
                  <span className="pl-item-bottom">
                    <span className="pl-item-preview" data-testid="conversation-preview">
                      {preview.length > 90 ? `${preview.slice(0, 90)}…` : preview}
                    </span>
                    {c.unread ? (
                      <span className="pl-badge" data-testid="unread-badge" aria-label={`${c.unread} unread`}>
                        {c.unread}
                      </span>
                    ) : null}
                  </span>
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </aside>
  );
}
