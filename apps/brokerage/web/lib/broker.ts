import { addDays } from "@persona/platform/clock";
import { db } from "./db";

/**
 * Tidewell's reads and writes over brokerage.sqlite (schema: apps/brokerage/models.py).
 *
 * Money is integer cents; share counts are integer 1/10000 shares (`shares_e4`). Prices "as of" a day are the last
 * close at or before it: market orders fill there (the app's today is the world's frozen now). The value of shares is
 * shares x price rounded half up, as builder/world/investing.py `amount_of` computes it.
 */

/** A refusal: nothing was written. `field` names the form field at fault. */
export class BrokerError extends Error {
  constructor(message: string, readonly field?: string) {
    super(message);
  }
}

export interface Security {
  symbol: string;
  name: string;
  asset_class: string;
  class_label: string;
  sector: string;
  yield_bp: number;
  pay_months: string;
  split_on: string | null;
  split_ratio: number | null;
}

export interface Close {
  day: string;
  close_cents: number;
}

export type Side = "buy" | "sell";
export type OrderType = "market" | "limit" | "stop" | "stop_limit";
export const ORDER_TYPES: OrderType[] = ["market", "limit", "stop", "stop_limit"];

/** shares_e4 x price_cents / 10000, rounded half up (exact integers). */
export function valueOf(sharesE4: number, priceCents: number): number {
  return Number((BigInt(sharesE4) * BigInt(priceCents) * BigInt(2) + BigInt(10000)) / BigInt(20000));
}

/** a x b / c rounded half up, for positive integers. */
function mulDiv(a: number, b: number, c: number): number {
  return Number((BigInt(a) * BigInt(b) * BigInt(2) + BigInt(c)) / (BigInt(c) * BigInt(2)));
}

/** "12.5" from 125000 (up to 4 places, no trailing zeros). */
export function sharesText(sharesE4: number): string {
  const whole = Math.floor(sharesE4 / 10000);
  const frac = String(sharesE4 % 10000).padStart(4, "0").replace(/0+$/, "");
  return frac ? `${whole}.${frac}` : String(whole);
}

/** Parse a typed share count ("3", "0.25", "1,5" in German) into shares_e4, or null (at most 4 decimals, > 0). */
export function parseShares(input: string): number | null {
  const s = input.trim().replace(",", ".");
  const m = /^(\d{0,7})(?:\.(\d{1,4}))?$/.exec(s);
  if (!m || s === "" || s === ".") return null;
  const e4 = Number(m[1] || "0") * 10000 + Number((m[2] ?? "").padEnd(4, "0") || "0");
  return e4 > 0 && e4 <= 10_000_000_000 ? e4 : null;
}

export function security(symbol: string): Security | null {
  return (db().prepare("SELECT * FROM securities WHERE symbol = ?").get(symbol) as Security | undefined) ?? null;
}

/** Securities whose symbol or name contains every word of `q` (case-insensitive), symbol order. */
export function searchSecurities(q: string): Security[] {
  const words = q.toLowerCase().split(/\s+/).filter(Boolean).slice(0, 6);
  const all = db().prepare("SELECT * FROM securities ORDER BY symbol").all() as Security[];
  return all.filter((s) => words.every((w) => s.symbol.toLowerCase().includes(w) || s.name.toLowerCase().includes(w) || s.sector.toLowerCase().includes(w)));
}

export function allSecurities(): Security[] {
  return db().prepare("SELECT * FROM securities ORDER BY symbol").all() as Security[];
}

/** The last two closes at or before `today` (newest first). */
export function lastCloses(symbol: string, today: string): Close[] {
  return db().prepare("SELECT day, close_cents FROM prices WHERE symbol = ? AND day <= ? ORDER BY day DESC LIMIT 2").all(symbol, today) as Close[];
}

/** The as-of price of `symbol`: the last close at or before `today`, or null. */
export function priceOf(symbol: string, today: string): Close | null {
  return lastCloses(symbol, today)[0] ?? null;
}

