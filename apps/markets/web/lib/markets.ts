import { randomInt } from "node:crypto";
import { pullFromBank, pushToBank, TransferRefused } from "@persona/platform/transfers";
import { parseMoney } from "@persona/ui/format";
import { db } from "./db";
import { hunchContext } from "./context";

/** A refused request: a message the page shows (`?error=`); nothing was written. */
export class MarketError extends Error {
  constructor(message: string, readonly field?: string) {
    super(message);
  }
}

/** The firm name the bank's ledger line carries for a transfer. */
export const BRAND = "Hunchline";
/** A share of the winning side pays this many cents. */
export const SHARE_PAYS_CENTS = 100;
/** Hunchline charges no trading fees (the confirmation shows 0.00). */
export const FEE_CENTS = 0;
/** Most shares in one order. */
export const MAX_SHARES = 100_000;
/** Smallest and largest transfer, cents. */
export const MIN_TRANSFER_CENTS = 100;
export const MAX_TRANSFER_CENTS = 2_500_000;

export type Side = "yes" | "no";
export type Action = "buy" | "sell";

export interface Category {
  key: string;
  name: string;
  count: number;
}

export interface Market {
  ticker: string;
  category: string;
  category_name: string;
  question: string;
  rules: string;
  open_date: string;
  close_date: string;
  resolve_date: string;
  status: "open" | "closed" | "resolved";
  outcome: Side | null;
  yes_cents: number;
  volume: number;
  local: number;
}

export interface Position {
  ticker: string;
  side: Side;
  shares: number;
  cost_cents: number;
  realized_cents: number;
  settled: number;
  question: string;
  status: Market["status"];
  outcome: Side | null;
  yes_cents: number;
  close_date: string;
}

export interface ActivityLine {
  id: number;
  at: string;
  kind: "deposit" | "withdrawal" | "buy" | "sell" | "payout";
  reference: string;
  ticker: string | null;
  side: Side | null;
  shares: number | null;
  price_cents: number | null;
  amount_cents: number;
  question: string | null;
  account_last4: string | null;
}

const MARKET_SQL = `SELECT m.ticker, m.category, c.name AS category_name, m.question, m.rules, m.open_date, m.close_date,
  m.resolve_date, m.status, m.outcome, m.yes_cents, m.volume, m.local FROM markets m JOIN categories c ON c.key = m.category`;

/** Categories in their order, with how many markets each has. */
export function categories(): Category[] {
  return db()
    .prepare("SELECT c.key, c.name, COUNT(m.ticker) AS count FROM categories c LEFT JOIN markets m ON m.category = c.key GROUP BY c.key ORDER BY c.position")
    .all() as Category[];
}

/** Whether the market takes orders on `today` (YYYY-MM-DD): not resolved, and today is before its close date. */
export function tradable(m: Pick<Market, "status" | "close_date">, today: string): boolean {
  return m.status !== "resolved" && today < m.close_date;
}

/** Market state as the app's today sees it: "open" while tradable, else "closed" until resolved. */
export function stateOf(m: Pick<Market, "status" | "close_date">, today: string): Market["status"] {
  return m.status === "resolved" ? "resolved" : tradable(m, today) ? "open" : "closed";
}

/**
 * Markets matching `q` (every word in the question, ticker or category name, case-insensitive) in `category`
 * ("" = all) and `state` ("open" | "closed" | "resolved" | "" = all at the app's today), soonest close first
 * for open markets, latest first otherwise.
 */
export function listMarkets({ q = "", category = "", state = "" }: { q?: string; category?: string; state?: string }): Market[] {
  const today = hunchContext().today;
  const words = q.toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8);
  let rows = db().prepare(`${MARKET_SQL} ORDER BY m.close_date, m.ticker`).all() as Market[];
  if (category) rows = rows.filter((m) => m.category === category);
  if (words.length) {
    rows = rows.filter((m) => {
      const hay = `${m.question} ${m.ticker} ${m.category_name}`.toLowerCase();
      return words.every((w) => hay.includes(w));
    });
  }
  if (state) rows = rows.filter((m) => stateOf(m, today) === state);
  return rows;
}

