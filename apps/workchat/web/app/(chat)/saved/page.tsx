import { MessageItem } from "@/workchat/components/MessageItem";
import { requireUser } from "@/workchat/lib/auth";
import { savedMessages } from "@/workchat/lib/chat";
import { chatContext, formatters } from "@/workchat/lib/context";
import { channelPath } from "@/workchat/lib/paths";

export const metadata = { title: "Saved items" };

/** Messages saved for later, most recently saved first. */
export default async function SavedPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const user = await requireUser();
  const ctx = chatContext();
  const f = formatters(ctx);
  const items = savedMessages(user.person_id, ctx.now);
  const notice = (await searchParams).notice;
  return (
    <div className="hd-page">
      <header className="hd-page-head">
        <h1>Saved items</h1>
        <span className="muted" data-testid="saved-count" data-count={items.length}>
          {items.length} {items.length === 1 ? "item" : "items"}
        </span>
      </header>
      {notice ? <div className="hd-notice">{notice}</div> : null}
      <div className="hd-page-body" data-testid="saved">
        {items.length === 0 ? (
          <div className="hd-empty">
            <p>
              <b>Nothing saved yet</b>
            </p>
            <p className="muted">Save messages for later from their hover menu (🏷) and they gather here.</p>
          </div>
        ) : null}
        {items.map((m) => (
          <div key={m.id} className="hd-card">
            <MessageItem
              m={m}
              view={{ back: "/saved", meId: user.person_id, meName: user.name, f, showChannel: true, threadHref: m.thread_root_id ? undefined : channelPath(m.channel_name, { thread: m.id }) }}
            />
          </div>
        ))}
      </div>
    </div>
  );
}
