import crypto from "node:crypto";
import DE from "./replies/de.json";
import EN from "./replies/en.json";

/**
 * People answer: the reply a contact sends to what the persona wrote, in messaging, work chat
 * or mail.
 *
 * The deterministic engine reads only the contact's card (stored by the app's seed from
 * `builder.world.cards.contact_card`), the conversation so far and the new message: it finds the
 * intent (availability on a day, a plan, money, thanks...), answers from the card's facts (a
 * shared plan that day, the contact's busy evening, an open money request) in the contact's
 * messaging style, and picks among phrasings by a SHA-256 of (seed, contact, turn number, text),
 * so the same conversation always gets the same reply. With `PERSONA_REPLY_API_BASE` set (an
 * OpenAI-compatible endpoint; `PERSONA_REPLY_API_KEY`, `PERSONA_REPLY_MODEL`), the model writes
 * the reply from the same card instead, falling back to the engine on any error.
 */

export interface ContactCard {
  name: string;
  first_name: string;
  relationship?: string;
  style?: string;
  colleague?: boolean;
  persona: { name: string; first_name: string };
  locale?: string;
  plans?: { what: string; start: string; where?: string }[];
  meetings?: { title: string; start: string }[];
  busy?: { date: string; reason: string }[];
  requests?: { amount_cents: number; amount: string; memo: string; asked: string }[];
  payments?: { direction: string; amount: string; memo: string; date: string }[];
  [key: string]: unknown;
}

export interface Turn {
  /** "me" is the persona; "them" the contact. */
  from: "me" | "them";
  text: string;
  /** Local ISO time. */
  at?: string;
}

export interface ReplyOptions {
  /** Anything that tells conversations apart (the app name + thread id). */
  seed: string;
  /** The app's now, local ISO `YYYY-MM-DDTHH:MM:SS`. */
  now: string;
  /** Where the reply is sent: sets the delay and the register. */
  channel?: "chat" | "work" | "mail";
}

export interface Reply {
  text: string;
  /** Seconds after the incoming message the reply arrives. */
  delaySeconds: number;
  /** Which path wrote it. */
  source: "engine" | "model";
  /** The intent the engine found (for tests and logs). */
  intent: string;
}

/** A bank's shape is en.json's, except the day words, which are each language's own. */
type Bank = Omit<typeof EN, "words"> & {
  words: Omit<typeof EN.words, "days"> & { days: Record<string, string | number> };
};
/** Phrase banks by language (the card's locale, e.g. "de_DE" -> "de"); English when there is none. */
const BANKS: Record<string, Bank> = { en: EN, de: DE as Bank };
const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;

function digest(...parts: (string | number)[]): number {
  return Number.parseInt(crypto.createHash("sha256").update(parts.join("\u0000")).digest("hex").slice(0, 12), 16);
}

function has(text: string, words: readonly string[]): boolean {
  return words.some((w) => new RegExp(`(^|[^\\p{L}])${w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^\\p{L}])`, "iu").test(text));
}

function addDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The day a message asks about, as [YYYY-MM-DD, adverb ("on Saturday"), noun ("Saturday")], or null.
 * The bank's `words.days` maps a word to days ahead (0 today, 1 tomorrow), a weekday, or "weekend" (Saturday). */
function dayAsked(text: string, now: string, bank: Bank): [string, string, string] | null {
  const today = now.slice(0, 10);
  const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  const F = bank.format;
  for (const [word, value] of Object.entries(bank.words.days)) {
    if (!has(text, [word])) continue;
    if (typeof value === "number") return [addDays(today, value), word, cap(word)];
    const want = WEEKDAYS.indexOf((value === "weekend" ? "sat" : value) as (typeof WEEKDAYS)[number]);
    const dow = new Date(`${today}T12:00:00Z`).getUTCDay();
    const ahead = ((want - dow + 7) % 7) || 7;
    if (value === "weekend") return [addDays(today, ahead), F.weekend, F.Weekend];
    const name = F.weekdays[value as keyof typeof F.weekdays];
    return [addDays(today, ahead), fill(F.on_day, { weekday: name }), name];
  }
  return null;
}

/** "on Saturday, Dec 5 at 7pm" / "am Samstag, 5. Dez. um 19:00": a local ISO start in the bank's words. */
function when(start: string, now: string, bank: Bank): string {
  const F = bank.format;
  const day = start.slice(0, 10);
  const today = now.slice(0, 10);
  const t = start.slice(11, 16);
  const [h, m] = t.split(":").map(Number);
  const clock = !Number.isFinite(h)
    ? ""
    : F.clock === "24h"
      ? `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`
      : `${((h + 11) % 12) + 1}${m ? `:${String(m).padStart(2, "0")}` : ""}${h < 12 ? "am" : "pm"}`;
  const date = new Date(`${day}T12:00:00Z`);
  const short = new Intl.DateTimeFormat(F.intl, { month: "short", day: "numeric", timeZone: "UTC" }).format(date);
  const weekday = F.weekdays[WEEKDAYS[date.getUTCDay()]];
  const dayWords = day === today ? F.today : day === addDays(today, 1) ? F.tomorrow : fill(F.on_date, { weekday, date: short });
  return clock ? fill(F.at, { day: dayWords, clock }) : dayWords;
}

function fill(template: string, slots: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => slots[k] ?? "");
}

