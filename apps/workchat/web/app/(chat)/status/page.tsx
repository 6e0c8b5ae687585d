import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import { activeStatus, CLEAR_AFTER } from "@/workchat/lib/actions";
import { requireUser } from "@/workchat/lib/auth";
import { chatContext, formatters } from "@/workchat/lib/context";
import { EMOJI, glyph, STATUS_PRESETS } from "@/workchat/lib/emoji";
import { Avatar } from "@/workchat/components/Avatar";

export const metadata = { title: "Set a status" };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

/** The persona's profile card and the "Set a status" form (emoji, text, clear after). */
export default async function StatusPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const ctx = chatContext();
  const f = formatters(ctx);
  const sp = await searchParams;
  const status = activeStatus(user, ctx.now);
  const error = errorMessage(sp);
  const notice = one(sp.notice);
  const draft = one(sp.draft);
  return (
    <div className="hd-page">
      <header className="hd-page-head">
        <h1>Profile &amp; status</h1>
      </header>
      <div className="hd-page-body hd-status-page">
        <section className="hd-profile">
          <Avatar name={user.name} size={72} />
          <div>
            <h2>{user.name}</h2>
            <div className="muted">{user.title}</div>
            <div className="muted small">{user.email}</div>
            <p className="hd-current-status" data-testid="current-status">
              {status ? (
                <>
                  {status.emoji ? glyph(status.emoji) : ""} <span data-testid="current-status-text">{status.text}</span>
                  <span className="muted small"> {status.until ? `· clears ${f.when(status.until)}` : "· doesn’t clear"}</span>
                </>
              ) : (
                <span className="muted">No status set</span>
              )}
            </p>
            {status ? (
              <form action="/api/status/clear" method="post">
                <input type="hidden" name="_idem" value={idempotencyToken()} />
                <input type="hidden" name="back" value="/status" />
                <button type="submit" className="hd-btn" data-testid="clear-status">
                  Clear status
                </button>
              </form>
            ) : null}
          </div>
        </section>
        {notice ? (
          <div className="hd-notice" role="status" data-testid="notice">
            {notice}
          </div>
        ) : null}
        {error ? (
          <div className="hd-error" role="alert" data-testid="status-error">
            {error}
          </div>
        ) : null}
        <form action="/api/status" method="post" className="hd-status-form" data-testid="status-form">
          <input type="hidden" name="_idem" value={idempotencyToken()} />
          <input type="hidden" name="back" value="/status" />
          <h2>Set a status</h2>
          <div className="hd-status-row">
            <label className="hd-field">
              <span>Emoji</span>
              <select name="emoji" defaultValue={status?.emoji ?? ":speech_balloon:"} data-testid="status-emoji">
                <option value="">None</option>
                {Object.keys(EMOJI).map((e) => (
                  <option key={e} value={e}>
                    {glyph(e)} {e}
                  </option>
                ))}
              </select>
            </label>
            <label className="hd-field hd-grow">
              <span>What’s your status?</span>
              <input name="text" maxLength={200} defaultValue={error ? draft : (status?.text ?? "")} placeholder="What’s your status?" data-testid="status-text" />
            </label>
          </div>
          <div className="hd-status-row">
            <label className="hd-field">
              <span>Clear after</span>
              <select name="clear" defaultValue="today" data-testid="status-clear">
                {Object.entries(CLEAR_AFTER).map(([k, v]) => (
                  <option key={k} value={k}>
                    {v}
                  </option>
                ))}
              </select>
            </label>
            <label className="hd-field">
              <span>Date (for “Choose date…”)</span>
              <input name="date" type="date" min={ctx.today} data-testid="status-date" />
            </label>
          </div>
          <button type="submit" className="hd-btn hd-btn-primary" data-testid="status-save">
            Save
          </button>
        </form>
        <section className="hd-presets">
          <h3>For your team</h3>
          {STATUS_PRESETS.map((p) => (
            <form key={p.text} action="/api/status" method="post" className="hd-preset">
              <input type="hidden" name="_idem" value={idempotencyToken()} />
              <input type="hidden" name="back" value="/status" />
              <input type="hidden" name="emoji" value={p.emoji} />
              <input type="hidden" name="text" value={p.text} />
              <input type="hidden" name="clear" value={p.clear} />
              <button type="submit" data-testid={`preset-${p.text}`}>
                <span>{glyph(p.emoji)}</span> <b>{p.text}</b> <span className="muted">— {CLEAR_AFTER[p.clear as keyof typeof CLEAR_AFTER]}</span>
              </button>
            </form>
          ))}
        </section>
      </div>
    </div>
  );
}