/** One market by ticker, or null. */
export function market(ticker: string): Market | null {
  return (db().prepare(`${MARKET_SQL} WHERE m.ticker = ?`).get(ticker) as Market | undefined) ?? null;
}

/** The market's daily YES prices `[{day, yes_cents}]`, oldest first. */
export function priceHistory(ticker: string): { day: string; yes_cents: number }[] {
  return db().prepare("SELECT day, yes_cents FROM prices WHERE ticker = ? ORDER BY day").all(ticker) as { day: string; yes_cents: number }[];
}

/** Price of one share of `side` in cents at the market's latest YES price. */
export function sidePrice(m: Pick<Market, "yes_cents">, side: Side): number {
  return side === "yes" ? m.yes_cents : 100 - m.yes_cents;
}

/** The account's cash: the sum of its activity, cents. */
export function balance(userId: number): number {
  return (db().prepare("SELECT COALESCE(SUM(amount_cents), 0) AS c FROM activity WHERE user_id = ?").get(userId) as { c: number }).c;
}

/** Positions with shares or realized profit, open markets first; `shares` 0 rows after a full sale are kept. */
export function positions(userId: number): Position[] {
  return db()
    .prepare(
      `SELECT p.ticker, p.side, p.shares, p.cost_cents, p.realized_cents, p.settled, m.question, m.status, m.outcome, m.yes_cents, m.close_date
       FROM positions p JOIN markets m ON m.ticker = p.ticker WHERE p.user_id = ? ORDER BY p.settled, m.close_date, p.ticker, p.side`,
    )
    .all(userId) as Position[];
}

/** What a position is worth now: shares x the side's price (open/closed), or its payout once resolved. */
export function positionValue(p: Position): number {
  if (p.status === "resolved") return p.side === p.outcome ? p.shares * SHARE_PAYS_CENTS : 0;
  return p.shares * sidePrice(p, p.side);
}

/** Profit and loss of a position: realized + (value - cost) while unsettled; realized once settled. */
export function positionPnl(p: Position): number {
  return p.settled ? p.realized_cents : p.realized_cents + positionValue(p) - p.cost_cents;
}

/** Shares of `ticker`/`side` held (0 when none). */
export function held(userId: number, ticker: string, side: Side): number {
  const r = db().prepare("SELECT shares FROM positions WHERE user_id = ? AND ticker = ? AND side = ?").get(userId, ticker, side) as { shares: number } | undefined;
  return r?.shares ?? 0;
}

/** The account's history, newest first (at most `limit` lines from `offset`) and the total count. */
export function activity(userId: number, kind = "", limit = 50, offset = 0): { rows: ActivityLine[]; total: number } {
  const where = kind ? "AND a.kind = ?" : "";
  const args: (string | number)[] = kind ? [userId, kind] : [userId];
  const total = (db().prepare(`SELECT COUNT(*) AS n FROM activity a WHERE a.user_id = ? ${where}`).get(...args) as { n: number }).n;
  const rows = db()
    .prepare(
      `SELECT a.id, a.at, a.kind, a.reference, a.ticker, a.side, a.shares, a.price_cents, a.amount_cents, a.account_last4, m.question
       FROM activity a LEFT JOIN markets m ON m.ticker = a.ticker WHERE a.user_id = ? ${where} ORDER BY a.at DESC, a.id DESC LIMIT ? OFFSET ?`,
    )
    .all(...args, limit, offset) as ActivityLine[];
  return { rows, total };
}

/** Tickers on the watchlist, in the order they were added. */
export function watchlist(userId: number): Market[] {
  return db()
    .prepare(`${MARKET_SQL} JOIN watchlist w ON w.ticker = m.ticker WHERE w.user_id = ? ORDER BY w.added_at, m.ticker`)
    .all(userId) as Market[];
}

export function isWatched(userId: number, ticker: string): boolean {
  return !!db().prepare("SELECT 1 FROM watchlist WHERE user_id = ? AND ticker = ?").get(userId, ticker);
}

