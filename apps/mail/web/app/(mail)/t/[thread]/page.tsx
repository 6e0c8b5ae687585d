import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Notice, one, type Search } from "@/mail/components/Notice";
import { requireUser } from "@/mail/lib/auth";
import { mailContext } from "@/mail/lib/db";
import { fileSize, fullDate } from "@/mail/lib/format";
import { ANSWERS } from "@/mail/lib/ics";
import { inviteOf } from "@/mail/lib/invites";
import { allLabels, attachmentsOf, labelsOf, markThreadRead, people, personText, threadMessages } from "@/mail/lib/mail";

export async function generateMetadata({ params }: { params: Promise<{ thread: string }> }) {
  const msgs = threadMessages((await params).thread);
  return { title: msgs[0]?.subject || "Conversation" };
}

const FOLDER_NAMES: Record<string, string> = { inbox: "Inbox", sent: "Sent", archive: "Archive", spam: "Spam", trash: "Trash", drafts: "Drafts" };

/** A conversation: every delivered message in order, with attachments, invitations and the reply actions. */
export default async function ThreadPage({ params, searchParams }: { params: Promise<{ thread: string }>; searchParams: Promise<Search> }) {
  const { thread } = await params;
  const sp = await searchParams;
  const user = await requireUser();
  const all = threadMessages(thread);
  const msgs = all.filter((m) => m.folder !== "drafts");
  if (!msgs.length) notFound();
  markThreadRead(thread);
  const ctx = mailContext();
  const here = `/t/${thread}`;
  const atts = attachmentsOf(msgs.map((m) => m.id));
  const labels = labelsOf(msgs.map((m) => m.id));
  const threadLabels = [...new Map(msgs.flatMap((m) => labels.get(m.id) ?? []).map((l) => [l.id, l])).values()];
  const last = msgs[msgs.length - 1];
  const starred = msgs.some((m) => m.is_starred);
  const folders = [...new Set(msgs.map((m) => m.folder))];
  const inTrash = folders.every((f) => f === "trash");
  const inInbox = folders.includes("inbox");
  return (
    <article className="mb-thread">
      <Notice notice={one(sp.notice)} error={errorMessage(sp)} />
      <form action="/api/messages" method="post" className="mb-toolbar mb-thread-tools">
        <input type="hidden" name="_idem" value={idempotencyToken()} />
        <input type="hidden" name="back" value={here} />
        <input type="hidden" name="after" value="/" />
        <input type="hidden" name="thread" value="1" />
        <input type="hidden" name="id" value={last.id} />
        <Link href="/" className="mb-tool">
          ← Back
        </Link>
        {inTrash ? (
          <button name="op" value="restore" className="mb-tool">Restore</button>
        ) : (
          <>
            {inInbox ? (
              <button name="op" value="archive" className="mb-tool" data-testid="archive">Archive</button>
            ) : (
              <button name="op" value="inbox" className="mb-tool">Move to Inbox</button>
            )}
            <button name="op" value="spam" className="mb-tool">Spam</button>
            <button name="op" value="trash" className="mb-tool" data-testid="delete">Delete</button>
          </>
        )}
        <button name="op" value="unread" className="mb-tool">Mark unread</button>
        <button name="op" value={starred ? "unstar" : "star"} className="mb-tool" data-testid="thread-star">
          {starred ? "★ Unstar" : "☆ Star"}
        </button>
        <select name="label" aria-label="Label" className="mb-select" defaultValue="">
          <option value="">Label…</option>
          {allLabels().map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
        </select>
        <button name="op" value="label" className="mb-tool">Apply label</button>
        <button name="op" value="move" className="mb-tool">Move to label</button>
      </form>
      <h1 className="mb-thread-subject" data-testid="thread-subject">
        {msgs[0].subject || "(no subject)"}
        {folders.map((f) => (
          <span key={f} className="mb-chip mb-chip-folder">
            {FOLDER_NAMES[f] ?? f}
          </span>
        ))}
        {threadLabels.map((l) => (
          <span key={l.id} className="mb-chip" style={{ borderColor: l.color, color: l.color }}>
            {l.name}
          </span>
        ))}
      </h1>
      {msgs.map((m, i) => {
        const to = people(m.to_json);
        const cc = people(m.cc_json);
        const files = atts.get(m.id) ?? [];
        const inv = inviteOf(m, user);
        return (
          <details key={m.id} className="mb-msg" open={i === msgs.length - 1 || !m.is_read || msgs.length <= 3} data-testid="message" data-id={m.id}>
            <summary className="mb-msg-head">
              <span className="mb-avatar mb-avatar-sm" aria-hidden="true">
                {(m.from_name || m.from_email).slice(0, 1).toUpperCase()}
              </span>
              <span className="mb-msg-from">
                <strong data-testid="message-from">{m.from_name || m.from_email}</strong> <span className="mb-muted">&lt;{m.from_email}&gt;</span>
                <span className="mb-msg-to">
                  to {to.map((p) => p.name || p.email).join(", ")}
                  {cc.length ? `, cc ${cc.map((p) => p.name || p.email).join(", ")}` : ""}
                </span>
              </span>
              <span className="mb-msg-date" title={m.sent_at}>
                {fullDate(m.sent_at, ctx.locale)}
              </span>
            </summary>
            <div className="mb-msg-meta mb-muted">
              <div data-testid="message-subject">Subject: {m.subject}</div>
              <div>To: {to.map(personText).join(", ")}</div>
              {cc.length ? <div>Cc: {cc.map(personText).join(", ")}</div> : null}
            </div>
            {inv && !inv.mine ? (
              <section className="mb-invite" data-testid="invitation" aria-label="Invitation">
                <div className="mb-invite-cal" aria-hidden="true">
                  <span>{inv.invite.start ? new Date(`${inv.invite.start.slice(0, 10)}T12:00:00Z`).toLocaleString("en-US", { month: "short", timeZone: "UTC" }) : ""}</span>
                  <strong>{inv.invite.start ? Number(inv.invite.start.slice(8, 10)) : ""}</strong>
                </div>
                <div className="mb-invite-body">
                  <div className="mb-invite-title">Invitation: {inv.invite.summary}</div>
                  <div className="mb-muted">
                    {inv.invite.start ? fullDate(inv.invite.start, ctx.locale) : ""}
                    {inv.invite.location ? ` · ${inv.invite.location}` : ""} · organizer {inv.invite.organizer.name || inv.invite.organizer.email}
                  </div>
                  <form action="/api/rsvp" method="post" className="mb-invite-answers">
                    <input type="hidden" name="_idem" value={idempotencyToken()} />
                    <input type="hidden" name="message" value={m.id} />
                    <input type="hidden" name="back" value={here} />
                    <span>Going?</span>
                    {(["yes", "maybe", "no"] as const).map((a) => (
                      <button key={a} name="answer" value={a} className={`mb-rsvp${inv.answer?.partstat === ANSWERS[a].partstat ? " on" : ""}`} data-testid={`rsvp-${a}`}>
                        {a === "yes" ? "Yes" : a === "maybe" ? "Maybe" : "No"}
                      </button>
                    ))}
                  </form>
                  {inv.answer ? (
                    <div className="mb-invite-state" data-testid="rsvp-state" data-partstat={inv.answer.partstat} data-calendar={inv.answer.calendar_status}>
                      You answered {inv.answer.partstat === "ACCEPTED" ? "Yes" : inv.answer.partstat === "DECLINED" ? "No" : "Maybe"}.
                      {inv.answer.calendar_status === "pending" ? " Your calendar hasn't been updated yet." : " Your calendar is up to date."}
                    </div>
                  ) : null}
                </div>
              </section>
            ) : null}
            <div className="mb-msg-body" data-testid="message-body">
              {m.body}
            </div>
            {files.length ? (
              <ul className="mb-files">
                {files.map((a) => (
                  <li key={a.id}>
                    <a href={`/att/${a.id}`} className="mb-file" data-testid="attachment" download>
                      <span className="mb-file-icon" aria-hidden="true">
                        {a.content_type.startsWith("application/pdf") ? "PDF" : a.content_type.startsWith("text/calendar") ? "ICS" : "FILE"}
                      </span>
                      <span>
                        <span className="mb-file-name">{a.filename}</span>
                        <span className="mb-muted"> {fileSize(a.size)}</span>
                      </span>
                    </a>
                    {/method=publish/i.test(a.content_type) ? (
                      <form method="post" action="/api/calendar-add" className="mb-file-action">
                        <input type="hidden" name="_idem" value={idempotencyToken()} />
                        <input type="hidden" name="attachment" value={a.id} />
                        <input type="hidden" name="back" value={here} />
                        <button className="mb-tool" data-testid="add-to-calendar">
                          ＋ Add to Daybook
                        </button>
                      </form>
                    ) : null}
                  </li>
                ))}
              </ul>
            ) : null}
            <div className="mb-msg-actions">
              <Link href={`/compose?reply=${m.id}&mode=reply`} className="mb-tool" data-testid="reply">
                ↩ Reply
              </Link>
              <Link href={`/compose?reply=${m.id}&mode=all`} className="mb-tool" data-testid="reply-all">
                ↩↩ Reply all
              </Link>
              <Link href={`/compose?reply=${m.id}&mode=forward`} className="mb-tool" data-testid="forward">
                → Forward
              </Link>
            </div>
          </details>
        );
      })}
    </article>
  );
}
