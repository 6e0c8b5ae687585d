"use client";

import { useRef, useState } from "react";

const MAX = 4000;

/** `YYYY-MM-DDTHH:MM` of local ISO `now` plus `days` at 09:00 (a datetime-local value). */
function nineOn(now: string, days: number): string {
  const d = new Date(`${now.slice(0, 10)}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return `${d.toISOString().slice(0, 10)}T09:00`;
}

/**
 * The message box at the bottom of a conversation (or a thread). Enter sends, Shift+Enter makes
 * a new line; it posts a plain form to /api/messages, so it works without scripts too. The clock
 * beside Send opens "Schedule message": a time (Tomorrow at 9:00, Next Monday at 9:00, or any) and
 * Schedule, which posts `when=schedule` and `at`.
 */
export function Composer({ channel, thread, back, placeholder, draft, error, idem, now, testId = "composer" }: {
  channel: string;
  thread?: number;
  back: string;
  placeholder: string;
  draft?: string;
  error?: string;
  /** The form's one-time token (`_idem`, @persona/platform/once), rendered with the page. */
  idem: string;
  /** The app's local now (`YYYY-MM-DDTHH:MM:SS`), for the schedule's presets. */
  now: string;
  testId?: string;
}) {
  const form = useRef<HTMLFormElement>(null);
  const [text, setText] = useState(draft ?? "");
  const [sending, setSending] = useState(false);
  const [scheduling, setScheduling] = useState(false);
  const [at, setAt] = useState(nineOn(now, 1));
  const monday = nineOn(now, ((8 - new Date(`${now.slice(0, 10)}T12:00:00Z`).getUTCDay()) % 7) || 7);
  const length = [...text].length;
  return (
    <form ref={form} action="/api/messages" method="post" className="hd-composer" data-testid={testId} onSubmit={() => setSending(true)}>
      <input type="hidden" name="_idem" value={idem} />
      <input type="hidden" name="channel" value={channel} />
      {thread ? <input type="hidden" name="thread" value={thread} /> : null}
      <input type="hidden" name="back" value={back} />
      {error ? (
        <p className="hd-composer-error" role="alert" data-testid="composer-error">
          {error}
        </p>
      ) : null}
      <div className="hd-composer-box">
        <div className="hd-composer-tools" aria-hidden="true">
          <b>B</b> <i>I</i> <s>S</s> <span>🔗</span> <span>•≡</span> <span>{"</>"}</span>
        </div>
        <textarea
          name="text"
          aria-label={placeholder}
          placeholder={placeholder}
          rows={1}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              if (text.trim() && !sending) form.current?.requestSubmit();
            }
          }}
        />
        <div className="hd-composer-foot">
          <span className={`hd-count${length > MAX ? " is-over" : ""}`}>{length > MAX - 500 ? `${length.toLocaleString("en-US")} / ${MAX.toLocaleString("en-US")}` : ""}</span>
          <button type="button" className="hd-schedule-toggle" aria-expanded={scheduling} aria-label="Schedule message" title="Schedule message" data-testid="schedule-toggle" onClick={() => setScheduling(!scheduling)}>
            🕘
          </button>
          <button type="submit" className="hd-send" aria-label="Send now" disabled={sending}>
            <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
              <path d="M2 17.5 18.5 10 2 2.5l2.4 6.3L12 10l-7.6 1.2z" fill="currentColor" />
            </svg>
          </button>
        </div>
        {scheduling ? (
          <div className="hd-schedule" data-testid="schedule-panel">
            <span>Schedule message:</span>
            <button type="button" className="hd-btn" onClick={() => setAt(nineOn(now, 1))}>Tomorrow at 9:00 AM</button>
            <button type="button" className="hd-btn" onClick={() => setAt(monday)}>Next Monday at 9:00 AM</button>
            <input type="datetime-local" name="at" value={at} min={now.slice(0, 16)} aria-label="Send at" onChange={(e) => setAt(e.target.value)} />
            {/* Never disabled while sending: a disabled submitter's name and value leave the form (the token keeps a
                double click to one message). */}
            <button type="submit" name="when" value="schedule" className="hd-btn hd-btn-primary" data-testid="schedule-send">
              Schedule
            </button>
          </div>
        ) : null}
      </div>
    </form>
  );
}
