import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import Link from "next/link";
import { RichText } from "@/workchat/components/RichText";
import { requireUser } from "@/workchat/lib/auth";
import { scheduledMessages } from "@/workchat/lib/chat";
import { chatContext, formatters } from "@/workchat/lib/context";
import { channelPath } from "@/workchat/lib/paths";

export const metadata = { title: "Scheduled messages" };

const DONE: Record<string, string> = { send: "Message sent.", reschedule: "Message rescheduled.", delete: "Scheduled message deleted." };

/** The persona's messages waiting to go out, soonest first: Send now, Reschedule, Delete. */
export default async function ScheduledPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const ctx = chatContext();
  const f = formatters(ctx);
  const sp = await searchParams;
  const items = scheduledMessages(user.person_id, ctx.now);
  const error = errorMessage(sp);
  const done = DONE[typeof sp.done === "string" ? sp.done : ""];
  return (
    <div className="hd-page">
      <header className="hd-page-head">
        <h1>Scheduled messages</h1>
        <span className="muted" data-testid="scheduled-count" data-count={items.length}>
          {items.length} {items.length === 1 ? "message" : "messages"}
        </span>
      </header>
      {error ? <div className="hd-notice hd-notice-error" role="alert" data-testid="error">{error}</div> : null}
      {done ? <div className="hd-notice" role="status" data-testid="notice">{done}</div> : null}
      <div className="hd-page-body">
        {items.length === 0 ? (
          <div className="hd-empty">
            <p>
              <b>No scheduled messages</b>
            </p>
            <p className="muted">Schedule a message from the clock beside Send in any conversation.</p>
          </div>
        ) : null}
        <ul className="hd-sched-list" data-testid="scheduled">
          {items.map((m) => (
            <li key={m.id} data-testid="scheduled-message" data-id={m.id} data-channel={m.channel} data-at={m.deliver_at}>
              <div className="muted small">
                To <Link href={channelPath(m.channel)}>{m.kind === "dm" ? m.dm_name : `#${m.channel}`}</Link>
                {m.thread_root_id ? " (in a thread)" : ""} · <b>{f.day(m.deliver_at)} at {f.time(m.deliver_at)}</b>
              </div>
              <div className="hd-text" data-testid="scheduled-text">
                <RichText text={m.text} mentions={JSON.parse(m.mentions_json) as string[]} me={user.name} />
              </div>
              <form action="/api/scheduled" method="post" className="hd-sched-actions">
                <input type="hidden" name="_idem" value={idempotencyToken()} />
                <input type="hidden" name="message" value={m.id} />
                <input type="hidden" name="back" value="/scheduled" />
                <button type="submit" name="action" value="send" className="hd-btn" data-testid="send-now">Send now</button>
                <input type="datetime-local" name="at" defaultValue={m.deliver_at.slice(0, 16)} min={ctx.now.slice(0, 16)} aria-label="New time" />
                <button type="submit" name="action" value="reschedule" className="hd-btn" data-testid="reschedule">Reschedule</button>
                <button type="submit" name="action" value="delete" className="hd-btn" data-testid="delete">Delete</button>
              </form>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
