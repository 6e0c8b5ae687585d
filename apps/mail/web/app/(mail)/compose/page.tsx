import { errorMessage, idValue } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import { notFound } from "next/navigation";
import { ComposeForm, type ComposeDefaults } from "@/mail/components/ComposeForm";
import { one, type Search } from "@/mail/components/Notice";
import { formatAddresses } from "@/mail/lib/addresses";
import { ownAddresses, requireUser } from "@/mail/lib/auth";
import { db, mailContext } from "@/mail/lib/db";
import { fileSize, fullDate } from "@/mail/lib/format";
import { attachmentsOf, getMessage, people, personText, type MessageRow } from "@/mail/lib/mail";

export const metadata = { title: "New message" };

function quote(m: MessageRow, locale: string): string {
  const lines = m.body.trimEnd().split("\n").map((l) => (l ? `> ${l}` : ">"));
  return `On ${fullDate(m.sent_at, locale)}, ${m.from_name || m.from_email} <${m.from_email}> wrote:\n${lines.join("\n")}`;
}

function forwarded(m: MessageRow, locale: string): string {
  return [
    "---------- Forwarded message ---------",
    `From: ${m.from_name ? `${m.from_name} <${m.from_email}>` : m.from_email}`,
    `Date: ${fullDate(m.sent_at, locale)}`,
    `Subject: ${m.subject}`,
    `To: ${people(m.to_json).map(personText).join(", ")}`,
    "",
    m.body,
  ].join("\n");
}

export default async function ComposePage({ searchParams }: { searchParams: Promise<Search> }) {
  const sp = await searchParams;
  const user = await requireUser();
  const ctx = mailContext();
  const own = ownAddresses(user);
  const fromChoices = [user.email, user.work_email]
    .filter((a): a is string => !!a)
    .map((a) => ({ value: a, label: `${user.full_name} <${a}>` }));
  const d: ComposeDefaults = {
    from: user.email, fromChoices, to: "", cc: "", subject: "", body: "", draft: "", replyTo: "", mode: "new",
    forward: [], draftFiles: [], signature: user.signature.trim(), error: errorMessage(sp),
    idem: idempotencyToken(),
  };
  const draftId = idValue(one(sp.draft));
  const replyId = idValue(one(sp.reply));
  if (one(sp.draft) && draftId === null) notFound();
  if (one(sp.reply) && replyId === null) notFound();
  if (draftId !== null) {
    const m = db().prepare("SELECT * FROM messages WHERE id = ? AND folder = 'drafts'").get(draftId) as MessageRow | undefined;
    if (!m) notFound();
    d.draft = String(m.id);
    d.from = m.from_email || user.email;
    d.to = formatAddresses(people(m.to_json));
    d.cc = formatAddresses(people(m.cc_json));
    d.subject = m.subject;
    d.body = m.body;
    d.draftFiles = (attachmentsOf([m.id]).get(m.id) ?? []).map((a) => a.filename);
  } else if (replyId !== null) {
    const m = getMessage(replyId);
    if (!m) notFound();
    const mode = one(sp.mode) === "all" ? "all" : one(sp.mode) === "forward" ? "forward" : "reply";
    d.replyTo = String(m.id);
    d.mode = mode;
    const to = people(m.to_json);
    const cc = people(m.cc_json);
    const mine = own.includes(m.from_email.toLowerCase());
    const invited = [...to, ...cc].find((p) => own.includes(p.email.toLowerCase()));
    d.from = mine ? m.from_email : (invited?.email ?? user.email);
    const strip = (s: string) => s.replace(/^\s*((re|fwd?)\s*:\s*)+/i, "");
    if (mode === "forward") {
      d.subject = `Fwd: ${strip(m.subject)}`;
      d.body = `\n\n${forwarded(m, ctx.locale)}`;
      d.forward = (attachmentsOf([m.id]).get(m.id) ?? []).map((a) => ({ id: a.id, label: `${a.filename} (${fileSize(a.size)})` }));
    } else {
      d.subject = /^re:/i.test(m.subject) ? m.subject : `Re: ${m.subject}`;
      d.body = `\n\n${quote(m, ctx.locale)}\n`;
      const first = mine ? to : [{ name: m.from_name, email: m.from_email }];
      if (mode === "all") {
        const rest = mine ? [] : to;
        const seen = new Set<string>();
        const keep = (p: { email: string }) => {
          const k = p.email.toLowerCase();
          if (own.includes(k) || seen.has(k)) return false;
          seen.add(k);
          return true;
        };
        d.to = formatAddresses([...first, ...rest].filter(keep));
        d.cc = formatAddresses(cc.filter(keep));
      } else d.to = formatAddresses(first);
    }
  }
  const title = d.draft ? "Draft" : d.mode === "forward" ? "Forward" : d.mode === "new" ? "New message" : d.mode === "all" ? "Reply all" : "Reply";
  return (
    <section className="mb-compose-page">
      <h1 className="mb-list-title">{title}</h1>
      <ComposeForm d={d} />
    </section>
  );
}
