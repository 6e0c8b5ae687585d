import Link from "next/link";
import { MessageItem } from "@/workchat/components/MessageItem";
import { requireUser } from "@/workchat/lib/auth";
import { listChannels, listPeople } from "@/workchat/lib/chat";
import { chatContext, formatters } from "@/workchat/lib/context";
import { channelPath } from "@/workchat/lib/paths";
import { searchMessages } from "@/workchat/lib/search";

export const metadata = { title: "Search" };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

/** Search messages: words plus in:#channel, from:@handle, before:/after:/on: dates. */
export default async function SearchPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const ctx = chatContext();
  const f = formatters(ctx);
  const sp = await searchParams;
  // The channel header's search box sends `in` apart from the words: fold it into the query.
  const within = one(sp.in).trim();
  const words = one(sp.q).slice(0, 500);
  const q = within && !/(^|\s)in:/.test(words) ? `in:${within} ${words}`.trim() : words;
  const result = q.trim() ? searchMessages(user.person_id, ctx.now, q) : null;
  const people = listPeople();
  const channels = listChannels(user.person_id, ctx.now);
  const back = `/search?q=${encodeURIComponent(q)}`;
  return (
    <div className="hd-page">
      <header className="hd-page-head">
        <h1>Search</h1>
      </header>
      <div className="hd-page-body">
        <form action="/search" method="get" className="hd-search-form" role="search" data-testid="search-form">
          <input name="q" type="search" defaultValue={q} placeholder="Search messages, e.g. in:#general from:@sam.okafor lunch" aria-label="Search" autoFocus />
          <button type="submit" className="hd-btn hd-btn-primary">
            Search
          </button>
        </form>
        <p className="hd-search-help muted small">
          Narrow it down with <code>in:#channel</code>, <code>from:@name</code>, <code>from:me</code>, <code>on:2026-11-12</code>,{" "}
          <code>before:</code> and <code>after:</code>. Channels:{" "}
          {channels
            .filter((c) => c.kind === "channel")
            .map((c) => `#${c.name}`)
            .join(", ")}
          . People: {people.map((p) => `@${p.handle}`).join(", ")}.
        </p>
        {result ? (
          <>
            {result.unknown ? (
              <p className="hd-search-unknown" role="alert" data-testid="search-unknown">
                {result.unknown}
              </p>
            ) : null}
            <p className="hd-result-count" data-testid="result-count" data-total={result.total}>
              {result.total.toLocaleString("en-US")} {result.total === 1 ? "result" : "results"}
              {result.total > result.messages.length ? ` (showing the ${result.messages.length} most recent)` : ""}
            </p>
            {result.messages.map((m) => (
              <div key={m.id} className="hd-card" data-testid="search-result">
                <MessageItem
                  m={m}
                  view={{ back, meId: user.person_id, meName: user.name, f, showChannel: true, threadHref: m.thread_root_id ? channelPath(m.channel_name, { thread: m.thread_root_id }) : channelPath(m.channel_name, { thread: m.id }) }}
                />
              </div>
            ))}
          </>
        ) : (
          <div className="hd-empty">
            <p className="muted">
              Try <Link href={`/search?q=${encodeURIComponent("in:#general")}`}>in:#general</Link> or <Link href={`/search?q=${encodeURIComponent("from:me")}`}>from:me</Link>.
            </p>
          </div>
        )}
      </div>
    </div>
  );
}
