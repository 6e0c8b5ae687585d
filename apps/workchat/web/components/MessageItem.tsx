import { idempotencyToken } from "@persona/platform/once";
import Link from "next/link";
import type { Message } from "@/workchat/lib/chat";
import type { Formatters } from "@/workchat/lib/context";
import { glyph, QUICK_REACTIONS, EMOJI } from "@/workchat/lib/emoji";
import { setParam } from "@/workchat/lib/paths";
import { Avatar } from "./Avatar";
import { RichText } from "./RichText";

export interface MessageView {
  /** The page the message's forms return to. */
  back: string;
  meId: number;
  meName: string;
  f: Formatters;
  /** Collapse into the previous message (same sender, a few minutes apart). */
  compact?: boolean;
  /** Show the thread summary ("3 replies · Last reply today at 9:41 AM"). */
  threadSummary?: boolean;
  /** Link to open the message's thread, when it can have one. */
  threadHref?: string;
  /** The message id being edited on this page. */
  editing?: number;
  /** Show where it was posted (search, saved, activity). */
  showChannel?: boolean;
  highlight?: boolean;
}

function ActionForm({ id, action, back, children, label, extra, testId }: { id: number; action: string; back: string; children: React.ReactNode; label: string; extra?: Record<string, string>; testId?: string }) {
  return (
    <form action={`/api/messages/${id}/${action}`} method="post" className="hd-inline-form">
      <input type="hidden" name="_idem" value={idempotencyToken()} />
      <input type="hidden" name="back" value={back} />
      {Object.entries(extra ?? {}).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <button type="submit" className="hd-icon-btn" title={label} aria-label={label} data-testid={testId ?? `action-${action}${extra?.emoji ? `-${extra.emoji}` : ""}`}>
        {children}
      </button>
    </form>
  );
}

/** One message with its reactions, thread summary and hover menu (react, reply in thread, save, pin, edit, delete). */
export function MessageItem({ m, view }: { m: Message; view: MessageView }) {
  const { back, f } = view;
  const mine = m.sender_id === view.meId;
  const deleted = m.deleted === 1;
  const threadHref = view.threadHref;
  const label = m.channel_kind === "dm" ? (mine ? "Direct message" : m.sender_name) : `#${m.channel_name}`;
  return (
    <div
      id={`m${m.id}`}
      className={`hd-msg${view.compact ? " is-compact" : ""}${m.pinned ? " is-pinned" : ""}${m.saved ? " is-saved" : ""}${view.highlight ? " is-highlight" : ""}`}
      data-testid="message"
      data-id={m.id}
      data-sender={m.sender_name}
    >
      {m.pinned || m.saved ? (
        <div className="hd-msg-flags">
          {m.saved ? <span data-testid="saved-flag">🔖 Saved for later</span> : null}
          {m.pinned ? <span data-testid="pinned-flag">📌 Pinned</span> : null}
        </div>
      ) : null}
      {view.showChannel ? (
        <div className="hd-msg-where">
          <Link href={`/c/${m.channel_name}${m.thread_root_id ? `?thread=${m.thread_root_id}` : ""}#m${m.id}`}>{label}</Link>
          {m.thread_root_id ? <span className="muted"> · in a thread</span> : null}
          <span className="muted"> · {f.when(m.sent_at)}</span>
        </div>
      ) : null}
      <div className="hd-msg-row">
        <div className="hd-msg-gutter">{view.compact ? <span className="hd-msg-hover-time">{f.time(m.sent_at)}</span> : <Avatar name={m.sender_name} />}</div>
        <div className="hd-msg-body">
          {view.compact ? null : (
            <div className="hd-msg-head">
              <span className="hd-msg-sender" data-testid="sender">
                {m.sender_name}
              </span>
              <time className="hd-msg-time" dateTime={m.sent_at} title={f.stamp(m.sent_at)}>
                {f.time(m.sent_at)}
              </time>
            </div>
          )}
          {view.editing === m.id && mine && !deleted ? (
            <form action={`/api/messages/${m.id}/edit`} method="post" className="hd-edit" data-testid="edit-form">
              <input type="hidden" name="_idem" value={idempotencyToken()} />
              <input type="hidden" name="back" value={back} />
              <textarea name="text" defaultValue={m.text} rows={3} aria-label="Edit message" />
              <div className="hd-edit-actions">
                <Link href={setParam(back, "edit", null)} className="hd-btn">
                  Cancel
                </Link>
                <button type="submit" className="hd-btn hd-btn-primary">
                  Save
                </button>
              </div>
            </form>
          ) : (
            <div className={`hd-msg-text${deleted ? " is-deleted" : ""}`} data-testid="text">
              {deleted ? "This message was deleted." : <RichText text={m.text} mentions={m.mentions} me={view.meName} />}
              {m.edited_at && !deleted ? <span className="hd-edited"> (edited)</span> : null}
            </div>
          )}
          {m.reactions.length && !deleted ? (
            <div className="hd-reactions" data-testid="reactions">
              {m.reactions.map((r) => (
                <form key={r.emoji} action={`/api/messages/${m.id}/react`} method="post" className="hd-inline-form">
                  <input type="hidden" name="_idem" value={idempotencyToken()} />
                  <input type="hidden" name="back" value={back} />
                  <input type="hidden" name="emoji" value={r.emoji} />
                  <button
                    type="submit"
                    className={`hd-reaction${r.mine ? " is-mine" : ""}`}
                    title={`${r.names.join(", ")} reacted with ${r.emoji}`}
                    data-testid="reaction"
                    data-emoji={r.emoji}
                    data-count={r.count}
                    data-mine={r.mine ? "true" : "false"}
                  >
                    <span>{glyph(r.emoji)}</span> <b>{r.count}</b>
                  </button>
                </form>
              ))}
            </div>
          ) : null}
          {view.threadSummary && m.reply_count > 0 && threadHref ? (
            <Link href={threadHref} className="hd-thread-summary" data-testid="thread-summary" data-replies={m.reply_count}>
              <span className="hd-thread-faces">
                {m.repliers.slice(0, 4).map((n) => (
                  <Avatar key={n} name={n} size={20} />
                ))}
              </span>
              <b>
                {m.reply_count} {m.reply_count === 1 ? "reply" : "replies"}
              </b>
              <span className="muted" data-testid="last-reply">
                Last reply {m.last_reply_at ? f.when(m.last_reply_at).replace(/^(Today|Yesterday)/, (s) => s.toLowerCase()) : ""}
              </span>
            </Link>
          ) : null}
        </div>
      </div>
      {deleted ? null : (
        <div className="hd-msg-actions" role="toolbar" aria-label="Message actions">
          {QUICK_REACTIONS.slice(0, 3).map((e) => (
            <ActionForm key={e} id={m.id} action="react" back={back} label={`React with ${e}`} extra={{ emoji: e }}>
              {glyph(e)}
            </ActionForm>
          ))}
          <details className="hd-menu">
            <summary className="hd-icon-btn" title="Add reaction" aria-label="Add reaction" data-testid="add-reaction">
              ☺︎+
            </summary>
            <div className="hd-menu-pop hd-emoji-grid">
              {Object.keys(EMOJI).map((e) => (
                <ActionForm key={e} id={m.id} action="react" back={back} label={e} extra={{ emoji: e }} testId={`pick-${e}`}>
                  {glyph(e)}
                </ActionForm>
              ))}
            </div>
          </details>
          {threadHref ? (
            <Link href={threadHref} className="hd-icon-btn" title="Reply in thread" aria-label="Reply in thread" data-testid="reply-in-thread">
              💬
            </Link>
          ) : null}
          <ActionForm id={m.id} action="save" back={back} label={m.saved ? "Remove from saved items" : "Save for later"}>
            {m.saved ? "🔖" : "🏷"}
          </ActionForm>
          <details className="hd-menu">
            <summary className="hd-icon-btn" title="More actions" aria-label="More actions" data-testid="more-actions">
              ⋮
            </summary>
            <div className="hd-menu-pop hd-menu-list">
              <form action={`/api/messages/${m.id}/pin`} method="post">
                <input type="hidden" name="_idem" value={idempotencyToken()} />
                <input type="hidden" name="back" value={back} />
                <button type="submit" data-testid="action-pin">
                  {m.pinned ? "Unpin from conversation" : "Pin to this conversation"}
                </button>
              </form>
              {mine ? (
                <>
                  <Link href={`${setParam(back, "edit", m.id)}#m${m.id}`} data-testid="action-edit">
                    Edit message
                  </Link>
                  <form action={`/api/messages/${m.id}/delete`} method="post">
                    <input type="hidden" name="_idem" value={idempotencyToken()} />
                    <input type="hidden" name="back" value={back} />
                    <button type="submit" className="is-danger" data-testid="action-delete">
                      Delete message…
                    </button>
                  </form>
                </>
              ) : null}
            </div>
          </details>
        </div>
      )}
    </div>
  );
}

/** Whether message `b` collapses into `a` (same sender, same thread level, within 5 minutes, no thread on `a`). */
export function continues(a: Message | undefined, b: Message): boolean {
  if (!a || a.sender_id !== b.sender_id || a.sent_at.slice(0, 10) !== b.sent_at.slice(0, 10) || a.reply_count > 0 || a.deleted) return false;
  const gap = (Date.parse(`${b.sent_at}Z`) - Date.parse(`${a.sent_at}Z`)) / 1000;
  return gap >= 0 && gap < 300;
}
