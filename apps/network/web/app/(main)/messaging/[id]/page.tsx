import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Frame } from "@/network/components/Frame";
import { Flash } from "@/network/components/Nav";
import { Threads } from "@/network/components/Threads";
import { requireUser } from "@/network/lib/auth";
import { networkContext } from "@/network/lib/context";
import { LIMITS, getThread, listThreads, markThreadRead, threadMessages } from "@/network/lib/network";

export default async function ThreadPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { id } = await params;
  const sp = await searchParams;
  const user = await requireUser();
  const { now } = networkContext();
  const t = /^\d{1,9}$/.test(id) ? getThread(Number(id)) : null;
  if (!t) notFound();
  markThreadRead(t.id, now);
  const msgs = threadMessages(t.id, now);
  return (
    <Frame active="messaging">
      <div className="gl-card gl-messaging">
        <div className="gl-thread-list">
          <h2 className="gl-h2">Messaging</h2>
          <Threads threads={listThreads(now)} now={now} current={t.id} />
        </div>
        <div className="gl-thread-pane">
          <header className="gl-thread-head">
            <Link href={`/in/${t.person_id}`} className="gl-strong" data-testid="thread-name">{t.name}</Link>
            <div className="gl-muted gl-small">{t.headline}{t.job_title ? ` · about: ${t.job_title}` : ""}</div>
          </header>
          <ol className="gl-msgs">
            {msgs.map((m) => (
              <li key={m.id} data-testid="message" data-mine={m.sender_id === null ? "1" : "0"}>
                <span className="gl-strong">{m.sender_id === null ? user.full_name : t.name}</span>{" "}
                <span className="gl-muted gl-small">{m.sent_at.slice(0, 16).replace("T", " ")}</span>
                <p data-testid="message-text">{m.body}</p>
              </li>
            ))}
          </ol>
          <Flash error={errorMessage(sp)} />
          <form action="/api/messages" method="post" className="gl-form" data-testid="message-form">
            <input type="hidden" name="_idem" value={idempotencyToken()} />
            <input type="hidden" name="thread" value={t.id} />
            <input type="hidden" name="back" value={`/messaging/${t.id}`} />
            <textarea name="body" rows={3} placeholder="Write a message…" aria-label="Write a message" maxLength={LIMITS.message} />
            <button type="submit" className="gl-primary">Send</button>
          </form>
        </div>
      </div>
    </Frame>
  );
}
