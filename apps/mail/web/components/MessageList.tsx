import Link from "next/link";
import { listDate } from "@/mail/lib/format";
import { people, type ListPage, type LabelRow } from "@/mail/lib/mail";
import { withQuery } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";

/**
 * A Gmail-style conversation list: a toolbar acting on the checked rows, then one row per
 * conversation (star, senders, labels, subject, snippet, date). `here` is the page's own path
 * with its query, where the toolbar's actions come back to.
 */
export function MessageList({
  title,
  list,
  here,
  basePath,
  query,
  today,
  locale,
  labels,
  folder,
  showRecipients = false,
}: {
  title: string;
  list: ListPage;
  here: string;
  basePath: string;
  query?: Record<string, string>;
  today: string;
  locale: string;
  labels: LabelRow[];
  folder?: string;
  showRecipients?: boolean;
}) {
  const first = list.threads ? (list.page - 1) * 50 + 1 : 0;
  const last = Math.min(list.page * 50, list.threads);
  const inTrash = folder === "trash";
  const inSpam = folder === "spam";
  const isDrafts = folder === "drafts";
  return (
    <section className="mb-list" aria-label={title}>
      <form id="bulk" action="/api/messages" method="post" className="mb-toolbar">
        <input type="hidden" name="_idem" value={idempotencyToken()} />
        <input type="hidden" name="back" value={here} />
        <input type="hidden" name="thread" value="1" />
        <h1 className="mb-list-title">{title}</h1>
        {!isDrafts ? (
          <div className="mb-tools" role="toolbar" aria-label="Actions on selected conversations">
            {inTrash ? (
              <button name="op" value="restore" className="mb-tool">Restore</button>
            ) : (
              <>
                {folder === "inbox" || inSpam || !folder || folder === "starred" ? (
                  <button name="op" value="archive" className="mb-tool" title="Archive">Archive</button>
                ) : (
                  <button name="op" value="inbox" className="mb-tool" title="Move to Inbox">Move to Inbox</button>
                )}
                {!inSpam ? <button name="op" value="spam" className="mb-tool" title="Report spam">Spam</button> : null}
                <button name="op" value="trash" className="mb-tool" title="Delete">Delete</button>
              </>
            )}
            <button name="op" value="read" className="mb-tool">Mark read</button>
            <button name="op" value="unread" className="mb-tool">Mark unread</button>
            <button name="op" value="star" className="mb-tool">Star</button>
            <select name="label" aria-label="Label" className="mb-select" defaultValue="">
              <option value="">Label…</option>
              {labels.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name}
                </option>
              ))}
            </select>
            <button name="op" value="label" className="mb-tool">Apply label</button>
            <button name="op" value="move" className="mb-tool">Move to label</button>
          </div>
        ) : null}
        <div className="mb-count" data-testid="list-count" data-threads={list.threads} data-messages={list.messages} data-unread={list.unread}>
          {list.threads ? `${first}–${last} of ${list.threads.toLocaleString(locale)}` : "0"}
          <span className="mb-count-detail">
            {" "}
            · {list.messages.toLocaleString(locale)} messages, {list.unread.toLocaleString(locale)} unread
          </span>
          {list.page > 1 ? (
            <Link className="mb-pager" href={withQuery(basePath, { ...query, page: list.page - 1 })} aria-label="Newer">
              ‹
            </Link>
          ) : (
            <span className="mb-pager mb-pager-off">‹</span>
          )}
          {list.page < list.pages ? (
            <Link className="mb-pager" href={withQuery(basePath, { ...query, page: list.page + 1 })} aria-label="Older" data-testid="older">
              ›
            </Link>
          ) : (
            <span className="mb-pager mb-pager-off">›</span>
          )}
        </div>
      </form>
      {list.conversations.length === 0 ? (
        <p className="mb-empty" data-testid="empty">
          {isDrafts ? "You have no saved drafts." : "No conversations here."}
        </p>
      ) : (
        <ul className="mb-rows">
          {list.conversations.map((c) => {
            const m = c.latest;
            const href = isDrafts ? `/compose?draft=${m.id}` : `/t/${c.thread_id}`;
            const who = showRecipients
              ? `To: ${people(m.to_json).map((p) => p.name || p.email).join(", ") || "(no recipients)"}`
              : c.senders.slice(-3).join(", ");
            return (
              <li key={c.thread_id} className={`mb-row${c.unread ? " mb-unread" : ""}`} data-testid="conversation" data-thread={c.thread_id}>
                <input type="checkbox" name="id" value={m.id} form="bulk" aria-label={`Select: ${m.subject || "(no subject)"}`} className="mb-check" />
                <form action="/api/messages" method="post" className="mb-starform">
                  <input type="hidden" name="_idem" value={idempotencyToken()} />
                  <input type="hidden" name="back" value={here} />
                  <input type="hidden" name="id" value={m.id} />
                  <input type="hidden" name="thread" value="1" />
                  <button name="op" value={c.starred ? "unstar" : "star"} className={`mb-star${c.starred ? " on" : ""}`} aria-label={c.starred ? "Unstar" : "Star"} data-testid="star">
                    {c.starred ? "★" : "☆"}
                  </button>
                </form>
                <Link href={href} className="mb-row-link">
                  <span className="mb-from" data-testid="from">
                    {isDrafts ? <span className="mb-draft-tag">Draft</span> : null}
                    {who}
                    {c.in_thread > 1 ? <span className="mb-n"> {c.in_thread}</span> : null}
                  </span>
                  <span className="mb-main">
                    {c.labels
                      .filter((l) => l.name !== folder)
                      .slice(0, 3)
                      .map((l) => (
                        <span key={l.id} className="mb-chip" style={{ borderColor: l.color, color: l.color }}>
                          {l.name}
                        </span>
                      ))}
                    <span className="mb-subject" data-testid="subject">
                      {m.subject || "(no subject)"}
                    </span>
                    <span className="mb-snippet"> – {m.snippet}</span>
                  </span>
                  {c.attachments ? <span className="mb-clip" aria-label="Has attachment">📎</span> : <span className="mb-clip" />}
                  <span className="mb-date" data-testid="date">
                    {listDate(m.sent_at, today, locale)}
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
