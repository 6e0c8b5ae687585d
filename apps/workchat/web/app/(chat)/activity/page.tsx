import Link from "next/link";
import { MessageItem } from "@/workchat/components/MessageItem";
import { requireUser } from "@/workchat/lib/auth";
import { activity } from "@/workchat/lib/chat";
import { chatContext, formatters } from "@/workchat/lib/context";
import { glyph } from "@/workchat/lib/emoji";

export const metadata = { title: "Mentions & reactions" };

/** "Mentions & reactions": where the persona was @mentioned and who reacted to its messages. */
export default async function ActivityPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const ctx = chatContext();
  const f = formatters(ctx);
  const raw = (await searchParams).show;
  const show = (Array.isArray(raw) ? raw[0] : raw) === "mentions" ? "mention" : (Array.isArray(raw) ? raw[0] : raw) === "reactions" ? "reaction" : "all";
  const items = activity(user.person_id, ctx.now).filter((a) => show === "all" || a.kind === show);
  const view = { back: "/activity", meId: user.person_id, meName: user.name, f, showChannel: true };
  return (
    <div className="hd-page">
      <header className="hd-page-head">
        <h1>Mentions &amp; reactions</h1>
        <nav className="hd-tabs hd-tabs-inline" aria-label="Show">
          {([["all", "All", "/activity"], ["mention", "Mentions", "/activity?show=mentions"], ["reaction", "Reactions", "/activity?show=reactions"]] as const).map(([k, label, href]) => (
            <Link key={k} href={href} className={`hd-tab${show === k ? " is-active" : ""}`} data-testid={`activity-tab-${k}`}>
              {label}
            </Link>
          ))}
        </nav>
      </header>
      <div className="hd-page-body" data-testid="activity">
        {items.length === 0 ? <p className="muted">When someone mentions you or reacts to your messages, you’ll see it here.</p> : null}
        {items.map((a, i) => (
          <div key={`${a.kind}-${a.message.id}-${a.by ?? ""}-${a.emoji ?? ""}-${i}`} className="hd-card" data-testid={`activity-${a.kind}`}>
            <div className="hd-activity-head">
              {a.kind === "mention" ? (
                <span>
                  <b>@</b> <b>{a.message.sender_name}</b> mentioned you
                </span>
              ) : (
                <span>
                  {glyph(a.emoji ?? "")} <b>{a.by}</b> reacted to your message
                </span>
              )}
            </div>
            <MessageItem m={a.message} view={view} />
          </div>
        ))}
      </div>
    </div>
  );
}
