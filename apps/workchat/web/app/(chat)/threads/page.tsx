import Link from "next/link";
import { MessageItem } from "@/workchat/components/MessageItem";
import { requireUser } from "@/workchat/lib/auth";
import { channelLabel, listChannels, myThreads } from "@/workchat/lib/chat";
import { chatContext, formatters } from "@/workchat/lib/context";
import { channelPath } from "@/workchat/lib/paths";

export const metadata = { title: "Threads" };

/** Threads the persona is in, latest activity first: the root and its last replies. */
export default async function ThreadsPage() {
  const user = await requireUser();
  const ctx = chatContext();
  const f = formatters(ctx);
  const threads = myThreads(user.person_id, ctx.now);
  const chans = new Map(listChannels(user.person_id, ctx.now).map((c) => [c.name, c]));
  const view = { back: "/threads", meId: user.person_id, meName: user.name, f };
  return (
    <div className="hd-page">
      <header className="hd-page-head">
        <h1>Threads</h1>
      </header>
      <div className="hd-page-body" data-testid="threads">
        {threads.length === 0 ? <p className="muted">Threads you start or reply in show up here.</p> : null}
        {threads.map((t) => (
          <article key={t.root.id} className="hd-card" data-testid="thread-card" data-root={t.root.id}>
            <header className="hd-card-head">
              <Link href={channelPath(t.root.channel_name, { thread: t.root.id })}>
                <b>{channelLabel(chans.get(t.root.channel_name) ?? { kind: "channel", name: t.root.channel_name, dm_name: null })}</b>
              </Link>
              <span className="muted small">
                {t.replies.length} {t.replies.length === 1 ? "reply" : "replies"}
              </span>
            </header>
            <MessageItem m={t.root} view={{ ...view, threadHref: channelPath(t.root.channel_name, { thread: t.root.id }) }} />
            {t.replies.length > 2 ? (
              <Link className="hd-more-replies" href={channelPath(t.root.channel_name, { thread: t.root.id })}>
                Show {t.replies.length - 2} more {t.replies.length - 2 === 1 ? "reply" : "replies"}
              </Link>
            ) : null}
            {t.replies.slice(-2).map((m) => (
              <MessageItem key={m.id} m={m} view={view} />
            ))}
            <Link className="hd-btn hd-card-reply" href={channelPath(t.root.channel_name, { thread: t.root.id })}>
              Reply…
            </Link>
          </article>
        ))}
      </div>
    </div>
  );
}
