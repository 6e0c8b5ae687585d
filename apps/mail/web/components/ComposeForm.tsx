"use client";

import { useRef, useState } from "react";

export interface ComposeDefaults {
  from: string;
  fromChoices: { value: string; label: string }[];
  to: string;
  cc: string;
  subject: string;
  body: string;
  draft: string;
  replyTo: string;
  mode: string;
  forward: { id: number; label: string }[];
  draftFiles: string[];
  signature: string;
  error: string;
  /** The form's one-time token (`_idem`, @persona/platform/once), rendered with the page. */
  idem: string;
}

/** A new one-time form token (32 hex characters, like idempotencyToken on the server). */
function freshToken(): string {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

/**
 * The compose window. Posts the multipart form with fetch (JSON answer) so a refused message
 * keeps everything typed; without JavaScript the same form posts normally.
 */
export function ComposeForm({ d }: { d: ComposeDefaults }) {
  const [error, setError] = useState(d.error);
  const [errField, setErrField] = useState("");
  const [busy, setBusy] = useState(false);
  const action = useRef("send");
  // A refused message is fixed and sent again: that is a new request, so it gets a new token.
  const [idem, setIdem] = useState(d.idem);

  async function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setBusy(true);
    const form = new FormData(e.currentTarget);
    form.set("action", action.current);
    try {
      const res = await fetch("/api/compose", { method: "POST", body: form, headers: { Accept: "application/json" } });
      const body = await res.json().catch(() => ({ error: "The server sent an answer that could not be read." }));
      if (res.ok && body.redirect) {
        window.location.assign(body.redirect);
        return;
      }
      setIdem(freshToken());
      setError(body.error || "The message could not be sent.");
      setErrField(body.field || "");
    } catch {
      setError("Mailbox could not be reached. Check the connection and try again.");
    }
    setBusy(false);
  }

  const bad = (f: string) => (errField === f ? " mb-bad" : "");
  return (
    <form action="/api/compose" method="post" encType="multipart/form-data" onSubmit={submit} className="mb-compose-form" data-testid="compose-form">
      <input type="hidden" name="_idem" value={idem} />
      <input type="hidden" name="draft" value={d.draft} />
      <input type="hidden" name="reply_to" value={d.replyTo} />
      <input type="hidden" name="mode" value={d.mode} />
      {error ? (
        <div className="mb-toast mb-toast-error" role="alert" data-testid="compose-error">
          {error}
        </div>
      ) : null}
      <div className="mb-cf-row">
        <label htmlFor="from">From</label>
        <select id="from" name="from" defaultValue={d.from}>
          {d.fromChoices.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      </div>
      <div className={`mb-cf-row${bad("to")}`}>
        <label htmlFor="to">To</label>
        <input id="to" name="to" defaultValue={d.to} placeholder="Recipients, separated by commas" autoComplete="off" />
      </div>
      <div className={`mb-cf-row${bad("cc")}`}>
        <label htmlFor="cc">Cc</label>
        <input id="cc" name="cc" defaultValue={d.cc} autoComplete="off" />
      </div>
      <div className={`mb-cf-row${bad("subject")}`}>
        <label htmlFor="subject">Subject</label>
        <input id="subject" name="subject" defaultValue={d.subject} />
      </div>
      <textarea id="body" name="body" aria-label="Message" defaultValue={d.body} className={`mb-cf-body${bad("body")}`} rows={16} />
      {d.signature ? (
        <div className="mb-cf-sig mb-muted" data-testid="signature-preview">
          Your signature is added when you send: <span>{`-- ${d.signature}`}</span>
        </div>
      ) : null}
      {d.forward.length ? (
        <fieldset className="mb-cf-fwd">
          <legend>Forwarded attachments</legend>
          {d.forward.map((f) => (
            <label key={f.id}>
              <input type="checkbox" name="forward_attachment" value={f.id} defaultChecked /> {f.label}
            </label>
          ))}
        </fieldset>
      ) : null}
      {d.draftFiles.length ? <div className="mb-muted">Attached: {d.draftFiles.join(", ")}</div> : null}
      <div className={`mb-cf-files${bad("files")}`}>
        <label htmlFor="files">Attach files</label>
        <input id="files" name="files" type="file" multiple />
      </div>
      <div className="mb-cf-actions">
        <button type="submit" name="action" value="send" className="mb-primary" disabled={busy} onClick={() => (action.current = "send")} data-testid="send">
          Send
        </button>
        <button type="submit" name="action" value="draft" className="mb-tool" disabled={busy} onClick={() => (action.current = "draft")} data-testid="save-draft">
          Save draft
        </button>
        <a href="/" className="mb-tool">
          Discard
        </a>
      </div>
    </form>
  );
}
