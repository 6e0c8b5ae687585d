import { MessageItem } from "@/workchat/components/MessageItem";
import { requireUser } from "@/workchat/lib/auth";
import { activity } from "@/workchat/lib/chat";
import { chatContext, formatters } from "@/workchat/lib/context";
import { glyph } from "@/workchat/lib/emoji";

export const metadata = { title: "Mentions & reactions" };

/** "Mentions & reactions": where the persona was @mentioned and who reacted to its messages. */
export default async function ActivityPage() {
  const user = await requireUser();
  const ctx = chatContext();
  const f = formatters(ctx);
  const items = activity(user.person_id, ctx.now);
  const view = { back: "/activity", meId: user.person_id, meName: user.name, f, showChannel: true };
  return (
    <div className="hd-page">
      <header className="hd-page-head">
        <h1>Mentions &amp; reactions</h1>
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