/** Closes from `from` to `today`, oldest first. */
export function history(symbol: string, from: string, today: string): Close[] {
  return db().prepare("SELECT day, close_cents FROM prices WHERE symbol = ? AND day >= ? AND day <= ? ORDER BY day").all(symbol, from, today) as Close[];
}

export function cashCents(): number {
  return (db().prepare("SELECT COALESCE(SUM(amount_cents), 0) AS c FROM cash_ledger").get() as { c: number }).c;
}

/** Cash set aside by buy orders still working at `today` (open and not expired). */
export function reservedCents(today: string): number {
  return (db().prepare("SELECT COALESCE(SUM(reserved_cents), 0) AS c FROM orders WHERE status = 'open' AND expires_on >= ? AND side = 'buy'").get(today) as { c: number }).c;
}

export interface HoldingRow {
  symbol: string;
  name: string;
  asset_class: string;
  shares_e4: number;
  cost_cents: number;
  price_cents: number;
  prev_cents: number;
  value_cents: number;
  day_change_cents: number;
  gain_cents: number;
  avg_cost_cents: number;
}

export function holdings(today: string): HoldingRow[] {
  const rows = db().prepare("SELECT h.symbol, s.name, s.asset_class, h.shares_e4, h.cost_cents FROM holdings h JOIN securities s ON s.symbol = h.symbol ORDER BY h.symbol").all() as {
    symbol: string;
    name: string;
    asset_class: string;
    shares_e4: number;
    cost_cents: number;
  }[];
  return rows.map((r) => {
    const [last, prev] = lastCloses(r.symbol, today);
    const price = last?.close_cents ?? 0;
    const value = valueOf(r.shares_e4, price);
    const prevValue = valueOf(r.shares_e4, prev?.close_cents ?? price);
    return {
      ...r,
      price_cents: price,
      prev_cents: prev?.close_cents ?? price,
      value_cents: value,
      day_change_cents: value - prevValue,
      gain_cents: value - r.cost_cents,
      avg_cost_cents: r.shares_e4 ? mulDiv(r.cost_cents, 10000, r.shares_e4) : 0,
    };
  });
}

export interface Portfolio {
  cash_cents: number;
  reserved_cents: number;
  buying_power_cents: number;
  holdings_cents: number;
  value_cents: number;
  day_change_cents: number;
  cost_cents: number;
  holdings: HoldingRow[];
}

/** The account at `today`: holdings x as-of prices + cash; day change against the previous close. */
export function portfolio(today: string): Portfolio {
  const hs = holdings(today);
  const cash = cashCents();
  const reserved = reservedCents(today);
  const holdingsValue = hs.reduce((a, h) => a + h.value_cents, 0);
  return {
    cash_cents: cash,
    reserved_cents: reserved,
    buying_power_cents: cash - reserved,
    holdings_cents: holdingsValue,
    value_cents: holdingsValue + cash,
    day_change_cents: hs.reduce((a, h) => a + h.day_change_cents, 0),
    cost_cents: hs.reduce((a, h) => a + h.cost_cents, 0),
    holdings: hs,
  };
}

export interface OrderRow {
  id: number;
  order_number: string;
  placed_at: string;
  symbol: string;
  side: Side;
  order_type: OrderType;
  shares_e4: number;
  limit_cents: number | null;
  stop_cents: number | null;
  status: "open" | "filled" | "cancelled";
  filled_at: string | null;
  fill_price_cents: number | null;
  amount_cents: number | null;
  realised_gain_cents: number | null;
  recurring: number;
  time_in_force: TimeInForce;
  expires_on: string;
}

export function orders(status?: string): OrderRow[] {
  const sql = "SELECT * FROM orders" + (status ? " WHERE status = ?" : "") + " ORDER BY placed_at DESC, id DESC";
  return (status ? db().prepare(sql).all(status) : db().prepare(sql).all()) as OrderRow[];
}

export function ordersFor(symbol: string): OrderRow[] {
  return db().prepare("SELECT * FROM orders WHERE symbol = ? ORDER BY placed_at DESC, id DESC LIMIT 20").all(symbol) as OrderRow[];
}

