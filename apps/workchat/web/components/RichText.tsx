import { Fragment, type ReactNode } from "react";
import { glyph, isEmoji } from "@/workchat/lib/emoji";

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A message's text as React nodes (escaped by JSX): `@First Last` mentions of `mentions` as
 * highlighted chips (the persona's own in yellow), URLs as links, known `:shortcodes:` as emoji.
 */
export function RichText({ text, mentions, me }: { text: string; mentions: string[]; me: string }) {
  const names = [...new Set(mentions)].sort((a, b) => b.length - a.length).map(escape);
  const parts = [names.length ? `@(?:${names.join("|")})` : null, "https?://[^\\s<>]+[^\\s<>.,;:!?)\\]]", ":[a-z0-9_+-]+:"].filter(Boolean);
  const re = new RegExp(parts.join("|"), "gu");
  const out: ReactNode[] = [];
  let last = 0;
  let k = 0;
  for (const m of text.matchAll(re)) {
    const at = m.index ?? 0;
    if (at > last) out.push(<Fragment key={k++}>{text.slice(last, at)}</Fragment>);
    const tok = m[0];
    if (tok.startsWith("@")) {
      out.push(
        <span key={k++} className={`hd-mention${tok.slice(1) === me ? " hd-mention-me" : ""}`} data-testid="mention">
          {tok}
        </span>,
      );
    } else if (tok.startsWith("http")) {
      out.push(
        <a key={k++} href={tok} className="hd-link" rel="noreferrer noopener" target="_blank">
          {tok}
        </a>,
      );
    } else if (isEmoji(tok)) {
      out.push(
        <span key={k++} title={tok} className="hd-inline-emoji">
          {glyph(tok)}
        </span>,
      );
    } else out.push(<Fragment key={k++}>{tok}</Fragment>);
    last = at + tok.length;
  }
  if (last < text.length) out.push(<Fragment key={k++}>{text.slice(last)}</Fragment>);
  return <>{out}</>;
}
