import { errorMessage, idValue } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Avatar } from "@/workchat/components/Avatar";
import { Composer } from "@/workchat/components/Composer";
import { MarkRead } from "@/workchat/components/MarkRead";
import { continues, MessageItem, type MessageView } from "@/workchat/components/MessageItem";
import { ReplyWatcher } from "@/workchat/components/ReplyWatcher";
import { requireUser } from "@/workchat/lib/auth";
import {
  channelByName,
  channelLabel,
  channelMembers,
  channelMessages,
  channelStats,
  pendingReplies,
  pinnedMessages,
  scheduledMessages,
  thread,
  type Message,
} from "@/workchat/lib/chat";
import { NOTIFY } from "@/workchat/lib/actions";
import { chatContext, formatters } from "@/workchat/lib/context";
import { channelName, channelPath, setParam } from "@/workchat/lib/paths";

type Search = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

export async function generateMetadata({ params }: { params: Promise<{ name: string }> }) {
  const name = channelName((await params).name);
  return { title: name.startsWith("dm-") ? "Direct message" : `#${name}` };
}

/** Messages grouped by day, consecutive ones of a sender collapsed. */
function DayGroups({ messages, view, threadOf }: { messages: Message[]; view: Omit<MessageView, "compact">; threadOf: (m: Message) => string | undefined }) {
  const days: { day: string; items: Message[] }[] = [];
  for (const m of messages) {
    const day = m.sent_at.slice(0, 10);
    if (days.at(-1)?.day !== day) days.push({ day, items: [] });
    days.at(-1)!.items.push(m);
  }
  return (
    <>
      {days.map((g) => (
        <section key={g.day} className="hd-day" data-testid="day" data-day={g.day}>
          <div className="hd-day-divider">
            <span>{view.f.day(g.day)}</span>
          </div>
          {g.items.map((m, i) => (
            <MessageItem key={m.id} m={m} view={{ ...view, compact: continues(g.items[i - 1], m), threadHref: threadOf(m) }} />
          ))}
        </section>
      ))}
    </>
  );
}