export interface DividendRow {
  id: number;
  paid_on: string;
  symbol: string;
  shares_e4: number;
  per_share: string;
  amount_cents: number;
}

export function dividends(): DividendRow[] {
  return db().prepare("SELECT * FROM dividends ORDER BY paid_on DESC, id DESC").all() as DividendRow[];
}

export interface TransferRow {
  id: number;
  at: string;
  direction: "deposit" | "withdrawal";
  amount_cents: number;
  reference: string;
  account_last4: string;
  recurring: number;
}

export function transfers(): TransferRow[] {
  return db().prepare("SELECT * FROM transfers ORDER BY at DESC, id DESC").all() as TransferRow[];
}

export interface CashRow {
  id: number;
  at: string;
  kind: string;
  amount_cents: number;
  description: string;
}

export function cashLines(limit = 200): CashRow[] {
  return db().prepare("SELECT id, at, kind, amount_cents, description FROM cash_ledger ORDER BY at DESC, id DESC LIMIT ?").all(limit) as CashRow[];
}

export interface Account {
  number: string;
  last4: string;
  name: string;
  opened_on: string;
}

export function account(): Account {
  return db().prepare("SELECT number, last4, name, opened_on FROM account WHERE id = 1").get() as Account;
}

export interface Recurring {
  id: number;
  symbol: string;
  amount_cents: number;
  day: number;
  active: number;
}

export function recurringInvestments(): Recurring[] {
  return db().prepare("SELECT id, symbol, amount_cents, day, active FROM recurring_investments ORDER BY id").all() as Recurring[];
}

export function splits(): { day: string; symbol: string; ratio: number }[] {
  return db().prepare("SELECT day, symbol, ratio FROM splits ORDER BY day DESC").all() as { day: string; symbol: string; ratio: number }[];
}

export function watchlist(): string[] {
  return (db().prepare("SELECT symbol FROM watchlist ORDER BY symbol").all() as { symbol: string }[]).map((r) => r.symbol);
}

export function holdingOf(symbol: string): { shares_e4: number; cost_cents: number } | null {
  return (db().prepare("SELECT shares_e4, cost_cents FROM holdings WHERE symbol = ?").get(symbol) as { shares_e4: number; cost_cents: number } | undefined) ?? null;
}

/** Shares of `symbol` already promised to sell orders still working at `today`. */
function openSellE4(symbol: string, today: string): number {
  return (db().prepare("SELECT COALESCE(SUM(shares_e4), 0) AS n FROM orders WHERE status = 'open' AND expires_on >= ? AND side = 'sell' AND symbol = ?").get(today, symbol) as { n: number }).n;
}

// ---- orders -------------------------------------------------------------------------------------------------------

export interface OrderInput {
  symbol: string;
  side: string;
  type: string;
  /** Share count as typed (market, limit, stop orders). */
  shares: string;
  /** Amount in money as typed, market buys in currency instead of shares; cents once parsed. */
  amountCents?: number | null;
  limitCents?: number | null;
  stopCents?: number | null;
  /** Time in force as chosen: "day" (also when empty) or "gtc"; market orders are day orders. */
  tif?: string;
}

/** How long an order works: for the trading day it is placed on, or good 'til canceled (at most GTC_DAYS). */
export type TimeInForce = "day" | "gtc";
export const TIMES_IN_FORCE: TimeInForce[] = ["day", "gtc"];
/** A GTC order works up to this many calendar days after it is placed (as US brokers cap it), then expires. */
export const GTC_DAYS = 90;

/**
 * The last day (`YYYY-MM-DD`) an order placed on `today` works: a day order its trading day (a Saturday's or Sunday's
 * order waits for Monday's session), a GTC order `GTC_DAYS` later.
 */