/** Put a market on (on = true) or off the watchlist. Throws MarketError for an unknown ticker. */
export function setWatch(userId: number, ticker: string, on: boolean): Market {
  const t = hunchContext().t;
  const m = market(ticker);
  if (!m) throw new MarketError(t("There is no market with that ticker.", "Diesen Markt gibt es nicht."), "ticker");
  if (on) {
    db().prepare("INSERT OR IGNORE INTO watchlist (user_id, ticker, added_at, world_ref) VALUES (?, ?, ?, NULL)").run(userId, ticker, hunchContext().now);
  } else {
    db().prepare("DELETE FROM watchlist WHERE user_id = ? AND ticker = ?").run(userId, ticker);
  }
  return m;
}

/** An order as the confirmation page shows it and the trade route checks it. */
export interface OrderQuote {
  market: Market;
  side: Side;
  action: Action;
  shares: number;
  price_cents: number;
  /** shares x price. */
  subtotal_cents: number;
  fee_cents: number;
  /** What leaves the balance (a buy) or arrives (a sell): subtotal + fee for a buy, subtotal - fee for a sell. */
  total_cents: number;
  balance_cents: number;
  balance_after_cents: number;
  /** If the side wins: shares x 1.00. */
  max_payout_cents: number;
  held: number;
}

/**
 * Validate an order (ticker, side, action, shares as typed) and price it at the market's latest price.
 * Throws MarketError (field named) for an unknown market, a bad side/action, a share count that is not a whole
 * number from 1 to MAX_SHARES, a market that no longer trades, a buy over the balance or a sale of more shares
 * than held.
 */
export function quote(userId: number, ticker: string, sideText: string, actionText: string, sharesText: string): OrderQuote {
  const ctx = hunchContext();
  const t = ctx.t;
  const m = market(ticker);
  if (!m) throw new MarketError(t("There is no market with that ticker.", "Diesen Markt gibt es nicht."), "ticker");
  if (sideText !== "yes" && sideText !== "no") throw new MarketError(t("Choose Yes or No.", "Wählen Sie Ja oder Nein."), "side");
  if (actionText !== "buy" && actionText !== "sell") throw new MarketError(t("Choose Buy or Sell.", "Wählen Sie Kaufen oder Verkaufen."), "action");
  const s = sharesText.trim();
  if (!/^\d{1,7}$/.test(s) || Number(s) < 1 || Number(s) > MAX_SHARES) {
    throw new MarketError(t(`Enter a whole number of shares from 1 to ${MAX_SHARES.toLocaleString("en-US")}.`, `Geben Sie eine ganze Anzahl Anteile von 1 bis ${MAX_SHARES.toLocaleString("de-DE")} ein.`), "shares");
  }
  if (!tradable(m, ctx.today)) {
    throw new MarketError(
      m.status === "resolved"
        ? t("This market has resolved; it takes no more orders.", "Dieser Markt ist entschieden und nimmt keine Aufträge mehr an.")
        : t(`Trading in this market closed on ${ctx.date(m.close_date, "long")}.`, `Der Handel in diesem Markt endete am ${ctx.date(m.close_date, "long")}.`),
      "ticker",
    );
  }
  const side = sideText as Side;
  const action = actionText as Action;
  const shares = Number(s);
  const price = sidePrice(m, side);
  const subtotal = shares * price;
  const have = held(userId, m.ticker, side);
  const cash = balance(userId);
  const total = action === "buy" ? subtotal + FEE_CENTS : subtotal - FEE_CENTS;
  if (action === "sell" && shares > have) {
    throw new MarketError(
      t(`You hold ${have} ${side.toUpperCase()} shares of this market; you cannot sell ${shares}.`, `Sie halten ${have} ${side === "yes" ? "JA" : "NEIN"}-Anteile dieses Markts und können nicht ${shares} verkaufen.`),
      "shares",
    );
  }
  if (action === "buy" && total > cash) {
    throw new MarketError(
      t(`That order costs ${ctx.money(total)} but your balance is ${ctx.money(cash)}. Deposit from your bank or buy fewer shares.`, `Der Auftrag kostet ${ctx.money(total)}, Ihr Guthaben beträgt ${ctx.money(cash)}. Zahlen Sie ein oder kaufen Sie weniger Anteile.`),
      "shares",
    );
  }
  return {
    market: m, side, action, shares, price_cents: price, subtotal_cents: subtotal, fee_cents: FEE_CENTS, total_cents: total,
    balance_cents: cash, balance_after_cents: action === "buy" ? cash - total : cash + total,
    max_payout_cents: shares * SHARE_PAYS_CENTS, held: have,
  };
}

