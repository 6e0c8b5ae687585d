import Link from "next/link";
import { Avatar } from "@/messaging/components/Avatar";
import { Sidebar } from "@/messaging/components/Sidebar";
import { searchMessages } from "@/messaging/lib/chat";
import { chatContext } from "@/messaging/lib/context";
import { listTime } from "@/messaging/lib/format";

export const metadata = { title: "Search" };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

/** `text` with every case-insensitive occurrence of `q` in <mark> (rendered as text, never HTML). */
function Highlight({ text, q }: { text: string; q: string }) {
  const parts: React.ReactNode[] = [];
  const lower = text.toLowerCase();
  const needle = q.toLowerCase();
  let i = 0;
  let k = 0;
  while (needle && i < text.length) {
    const j = lower.indexOf(needle, i);
    if (j < 0) break;
    parts.push(text.slice(i, j), <mark key={k++}>{text.slice(j, j + needle.length)}</mark>);
    i = j + needle.length;
  }
  parts.push(text.slice(i));
  return <>{parts}</>;
}

export default async function SearchPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const q = one((await searchParams).q).trim().slice(0, 200);
  const ctx = chatContext();
  const { total, hits } = q ? searchMessages(q, ctx.now) : { total: 0, hits: [] };
  return (
    <>
      <Sidebar q={q} />
      <main className="pl-main pl-panel">
        <header className="pl-panel-head">
          <h1>Search messages</h1>
          {q ? (
            <p data-testid="search-count" data-total={total}>
              {total === 1 ? "1 message" : `${total.toLocaleString("en-US")} messages`} matching “{q}”
              {total > hits.length ? `, the newest ${hits.length} shown` : ""}
            </p>
          ) : (
            <p className="pl-muted">Type a word in the search box to find it in every conversation.</p>
          )}
        </header>
        <ul className="pl-hits" data-testid="search-results">
          {hits.map((h) => {
            const name = (h.kind === "direct" ? h.contact_name : h.title) ?? "";
            const who = h.sender_id === null ? "You" : (h.sender_name ?? "");
            return (
              <li key={h.id}>
                <Link href={`/c/${h.conversation_id}?m=${h.id}#m${h.id}`} className="pl-hit" data-testid="search-hit" data-id={h.id}>
                  <Avatar name={name} group={h.kind === "group"} size={40} />
                  <span className="pl-item-main">
                    <span className="pl-item-top">
                      <span className="pl-item-name">{name}</span>
                      <span className="pl-item-time">{listTime(h.deliver_at, ctx.today, ctx.locale)}</span>
                    </span>
                    <span className="pl-hit-text">
                      <b>{who}:</b> <Highlight text={h.body.length > 240 ? `${h.body.slice(0, 240)}…` : h.body} q={q} />
                    </span>
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      </main>
    </>
  );
}