export function expiresOn(tif: TimeInForce, today: string): string {
  if (tif === "gtc") return addDays(`${today}T00:00:00`, GTC_DAYS).slice(0, 10);
  const weekday = new Date(`${today}T00:00:00Z`).getUTCDay();
  return addDays(`${today}T00:00:00`, weekday === 6 ? 2 : weekday === 0 ? 1 : 0).slice(0, 10);
}

/** An order's status as the persona sees it at `today`: an open order past its last day has expired. */
export function statusAt(o: { status: string; expires_on: string }, today: string): OrderRow["status"] | "expired" {
  return o.status === "open" && o.expires_on < today ? "expired" : (o.status as OrderRow["status"]);
}

/** An order status (statusAt) in the persona's language. */
export function statusLabel(status: string, t: (en: string, de: string) => string): string {
  const names: Record<string, [string, string]> = {
    open: ["Open", "Offen"],
    filled: ["Filled", "Ausgeführt"],
    cancelled: ["Cancelled", "Storniert"],
    expired: ["Expired", "Verfallen"],
  };
  const n = names[status];
  return n ? t(n[0], n[1]) : status;
}

/** A time in force as the ticket and the order lists name it. */
export function tifLabel(tif: string, t: (en: string, de: string) => string): string {
  return tif === "gtc" ? t("Good 'til canceled", "Gültig bis auf Widerruf") : t("Day", "Tagesgültig");
}

export interface OrderPlan {
  security: Security;
  side: Side;
  type: OrderType;
  shares_e4: number;
  price: Close;
  limit_cents: number | null;
  stop_cents: number | null;
  /** Fills at once at the as-of price (market, or a limit/stop the price already meets). */
  fills: boolean;
  /** Estimated amount at the as-of price (or the limit for a resting buy). */
  estimate_cents: number;
  /** Cash set aside while a buy rests. */
  reserved_cents: number;
  time_in_force: TimeInForce;
  /** The last day the order works if it rests (expiresOn). */
  expires_on: string;
}

/** Whether an order of this kind would execute at `price` now. */
function executes(side: Side, type: OrderType, price: number, limit: number | null, stop: number | null): boolean {
  if (type === "market") return true;
  const limitOk = limit === null || (side === "buy" ? price <= limit : price >= limit);
  const stopHit = stop === null || (side === "buy" ? price >= stop : price <= stop);
  if (type === "limit") return limitOk;
  if (type === "stop") return stopHit;
  return stopHit && limitOk;
}