/** A reference no activity line of `kind` has: call it inside the write transaction that inserts the line, so it is
 * unique by construction (random, retried on a collision). */
function newReference(prefix: string, kind: string): string {
  for (;;) {
    const ref = `${prefix}-${randomInt(100000, 999999)}`;
    if (!db().prepare("SELECT 1 FROM activity WHERE kind = ? AND reference = ?").get(kind, ref)) return ref;
  }
}

/**
 * Place a confirmed order. `expectedPrice` is the per-share price the confirmation showed: if the price moved the
 * order is refused (nothing written). Checks the balance (or the shares held) and writes the activity line and the
 * position in one BEGIN IMMEDIATE transaction, so simultaneous orders never spend the same cash or sell the same
 * shares twice; returns the trade's reference (HL-T-######).
 */
export function placeOrder(userId: number, ticker: string, side: string, action: string, shares: string, expectedPrice: string): string {
  const ctx = hunchContext();
  return db().transaction(() => {
    const q = quote(userId, ticker, side, action, shares);
    if (expectedPrice !== String(q.price_cents)) {
      throw new MarketError(ctx.t("The price changed since you reviewed this order; review it again.", "Der Preis hat sich geändert; prüfen Sie den Auftrag erneut."), "price");
    }
    const ref = newReference("HL-T", q.action);
    db()
      .prepare(
        `INSERT INTO activity (user_id, at, kind, reference, ticker, side, shares, price_cents, amount_cents, bank_transaction_id, account_last4, world_ref)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, NULL)`,
      )
      .run(userId, ctx.now, q.action, ref, q.market.ticker, q.side, q.shares, q.price_cents, q.action === "buy" ? -q.total_cents : q.total_cents);
    const pos = db().prepare("SELECT shares, cost_cents, realized_cents FROM positions WHERE user_id = ? AND ticker = ? AND side = ?").get(userId, q.market.ticker, q.side) as
      | { shares: number; cost_cents: number; realized_cents: number }
      | undefined;
    if (q.action === "buy") {
      if (pos) {
        db().prepare("UPDATE positions SET shares = shares + ?, cost_cents = cost_cents + ? WHERE user_id = ? AND ticker = ? AND side = ?").run(q.shares, q.total_cents, userId, q.market.ticker, q.side);
      } else {
        db().prepare("INSERT INTO positions (user_id, ticker, side, shares, cost_cents, realized_cents, settled) VALUES (?, ?, ?, ?, ?, 0, 0)").run(userId, q.market.ticker, q.side, q.shares, q.total_cents);
      }
    } else {
      const p = pos!;
      const part = Math.round((p.cost_cents * q.shares) / p.shares);
      db()
        .prepare("UPDATE positions SET shares = shares - ?, cost_cents = cost_cents - ?, realized_cents = realized_cents + ? WHERE user_id = ? AND ticker = ? AND side = ?")
        .run(q.shares, part, q.total_cents - part, userId, q.market.ticker, q.side);
    }
    return ref;
  }).immediate();
}

/** Longest amount text a transfer form may post. */
const AMOUNT_CHARS = 24;

/**
 * Move money between the persona's checking account and the Hunchline balance through the bank
 * (@persona/platform/transfers): "deposit" pulls from checking, "withdraw" pushes to it. `amountText` is typed
 * money in the persona's locale. Reserve first: one BEGIN IMMEDIATE transaction checks the balance and inserts the
 * activity line under a new unique reference (HL-D-###### / HL-W-######): a withdrawal at its full amount (so the
 * cash is spoken for before the bank is asked), a deposit at 0 (its money is not here yet). Then the bank is asked
 * under that reference; on a refusal the line is deleted again (nothing moved anywhere), on success it gets its
 * amount and the bank's line id. Returns the reference.
 */