/** The deterministic reply (see the module comment). Never throws. */
export function engineReply(card: ContactCard, history: Turn[], incoming: string, opts: ReplyOptions): Reply {
  const bank: Bank = BANKS[(card.locale ?? "en").slice(0, 2)] ?? BANKS.en;
  const W = bank.words;
  const text = incoming.trim().slice(0, 4000);
  const style = (["brief", "chatty", "formal", "emoji"].includes(card.style ?? "") ? card.style : "chatty") as
    | "brief"
    | "chatty"
    | "formal"
    | "emoji";
  const h = digest(opts.seed, card.name, history.length, text);
  const slots: Record<string, string> = { first: card.persona.first_name, me: card.first_name };
  const plans = [
    ...(card.plans ?? []).map((p) => ({ what: p.what, start: p.start })),
    ...(card.meetings ?? []).map((m) => ({ what: m.title, start: m.start })),
  ]
    .filter((p) => p.start >= opts.now.slice(0, 10))
    .sort((a, b) => (a.start < b.start ? -1 : 1));
  const work = opts.channel === "work";
  let intent = "default";
  let table: Record<string, string[]> = bank.replies.default;

  const pick = (name: string, t: Record<string, Record<string, string[]>>) => {
    intent = name;
    table = t[name];
  };
  const day = dayAsked(text, opts.now, bank);
  const open = card.requests ?? [];
  if (has(text, W.money_paid)) {
    pick(open.length ? "paid_request" : "paid_other", bank.replies);
  } else if (has(text, W.money_ask)) {
    if (open.length) {
      pick("owe", bank.replies);
      slots.amount = open[0].amount;
      slots.memo = open[0].memo;
    } else pick("owe_nothing", bank.replies);
  } else if (work && plans.length && (has(text, ["meeting", "standup", "stand-up", "sync", "call", "review"]) || has(text, W.plans_check))) {
    pick("meeting", bank.work);
    slots.plan = plans[0].what;
    slots.when = when(plans[0].start, opts.now, bank);
  } else if (has(text, W.plans_check) && plans.length) {
    pick("plans_check", bank.replies);
    slots.plan = plans[0].what;
    slots.when = when(plans[0].start, opts.now, bank);
  } else if (day && (has(text, W.availability) || has(text, W.plan) || text.includes("?"))) {
    slots.day = day[1];
    slots.Day = day[2];
    const shared = plans.find((p) => p.start.slice(0, 10) === day[0]);
    const busy = (card.busy ?? []).find((b) => b.date === day[0]);
    if (shared) {
      pick("already_planned", bank.replies);
      slots.plan = shared.what;
      slots.when = when(shared.start, opts.now, bank);
    } else if (busy) {
      pick("busy", bank.replies);
      slots.reason = busy.reason;
    } else pick("free", bank.replies);
  } else if (has(text, W.plan)) {
    pick("plan", bank.replies);
  } else if (has(text, W.thanks)) {
    pick("thanks", bank.replies);
  } else if (has(text, W.sorry)) {
    pick("sorry", bank.replies);
  } else if (has(text, W.bye)) {
    pick("bye", bank.replies);
  } else if (text.includes("?")) {
    pick("question", bank.replies);
  } else if (has(text, W.greeting) && text.length < 40) {
    pick("greeting", bank.replies);
  } else if (has(text, W.ok)) {
    pick("ok", bank.replies);
  } else if (work) {
    pick("default", bank.work);
  }
  const variants = table[style] ?? table.chatty ?? Object.values(table)[0];
  const reply = fill(variants[h % variants.length], slots);
  const base = opts.channel === "mail" ? [240, 1500] : work ? [30, 150] : [12, 75];
  return { text: reply, delaySeconds: base[0] + (Math.floor(h / 7) % base[1]), source: "engine", intent };
}

async function modelReply(card: ContactCard, history: Turn[], incoming: string, opts: ReplyOptions, fallback: Reply): Promise<Reply> {
  const base = (process.env.PERSONA_REPLY_API_BASE ?? "").replace(/\/+$/, "");
  const system =
    `You are ${card.name}, writing to ${card.persona.name} (${card.relationship ?? "contact"}) ` +
    `by ${opts.channel ?? "chat"}. Today is ${opts.now.slice(0, 10)}. Write only your reply, in your own ` +
    `style (${card.style ?? "chatty"}), short, using only these facts about you:\n${JSON.stringify(card)}`;
  const messages = [
    { role: "system", content: system },
    ...history.slice(-20).map((t) => ({ role: t.from === "them" ? "assistant" : "user", content: t.text })),
    { role: "user", content: incoming },
  ];
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), 20_000);
  try {
    const res = await fetch(`${base}/chat/completions`, {
      method: "POST",
      signal: ctl.signal,
      headers: {
        "Content-Type": "application/json",
        ...(process.env.PERSONA_REPLY_API_KEY ? { Authorization: `Bearer ${process.env.PERSONA_REPLY_API_KEY}` } : {}),
      },
      body: JSON.stringify({ model: process.env.PERSONA_REPLY_MODEL || "gpt-4o-mini", messages, temperature: 0 }),
    });
    if (!res.ok) return fallback;
    const data = (await res.json()) as { choices?: { message?: { content?: string } }[] };
    const text = data.choices?.[0]?.message?.content?.trim();
    return text ? { ...fallback, text: text.slice(0, 4000), source: "model", intent: "model" } : fallback;
  } catch {
    return fallback;
  } finally {
    clearTimeout(timer);
  }
}

/** The contact's reply to `incoming`: the model's when an endpoint is configured, else the engine's. */
export async function reply(card: ContactCard, history: Turn[], incoming: string, opts: ReplyOptions): Promise<Reply> {
  const engine = engineReply(card, history, incoming, opts);
  return process.env.PERSONA_REPLY_API_BASE ? modelReply(card, history, incoming, opts, engine) : engine;
}