/** Validate an order against the account at `today` without writing anything. Throws BrokerError. */
export function planOrder(input: OrderInput, today: string, t: (en: string, de: string) => string): OrderPlan {
  const sec = security(input.symbol);
  if (!sec) throw new BrokerError(t("Tidewell does not list that symbol.", "Dieses Wertpapier führt Tidewell nicht."), "symbol");
  if (input.side !== "buy" && input.side !== "sell") throw new BrokerError(t("Choose buy or sell.", "Wählen Sie Kauf oder Verkauf."), "side");
  const side = input.side as Side;
  if (!ORDER_TYPES.includes(input.type as OrderType)) throw new BrokerError(t("Choose an order type.", "Wählen Sie eine Orderart."), "type");
  const type = input.type as OrderType;
  const tifIn = (input.tif ?? "").trim() || "day";
  if (!TIMES_IN_FORCE.includes(tifIn as TimeInForce)) throw new BrokerError(t("Choose how long the order stays in: day or good 'til canceled.", "Wählen Sie die Gültigkeit: Tag oder bis auf Widerruf."), "tif");
  if (type === "market" && tifIn !== "day") throw new BrokerError(t("Market orders are day orders; choose Day or a limit or stop order.", "Market-Orders gelten nur für den Tag; wählen Sie Tag oder eine Limit- oder Stop-Order."), "tif");
  const tif = tifIn as TimeInForce;
  const price = priceOf(sec.symbol, today);
  if (!price) throw new BrokerError(t("There is no price for this security yet.", "Für dieses Wertpapier gibt es noch keinen Kurs."), "symbol");
  const needLimit = type === "limit" || type === "stop_limit";
  const needStop = type === "stop" || type === "stop_limit";
  const limit = needLimit ? (input.limitCents ?? null) : null;
  const stop = needStop ? (input.stopCents ?? null) : null;
  if (needLimit && (!limit || limit <= 0 || limit > 100_000_000)) throw new BrokerError(t("Enter a limit price.", "Geben Sie ein Limit ein."), "limit");
  if (needStop && (!stop || stop <= 0 || stop > 100_000_000)) throw new BrokerError(t("Enter a stop price.", "Geben Sie einen Stoppkurs ein."), "stop");
  let sharesE4: number | null;
  if (input.amountCents != null && input.shares.trim() === "") {
    if (type !== "market" || side !== "buy") throw new BrokerError(t("Buying in money works for market buys only; enter shares.", "Betragsorders gibt es nur für Market-Käufe; geben Sie Stück ein."), "shares");
    if (input.amountCents <= 0) throw new BrokerError(t("Enter an amount above zero.", "Geben Sie einen Betrag über null ein."), "amount");
    sharesE4 = Math.floor((input.amountCents * 10000) / price.close_cents);
    if (sharesE4 <= 0) throw new BrokerError(t("That amount buys less than 0.0001 shares.", "Dieser Betrag reicht für weniger als 0,0001 Stück."), "amount");
  } else {
    sharesE4 = parseShares(input.shares);
    if (sharesE4 === null) throw new BrokerError(t("Enter a number of shares above zero (up to 4 decimals).", "Geben Sie eine Stückzahl über null ein (bis zu 4 Nachkommastellen)."), "shares");
  }
  const fills = executes(side, type, price.close_cents, limit, stop);
  const estimate = valueOf(sharesE4, fills ? price.close_cents : (limit ?? stop ?? price.close_cents));
  let reserved = 0;
  if (side === "buy") {
    const power = cashCents() - reservedCents(today);
    if (estimate > power) throw new BrokerError(t("Not enough buying power for this order.", "Nicht genug Kaufkraft für diese Order."), "shares");
    reserved = fills ? 0 : estimate;
  } else {
    const held = holdingOf(sec.symbol)?.shares_e4 ?? 0;
    if (sharesE4 > held - openSellE4(sec.symbol, today)) throw new BrokerError(t("You can't sell more shares than you hold.", "Sie können nicht mehr Stück verkaufen, als Sie halten."), "shares");
  }
  return { security: sec, side, type, shares_e4: sharesE4, price, limit_cents: limit, stop_cents: stop, fills, estimate_cents: estimate, reserved_cents: reserved, time_in_force: tif, expires_on: expiresOn(tif, today) };
}

/**
 * Plan and place the order of a ticket in one BEGIN IMMEDIATE transaction (the buying power or shares it checks are
 * the ones it spends, whatever else is placed at the same moment). Returns the order number and whether it filled.
 */
export function placeTicket(input: OrderInput, today: string, now: string, t: (en: string, de: string) => string): { number: string; fills: boolean } {
  return db()
    .transaction(() => {
      const plan = planOrder(input, today, t);
      return { number: placeOrder(plan, now, t), fills: plan.fills };
    })
    .immediate();
}

/** Place an order planned by planOrder at `now` (one transaction): a fill moves cash and holdings; else it rests. The
 * order number is made from the next id inside the transaction, so it is unique by construction. */