export async function transfer(userId: number, direction: string, amountText: string): Promise<string> {
  const ctx = hunchContext();
  const t = ctx.t;
  if (direction !== "deposit" && direction !== "withdraw") throw new MarketError(t("Choose deposit or withdraw.", "Wählen Sie Einzahlen oder Auszahlen."), "direction");
  const cents = amountText.length > AMOUNT_CHARS ? null : parseMoney(amountText, ctx.locale);
  if (cents === null || cents < MIN_TRANSFER_CENTS || cents > MAX_TRANSFER_CENTS) {
    throw new MarketError(t(`Enter an amount from ${ctx.money(MIN_TRANSFER_CENTS)} to ${ctx.money(MAX_TRANSFER_CENTS)}.`, `Geben Sie einen Betrag von ${ctx.money(MIN_TRANSFER_CENTS)} bis ${ctx.money(MAX_TRANSFER_CENTS)} ein.`), "amount");
  }
  const kind = direction === "deposit" ? "deposit" : "withdrawal";
  const signed = kind === "deposit" ? cents : -cents;
  const conn = db();
  const ref = conn
    .transaction((): string => {
      const cash = balance(userId);
      if (kind === "withdrawal" && cents > cash) {
        throw new MarketError(t(`You can withdraw up to your balance of ${ctx.money(Math.max(cash, 0))}.`, `Sie können höchstens Ihr Guthaben von ${ctx.money(Math.max(cash, 0))} auszahlen.`), "amount");
      }
      const r = newReference(kind === "deposit" ? "HL-D" : "HL-W", kind);
      conn
        .prepare(
          `INSERT INTO activity (user_id, at, kind, reference, ticker, side, shares, price_cents, amount_cents, bank_transaction_id, account_last4, world_ref)
           VALUES (?, ?, ?, ?, NULL, NULL, NULL, NULL, ?, NULL, NULL, NULL)`,
        )
        .run(userId, ctx.now, kind, r, kind === "withdrawal" ? signed : 0);
      return r;
    })
    .immediate();
  let receipt;
  try {
    const body = { app: "markets", counterparty: BRAND, amount_cents: cents, reference: ref, memo: `${BRAND} ${kind} ${ref}` };
    receipt = kind === "deposit" ? await pullFromBank(body) : await pushToBank(body);
  } catch (e) {
    conn.prepare("DELETE FROM activity WHERE kind = ? AND reference = ? AND bank_transaction_id IS NULL AND world_ref IS NULL").run(kind, ref);
    if (e instanceof TransferRefused) {
      const why = e.status === 402 ? t("your checking account does not have enough money", "Ihr Girokonto ist nicht ausreichend gedeckt") : e.message;
      throw new MarketError(t(`The bank refused the transfer: ${why}. Nothing was moved.`, `Die Bank hat die Überweisung abgelehnt: ${why}. Es wurde nichts bewegt.`), "amount");
    }
    throw e;
  }
  conn
    .prepare("UPDATE activity SET amount_cents = ?, bank_transaction_id = ?, account_last4 = ? WHERE kind = ? AND reference = ?")
    .run(signed, receipt.transaction_id, receipt.account_last4, kind, ref);
  return ref;
}

/** Totals of the account for the portfolio header: deposits, withdrawals, payouts (cents). */
export function totals(userId: number): { deposits: number; withdrawals: number; payouts: number } {
  const r = db()
    .prepare(
      `SELECT COALESCE(SUM(CASE WHEN kind = 'deposit' THEN amount_cents END), 0) AS deposits,
              COALESCE(-SUM(CASE WHEN kind = 'withdrawal' THEN amount_cents END), 0) AS withdrawals,
              COALESCE(SUM(CASE WHEN kind = 'payout' THEN amount_cents END), 0) AS payouts FROM activity WHERE user_id = ?`,
    )
    .get(userId) as { deposits: number; withdrawals: number; payouts: number };
  return r;
}