export default async function ChannelPage({ params, searchParams }: { params: Promise<{ name: string }>; searchParams: Promise<Search> }) {
  const user = await requireUser();
  const ctx = chatContext();
  const f = formatters(ctx);
  const name = channelName((await params).name);
  const sp = await searchParams;
  const ch = channelByName(user.person_id, ctx.now, name);
  if (!ch) notFound();
  const threadId = idValue(one(sp.thread)) ?? 0;
  const details = one(sp.details);
  const before = idValue(one(sp.before)) ?? undefined;
  const editing = idValue(one(sp.edit)) ?? undefined;
  const error = errorMessage(sp);
  const notice = one(sp.notice);
  const justScheduled = scheduledMessages(user.person_id, ctx.now).find((m) => m.id === idValue(one(sp.scheduled)));

  const base = channelPath(ch.name, { thread: threadId || undefined, details: details || undefined, before });
  const { messages, more } = channelMessages(user.person_id, ctx.now, ch.id, before);
  const stats = channelStats(ch.id, ctx.now);
  const pending = pendingReplies(ch.id, ctx.now);
  const members = channelMembers(ch.id);
  const pins = pinnedMessages(user.person_id, ctx.now, ch.id);
  const open = threadId ? thread(user.person_id, ctx.now, threadId) : null;
  const openThread = open && open.root.channel_id === ch.id ? open : null;
  const label = channelLabel(ch);
  const view = { back: base, meId: user.person_id, meName: user.name, f, threadSummary: true, editing };
  const threadOf = (m: Message) => channelPath(ch.name, { thread: m.id });
  const threadError = Boolean(error && openThread);
  const mainError = error && !threadError ? error : "";

  return (
    <div className={`hd-channel-wrap${openThread || details ? " has-panel" : ""}`}>
      <MarkRead channel={ch.name} />
      <section className="hd-channel" data-testid="channel" data-channel={ch.name}>
        <header className="hd-channel-head">
          <div>
            <h1 className="hd-channel-name" data-testid="channel-title">
              {ch.kind === "dm" ? (
                <>
                  <Avatar name={ch.dm_name ?? ch.name} size={24} /> <span data-testid="title-text">{ch.dm_name}</span>
                </>
              ) : (
                <>
                  <span className="hd-hash">#</span>
                  <span data-testid="title-text">{ch.name}</span>
                </>
              )}
            </h1>
            {ch.topic ? <div className="hd-channel-topic">{ch.topic}</div> : null}
          </div>
          <div className="hd-channel-tools">
            <form action="/search" method="get" className="hd-channel-search" role="search" data-testid="channel-search">
              <input type="hidden" name="in" value={ch.kind === "dm" ? ch.name : `#${ch.name}`} />
              <input name="q" type="search" placeholder={`Search ${label}`} aria-label={`Search ${label}`} />
            </form>
            <Link href={channelPath(ch.name, { details: "members" })} className="hd-chip" data-testid="members-button">
              👥 {members.length}
            </Link>
            <Link href={channelPath(ch.name, { details: "pinned" })} className="hd-chip" data-testid="pinned-button">
              📌 {pins.length}
            </Link>
            {ch.muted ? (
              <Link href={channelPath(ch.name, { details: "notifications" })} className="hd-chip" data-testid="muted-chip">
                🔕 Muted
              </Link>
            ) : null}
            <Link href={channelPath(ch.name, { details: "about" })} className="hd-chip" data-testid="details-button">
              ⓘ Details
            </Link>
          </div>
        </header>
        {notice ? (
          <div className="hd-notice" role="status" data-testid="notice">
            {notice}
          </div>
        ) : null}
        {justScheduled ? (
          <div className="hd-notice" role="status" data-testid="scheduled-notice">
            Your message will be sent {f.day(justScheduled.deliver_at)} at {f.time(justScheduled.deliver_at)}. <Link href="/scheduled">See all scheduled messages</Link>
          </div>
        ) : null}
        <div className="hd-scroll" data-testid="message-scroll">
          <div className="hd-messages" data-testid="messages">
            {more ? (
              <Link className="hd-earlier" href={channelPath(ch.name, { before: messages[0]?.id })} data-testid="earlier">
                Show earlier messages
              </Link>
            ) : (
              <div className="hd-channel-start">
                <h2>{ch.kind === "dm" ? `This is the very beginning of your direct message history with ${ch.dm_name}.` : `This is the very beginning of the #${ch.name} channel.`}</h2>
                {ch.purpose ? <p className="muted">{ch.purpose}</p> : null}
              </div>
            )}
            <DayGroups messages={messages} view={view} threadOf={threadOf} />
          </div>
        </div>
        {pending.count && !openThread ? <ReplyWatcher channel={ch.name} names={pending.names} count={pending.count} /> : null}
        <Composer
          key={`main-${one(sp.posted)}`}
          channel={ch.name}
          back={channelPath(ch.name)}
          placeholder={`Message ${label}`}
          draft={mainError ? one(sp.draft) : ""}
          error={mainError}
          idem={idempotencyToken()}
          now={ctx.now}
        />
      </section>
      {openThread ? (
        <aside className="hd-panel" data-testid="thread-panel" aria-label="Thread">
          <header className="hd-panel-head">
            <div>
              <b>Thread</b> <span className="muted">{label}</span>
            </div>
            <Link href={channelPath(ch.name)} className="hd-close" aria-label="Close thread">
              ✕
            </Link>
          </header>
          <div className="hd-panel-body">
            <MessageItem m={openThread.root} view={{ ...view, back: base, threadSummary: false }} />
            <div className="hd-thread-count" data-testid="thread-reply-count" data-count={openThread.replies.length}>
              {openThread.replies.length} {openThread.replies.length === 1 ? "reply" : "replies"}
            </div>
            {openThread.replies.map((m, i) => (
              <MessageItem key={m.id} m={m} view={{ ...view, back: base, threadSummary: false, compact: continues(openThread.replies[i - 1], m) }} />
            ))}
            {pending.count ? <ReplyWatcher channel={ch.name} names={pending.names} count={pending.count} /> : null}
          </div>
          <Composer
            key={`thread-${openThread.root.id}-${one(sp.posted)}`}
            channel={ch.name}
            thread={openThread.root.id}
            back={channelPath(ch.name, { thread: openThread.root.id })}
            placeholder="Reply…"
            draft={threadError ? one(sp.draft) : ""}
            error={threadError ? error : ""}
            testId="thread-composer"
            idem={idempotencyToken()}
            now={ctx.now}
          />
        </aside>
      ) : details ? (
        <aside className="hd-panel" data-testid="details-panel" aria-label="Details">
          <header className="hd-panel-head">
            <b>{label}</b>
            <Link href={channelPath(ch.name)} className="hd-close" aria-label="Close details">
              ✕
            </Link>
          </header>
          <div className="hd-tabs">
            {(["about", "members", "pinned", "notifications"] as const).map((t) => (
              <Link key={t} href={setParam(channelPath(ch.name), "details", t)} className={`hd-tab${details === t ? " is-active" : ""}`} data-testid={`tab-${t}`}>
                {t === "about" ? "About" : t === "members" ? `Members ${members.length}` : t === "pinned" ? `Pinned ${pins.length}` : "Notifications"}
              </Link>
            ))}
          </div>
          <div className="hd-panel-body">
            {details === "members" ? (
              <ul className="hd-member-list" data-testid="member-list">
                {members.map((p) => (
                  <li key={p.id}>
                    <Avatar name={p.name} size={32} />
                    <div>
                      <b>{p.name}</b>
                      {p.is_me ? <span className="muted"> (you)</span> : null}
                      <div className="muted small">{p.title || p.email}</div>
                    </div>
                  </li>
                ))}
              </ul>
            ) : details === "notifications" ? (
              <form action={`/api/channels/${encodeURIComponent(ch.name)}/notifications`} method="post" className="hd-notify-form" data-testid="notify-form">
                <input type="hidden" name="_idem" value={idempotencyToken()} />
                <input type="hidden" name="back" value={channelPath(ch.name, { details: "notifications" })} />
                <p className="muted small">Choose what in {label} counts in your sidebar and notifies you.</p>
                {(Object.keys(NOTIFY) as (keyof typeof NOTIFY)[]).map((k) => (
                  <label key={k}>
                    <input type="radio" name="notify" value={k} defaultChecked={ch.notify === k} /> {NOTIFY[k]}
                  </label>
                ))}
                <label>
                  <input type="checkbox" name="muted" value="1" defaultChecked={Boolean(ch.muted)} /> Mute {label}: grey it out in the sidebar
                </label>
                <div>
                  <button type="submit" className="hd-btn hd-btn-primary" data-testid="notify-save">Save changes</button>
                </div>
              </form>
            ) : details === "pinned" ? (
              <div data-testid="pinned-list">
                {pins.length === 0 ? <p className="muted">Nothing is pinned here yet. Pin important messages from their ⋮ menu.</p> : null}
                {pins.map((m) => (
                  <MessageItem key={m.id} m={m} view={{ ...view, threadSummary: false, threadHref: m.thread_root_id ? undefined : threadOf(m) }} />
                ))}
              </div>
            ) : (
              <dl className="hd-about" data-testid="about">
                {ch.kind === "channel" ? (
                  <>
                    <dt>Topic</dt>
                    <dd>{ch.topic || "Add a topic"}</dd>
                    <dt>Description</dt>
                    <dd>{ch.purpose}</dd>
                  </>
                ) : null}
                <dt>Created</dt>
                <dd>{f.day(ch.created)}</dd>
                <dt>Messages</dt>
                <dd data-testid="message-count" data-count={stats.messages}>
                  {stats.messages.toLocaleString("en-US")} messages · {stats.threads} threads
                </dd>
              </dl>
            )}
          </div>
        </aside>
      ) : null}
    </div>
  );
}