export function placeOrder(plan: OrderPlan, now: string, t: (en: string, de: string) => string): string {
  const conn = db();
  const run = conn.transaction(() => {
    const id = ((conn.prepare("SELECT COALESCE(MAX(id), 0) AS n FROM orders").get() as { n: number }).n ?? 0) + 1;
    const number = `T${now.slice(2, 4)}${now.slice(5, 7)}${now.slice(8, 10)}${String(id).padStart(5, "0")}`;
    const sym = plan.security.symbol;
    let amount: number | null = null;
    let basis: number | null = null;
    let gain: number | null = null;
    if (plan.fills) {
      amount = valueOf(plan.shares_e4, plan.price.close_cents);
      const h = holdingOf(sym);
      if (plan.side === "buy") {
        if (amount > cashCents() - reservedCents(now.slice(0, 10))) throw new BrokerError(t("Not enough buying power for this order.", "Nicht genug Kaufkraft für diese Order."), "shares");
        if (h) conn.prepare("UPDATE holdings SET shares_e4 = shares_e4 + ?, cost_cents = cost_cents + ? WHERE symbol = ?").run(plan.shares_e4, amount, sym);
        else conn.prepare("INSERT INTO holdings (symbol, shares_e4, cost_cents) VALUES (?, ?, ?)").run(sym, plan.shares_e4, amount);
      } else {
        if (!h || plan.shares_e4 > h.shares_e4) throw new BrokerError(t("You can't sell more shares than you hold.", "Sie können nicht mehr Stück verkaufen, als Sie halten."), "shares");
        basis = plan.shares_e4 === h.shares_e4 ? h.cost_cents : mulDiv(h.cost_cents, plan.shares_e4, h.shares_e4);
        gain = amount - basis;
        if (plan.shares_e4 === h.shares_e4) conn.prepare("DELETE FROM holdings WHERE symbol = ?").run(sym);
        else conn.prepare("UPDATE holdings SET shares_e4 = shares_e4 - ?, cost_cents = cost_cents - ? WHERE symbol = ?").run(plan.shares_e4, basis, sym);
      }
      const words = plan.side === "buy" ? t(`Bought ${sharesText(plan.shares_e4)} ${sym}`, `Kauf ${sharesText(plan.shares_e4)} ${sym}`) : t(`Sold ${sharesText(plan.shares_e4)} ${sym}`, `Verkauf ${sharesText(plan.shares_e4)} ${sym}`);
      conn
        .prepare("INSERT INTO cash_ledger (at, kind, amount_cents, description, reference, world_ref) VALUES (?, ?, ?, ?, ?, NULL)")
        .run(now, plan.side, plan.side === "buy" ? -amount : amount, words, number);
    }
    conn
      .prepare(
        `INSERT INTO orders (id, order_number, placed_at, symbol, side, order_type, shares_e4, limit_cents, stop_cents, status, filled_at,
           fill_price_cents, amount_cents, cost_basis_cents, realised_gain_cents, reserved_cents, cancelled_at, recurring, time_in_force, expires_on, world_ref)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, 0, ?, ?, NULL)`,
      )
      .run(id, number, now, sym, plan.side, plan.type, plan.shares_e4, plan.limit_cents, plan.stop_cents, plan.fills ? "filled" : "open", plan.fills ? now : null, plan.fills ? plan.price.close_cents : null, amount, basis, gain, plan.reserved_cents, plan.time_in_force, plan.fills ? now.slice(0, 10) : plan.expires_on);
    return number;
  });
  return run.immediate();
}

/** Cancel an open order still working at `now` (its reserved cash is free again). Throws BrokerError when it is not
 * open or has expired. */
export function cancelOrder(number: string, now: string, t: (en: string, de: string) => string): void {
  const res = db().prepare("UPDATE orders SET status = 'cancelled', cancelled_at = ?, reserved_cents = 0 WHERE order_number = ? AND status = 'open' AND expires_on >= ?").run(now, number, now.slice(0, 10));
  if (res.changes !== 1) throw new BrokerError(t("That order is not open, so it can't be cancelled.", "Diese Order ist nicht offen und kann nicht storniert werden."), "order");
}

// ---- watchlist ----------------------------------------------------------------------------------------------------

export function setWatched(symbol: string, on: boolean, now: string, t: (en: string, de: string) => string): void {
  if (!security(symbol)) throw new BrokerError(t("Tidewell does not list that symbol.", "Dieses Wertpapier führt Tidewell nicht."), "symbol");
  if (on) db().prepare("INSERT OR IGNORE INTO watchlist (symbol, added_at, world_ref) VALUES (?, ?, NULL)").run(symbol, now);
  else db().prepare("DELETE FROM watchlist WHERE symbol = ?").run(symbol);
}

