"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";

/** While a reply is on its way: refresh the page every `everyMs` so it shows once delivered. */
export function AutoRefresh({ everyMs = 2000 }: { everyMs?: number }) {
  const router = useRouter();
  useEffect(() => {
    const t = setInterval(() => router.refresh(), everyMs);
    return () => clearInterval(t);
  }, [router, everyMs]);
  return null;
}

/** Opening a conversation with unread messages marks them read (then refreshes the badges). */
export function MarkRead({ conversation, unread }: { conversation: number; unread: number }) {
  const router = useRouter();
  useEffect(() => {
    if (!unread) return;
    fetch(`/api/conversations/${conversation}/read`, { method: "POST" })
      .then((r) => (r.ok ? router.refresh() : undefined))
      .catch(() => undefined);
  }, [conversation, unread, router]);
  return null;
}

/** Scrolls the message pane to message `target` (a search result), else to the newest message. */
export function ScrollTo({ target, stamp }: { target?: number; stamp: string }) {
  const done = useRef<string | null>(null);
  useEffect(() => {
    const key = `${target ?? "end"}|${stamp}`;
    if (done.current === key) return;
    done.current = key;
    const el = target ? document.getElementById(`m${target}`) : document.getElementById("pl-end");
    el?.scrollIntoView({ block: target ? "center" : "end" });
  }, [target, stamp]);
  return null;
}

/** The message box: Enter sends, Shift+Enter starts a new line. Replying, a bar above it shows the quoted message
 * (`quote`); editing one of the persona's texts (`edit`), it holds that text and saves it instead of sending. */
export function Composer({
  conversation,
  max,
  error,
  idem,
  quote,
  edit,
}: {
  conversation: number;
  max: number;
  error?: string;
  idem: string;
  quote?: { id: number; who: string; text: string };
  edit?: { id: number; text: string };
}) {
  const ref = useRef<HTMLFormElement>(null);
  return (
    <form
      ref={ref}
      key={edit ? `edit-${edit.id}` : quote ? `quote-${quote.id}` : "new"}
      action={edit ? "/api/messages/edit" : "/api/messages"}
      method="post"
      className="pl-composer"
      data-testid="composer"
      data-mode={edit ? "edit" : quote ? "reply" : "new"}
    >
      <input type="hidden" name="_idem" value={idem} />
      <input type="hidden" name="conversation" value={conversation} />
      {edit ? <input type="hidden" name="message" value={edit.id} /> : null}
      {quote && !edit ? <input type="hidden" name="quote" value={quote.id} /> : null}
      {edit || quote ? (
        <div className={`pl-compose-bar${edit ? " is-edit" : ""}`} data-testid={edit ? "edit-bar" : "reply-bar"}>
          <span className="pl-compose-bar-main">
            <span className="pl-quote-who">{edit ? "Edit message" : quote!.who}</span>
            <span className="pl-quote-text" data-testid={edit ? "edit-original" : "reply-bar-text"}>
              {edit ? edit.text.split("\n")[0] : quote!.text}
            </span>
          </span>
          <Link href={`/c/${conversation}`} className="pl-compose-cancel" aria-label={edit ? "Cancel editing" : "Cancel reply"} data-testid="compose-cancel">
            ×
          </Link>
        </div>
      ) : null}
      {error ? (
        <p className="pl-composer-error" role="alert" data-testid="send-error">
          {error}
        </p>
      ) : null}
      <textarea
        name="body"
        rows={1}
        placeholder="Type a message"
        aria-label={edit ? "Edited message" : "Message"}
        defaultValue={edit?.text}
        maxLength={max}
        data-testid="message-input"
        autoFocus
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            if (e.currentTarget.value.trim()) ref.current?.requestSubmit();
          }
        }}
        onInput={(e) => {
          const t = e.currentTarget;
          t.style.height = "auto";
          t.style.height = `${Math.min(t.scrollHeight, 160)}px`;
        }}
      />
      <button type="submit" className="pl-send" aria-label={edit ? "Save" : "Send"} data-testid="send">
        {edit ? (
          <svg viewBox="0 0 24 24" width="22" height="22" fill="currentColor" aria-hidden="true">
            <path d="M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4L9 16.2Z" />
          </svg>
        ) : (
          <svg viewBox="0 0 24 24" width="22" height="22" fill="currentColor" aria-hidden="true">
            <path d="M3 20.5 21 12 3 3.5l.01 6.6L15 12 3.01 13.9 3 20.5Z" />
          </svg>
        )}
      </button>
    </form>
  );
}