// ---- transfers ----------------------------------------------------------------------------------------------------

/**
 * A reference for an app-made transfer, e.g. TW-20261116-APP021: the next number after the transfers there are,
 * skipping any reference a transfer already has (either direction). Call it inside the transaction that inserts the
 * transfer, so it is unique by construction.
 */
function newTransferReference(now: string): string {
  const conn = db();
  const taken = conn.prepare("SELECT 1 FROM transfers WHERE reference = ?");
  let n = (conn.prepare("SELECT COUNT(*) AS n FROM transfers").get() as { n: number }).n + 1;
  for (;;) {
    const ref = `TW-${now.slice(0, 10).replaceAll("-", "")}-APP${String(n).padStart(3, "0")}`;
    if (!taken.get(ref)) return ref;
    n += 1;
  }
}

/**
 * Reserve a transfer before the bank is asked (one BEGIN IMMEDIATE transaction): a withdrawal must fit the buying
 * power (cash less open buys' reservations, pending withdrawals included) and takes its cash line at once; a deposit
 * only holds its reference (its cash arrives with settleTransfer). Inserts the transfer row without a bank line id;
 * returns its new unique reference. Throws BrokerError (nothing written).
 */
export function reserveTransfer(direction: "deposit" | "withdrawal", amountCents: number, now: string, t: (en: string, de: string) => string): string {
  const conn = db();
  return conn
    .transaction((): string => {
      if (direction === "withdrawal" && amountCents > cashCents() - reservedCents(now.slice(0, 10))) {
        throw new BrokerError(t("You can withdraw at most your buying power.", "Sie können höchstens Ihre Kaufkraft auszahlen."), "amount");
      }
      const reference = newTransferReference(now);
      conn
        .prepare("INSERT INTO transfers (at, direction, amount_cents, reference, account_last4, recurring, bank_transaction_id, world_ref) VALUES (?, ?, ?, ?, ?, 0, NULL, NULL)")
        .run(now, direction, amountCents, reference, account().last4);
      if (direction === "withdrawal") cashLine(now, direction, amountCents, reference, t);
      return reference;
    })
    .immediate();
}

function cashLine(now: string, direction: "deposit" | "withdrawal", amountCents: number, reference: string, t: (en: string, de: string) => string): void {
  db()
    .prepare("INSERT INTO cash_ledger (at, kind, amount_cents, description, reference, world_ref) VALUES (?, ?, ?, ?, ?, NULL)")
    .run(now, direction, direction === "deposit" ? amountCents : -amountCents, direction === "deposit" ? t("Deposit from bank", "Einzahlung vom Girokonto") : t("Withdrawal to bank", "Auszahlung auf Girokonto"), reference);
}

/** The bank posted a reserved transfer: record its line id (and a deposit's cash line), in one transaction. */
export function settleTransfer(direction: "deposit" | "withdrawal", reference: string, amountCents: number, bankTransactionId: number, now: string, t: (en: string, de: string) => string): void {
  const conn = db();
  conn
    .transaction(() => {
      conn.prepare("UPDATE transfers SET bank_transaction_id = ? WHERE direction = ? AND reference = ? AND world_ref IS NULL").run(bankTransactionId, direction, reference);
      if (direction === "deposit") cashLine(now, direction, amountCents, reference, t);
    })
    .immediate();
}

/** The bank refused a reserved transfer: delete it and its cash line (nothing moved), in one transaction. */
export function undoTransfer(direction: "deposit" | "withdrawal", reference: string): void {
  const conn = db();
  conn
    .transaction(() => {
      conn.prepare("DELETE FROM transfers WHERE direction = ? AND reference = ? AND bank_transaction_id IS NULL AND world_ref IS NULL").run(direction, reference);
      conn.prepare("DELETE FROM cash_ledger WHERE kind = ? AND reference = ? AND world_ref IS NULL").run(direction, reference);
    })
    .immediate();
}
