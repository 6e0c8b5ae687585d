import crypto from "node:crypto";
import { maskNumber } from "@persona/ui/format";
import { db } from "./db";
import { addDays } from "@persona/platform/clock";
import { bankContext } from "./context";
import { CARD_NAME, fill, kindWord, labels } from "./labels";

export type AccountKind = "checking" | "savings" | "credit_card";

export interface Account {
  id: number;
  user_id: number;
  kind: AccountKind;
  name: string;
  number: string;
  routing_number: string | null;
  iban?: string | null;
  opened_on: string;
  opening_balance_cents: number;
  balance_cents: number;
  credit_limit_cents: number | null;
  apr_bps: number | null;
  card_number?: string | null;
  /** When the persona locked the account's card (local ISO), or null. */
  card_locked_at?: string | null;
  /** Pending card charges other apps made (card_authorizations), held against the balance or credit. */
  pending_hold_cents?: number;
}

/** A pending card payment another app made through the card network (table card_authorizations). */
export interface Authorization {
  id: number;
  account_id: number;
  authorized_at: string;
  kind: "charge" | "refund";
  app: string;
  reference: string;
  merchant: string;
  amount_cents: number;
  category: string;
  memo: string | null;
  code: string;
  status: string;
}

export interface Txn {
  id: number;
  account_id: number;
  posted_at: string;
  description: string;
  counterparty: string | null;
  category: string;
  kind: string;
  amount_cents: number;
  balance_after_cents: number;
  transfer_id: string | null;
  memo: string | null;
  world_ref: string | null;
}

export interface Payee {
  id: number;
  name: string;
  account_number: string;
  category: string;
}

export interface Contact {
  id: number;
  name: string;
  email: string;
  phone: string;
}

export interface Statement {
  id: number;
  account_id: number;
  period_start: string;
  period_end: string;
  opening_cents: number;
  credits_cents: number;
  debits_cents: number;
  closing_cents: number;
}

const KIND_ORDER: Record<string, number> = { checking: 0, savings: 1, credit_card: 2 };


export function accountLabel(a: Pick<Account, "name" | "number">): string {
  return `${a.name} ${maskNumber(a.number)}`;
}

/** A credit card's amount owed as a positive number (0 when in credit). */
export function owedCents(a: Account): number {
  return a.kind === "credit_card" ? -a.balance_cents : 0;
}

/** Money that can leave the account now: the balance of a deposit account, the available credit of a card,
 * less the holds of pending card charges (a charge refunded under its own reference holds nothing). */
export function availableCents(a: Account): number {
  const held = a.pending_hold_cents ?? 0;
  if (a.kind === "credit_card") return (a.credit_limit_cents ?? 0) + a.balance_cents - held;
  return Math.max(a.balance_cents - held, 0);
}

// The hold of a pending charge, less what the same app refunded under the same reference (a reversal
// before the charge posts frees the hold, as at a real bank); never below zero per charge.
const ACCOUNT_SELECT = `SELECT a.*, COALESCE((SELECT SUM(MAX(c.amount_cents - COALESCE((SELECT SUM(r.amount_cents)
    FROM card_authorizations r WHERE r.kind = 'refund' AND r.status = 'pending' AND r.app = c.app
    AND r.reference = c.reference), 0), 0))
  FROM card_authorizations c WHERE c.account_id = a.id AND c.kind = 'charge' AND c.status = 'pending'), 0)
  AS pending_hold_cents FROM accounts a`;

export function listAccounts(userId: number): Account[] {
  const rows = db().prepare(`${ACCOUNT_SELECT} WHERE a.user_id = ? ORDER BY a.id`).all(userId) as Account[];
  return rows.sort((a, b) => (KIND_ORDER[a.kind] ?? 9) - (KIND_ORDER[b.kind] ?? 9) || a.id - b.id);
}

export function getAccount(userId: number, id: number | null): Account | null {
  if (id === null) return null;
  return (db().prepare(`${ACCOUNT_SELECT} WHERE a.user_id = ? AND a.id = ?`).get(userId, id) as Account | undefined) ?? null;
}

/** The persona's cards: the accounts a card spends from (checking's debit card, the credit card), in account order. */
export function listCards(userId: number): Account[] {
  return listAccounts(userId).filter((a) => a.card_number);
}

/** Lock (`lock` true) or unlock the card of account `accountId`. Locking a locked card (or unlocking an unlocked one)
 * changes nothing. Raises BankError for an account with no card. Returns the account as it now is. */
export function setCardLock(userId: number, accountId: number | null, lock: boolean): Account {
  const account = getAccount(userId, accountId);
  if (!account || !account.card_number) throw new BankError("Choose one of your cards.", "account");
  if (Boolean(account.card_locked_at) !== lock) {
    db().prepare("UPDATE accounts SET card_locked_at = ? WHERE id = ?").run(lock ? bankContext().now : null, account.id);
  }
  return getAccount(userId, accountId) as Account;
}

/** Pending card payments on one account, newest first. */
export function pendingAuthorizations(accountId: number): Authorization[] {
  return db()
    .prepare("SELECT * FROM card_authorizations WHERE account_id = ? AND status = 'pending' ORDER BY authorized_at DESC, id DESC")
    .all(accountId) as Authorization[];
}

export interface TxnFilter {
  q?: string;
  from?: string;
  to?: string;
}

function filterSql(accountIds: number[], f: TxnFilter): { where: string; args: unknown[] } {
  const clauses = [`t.account_id IN (${accountIds.map(() => "?").join(",") || "NULL"})`];
  const args: unknown[] = [...accountIds];
  const q = f.q?.trim();
  if (q) {
    const like = `%${q.replace(/[\\%_]/g, (c) => "\\" + c)}%`;
    clauses.push("(t.description LIKE ? ESCAPE '\\' OR t.counterparty LIKE ? ESCAPE '\\' OR t.memo LIKE ? ESCAPE '\\')");
    args.push(like, like, like);
  }
  if (f.from && /^\d{4}-\d{2}-\d{2}$/.test(f.from)) {
    clauses.push("substr(t.posted_at, 1, 10) >= ?");
    args.push(f.from);
  }
  if (f.to && /^\d{4}-\d{2}-\d{2}$/.test(f.to)) {
    clauses.push("substr(t.posted_at, 1, 10) <= ?");
    args.push(f.to);
  }
  return { where: clauses.join(" AND "), args };
}

/** One page of an account's history, newest first, with the total count of matching lines. */
export function searchTransactions(
  accountId: number,
  f: TxnFilter,
  page: number,
  pageSize: number,
): { rows: Txn[]; total: number; credits: number; debits: number } {
  const { where, args } = filterSql([accountId], f);
  const agg = db()
    .prepare(
      `SELECT COUNT(*) AS n,
              COALESCE(SUM(CASE WHEN amount_cents > 0 THEN amount_cents END), 0) AS credits,
              COALESCE(-SUM(CASE WHEN amount_cents < 0 THEN amount_cents END), 0) AS debits
         FROM transactions t WHERE ${where}`,
    )
    .get(...args) as { n: number; credits: number; debits: number };
  const rows = db()
    .prepare(`SELECT t.* FROM transactions t WHERE ${where} ORDER BY t.posted_at DESC, t.id DESC LIMIT ? OFFSET ?`)
    .all(...args, pageSize, (page - 1) * pageSize) as Txn[];
  return { rows, total: agg.n, credits: agg.credits, debits: agg.debits };
}

/** The newest lines across all of a user's accounts. */
export function recentTransactions(
  userId: number,
  limit: number,
  where = "1 = 1",
  args: unknown[] = [],
): (Txn & { account_name: string; account_number: string })[] {
  return db()
    .prepare(
      `SELECT t.*, a.name AS account_name, a.number AS account_number
         FROM transactions t JOIN accounts a ON a.id = t.account_id
        WHERE a.user_id = ? AND ${where}
        ORDER BY t.posted_at DESC, t.id DESC LIMIT ?`,
    )
    .all(userId, ...args, limit) as (Txn & { account_name: string; account_number: string })[];
}

export function listPayees(userId: number): Payee[] {
  return db().prepare("SELECT id, name, account_number, category FROM payees WHERE user_id = ? ORDER BY name COLLATE NOCASE").all(userId) as Payee[];
}

export function listContacts(userId: number): Contact[] {
  return db().prepare("SELECT id, name, email, phone FROM contacts WHERE user_id = ? ORDER BY name COLLATE NOCASE").all(userId) as Contact[];
}

export function listStatements(accountId: number): Statement[] {
  return db().prepare("SELECT * FROM statements WHERE account_id = ? ORDER BY period_start DESC").all(accountId) as Statement[];
}

export function getStatement(userId: number, id: number): { statement: Statement; account: Account } | null {
  const statement = db().prepare("SELECT * FROM statements WHERE id = ?").get(id) as Statement | undefined;
  if (!statement) return null;
  const account = getAccount(userId, statement.account_id);
  return account ? { statement, account } : null;
}

/** The ledger lines of a statement period (inclusive dates), oldest first. */
export function statementLines(s: Statement): Txn[] {
  return db()
    .prepare(
      `SELECT * FROM transactions WHERE account_id = ? AND substr(posted_at, 1, 10) BETWEEN ? AND ?
        ORDER BY posted_at, id`,
    )
    .all(s.account_id, s.period_start, s.period_end) as Txn[];
}

/**
 * Line `id` with its account, when it is a `kind` line on one of `accounts` (the user's): what a
 * receipt shows after a payment. Null for any other id.
 */
export function ownLine(accounts: Account[], id: number, kind: string): { line: Txn; account: Account } | null {
  if (!id) return null;
  const line = db().prepare("SELECT * FROM transactions WHERE id = ?").get(id) as Txn | undefined;
  const account = line?.kind === kind ? accounts.find((a) => a.id === line.account_id) : undefined;
  return line && account ? { line, account } : null;
}

export function transactionsByTransfer(transferId: string): Txn[] {
  return db().prepare("SELECT * FROM transactions WHERE transfer_id = ? ORDER BY id").all(transferId) as Txn[];
}

// ---------------------------------------------------------------------------------------
// Writes. Every money movement is one SQLite transaction that appends ledger lines and
// moves accounts.balance_cents by the same amounts, so balance_after_cents stays the
// running balance in (posted_at, id) order.

export class BankError extends Error {
  constructor(
    message: string,
    public field?: string,
  ) {
    super(message);
  }
}

/** Largest single movement the app accepts ($1,000,000.00). */
export const MAX_AMOUNT_CENTS = 100_000_000;

interface NewLine {
  account: Account;
  amount_cents: number;
  description: string;
  counterparty: string | null;
  category: string;
  kind: string;
  transfer_id: string | null;
  memo: string | null;
}

/**
 * posted_at of a new line: now in the bank's time zone, but never earlier than the newest
 * line already on the accounts involved (a guest clock that runs behind the seeded world
 * must not slip a new line into the middle of the history).
 */
function postingTime(accountIds: number[]): string {
  const { now } = bankContext();
  const row = db()
    .prepare(`SELECT MAX(posted_at) AS last FROM transactions WHERE account_id IN (${accountIds.map(() => "?").join(",")})`)
    .get(...accountIds) as { last: string | null };
  return row.last && row.last > now ? row.last : now;
}

function appendLines(lines: NewLine[]): number[] {
  const conn = db();
  const postedAt = postingTime(lines.map((l) => l.account.id));
  const insert = conn.prepare(
    `INSERT INTO transactions (account_id, posted_at, description, counterparty, category, kind, amount_cents, balance_after_cents, transfer_id, memo, world_ref)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
  );
  const bump = conn.prepare("UPDATE accounts SET balance_cents = balance_cents + ? WHERE id = ?");
  const balanceOf = conn.prepare("SELECT balance_cents FROM accounts WHERE id = ?");
  const ids: number[] = [];
  for (const l of lines) {
    bump.run(l.amount_cents, l.account.id);
    const { balance_cents } = balanceOf.get(l.account.id) as { balance_cents: number };
    const info = insert.run(l.account.id, postedAt, l.description, l.counterparty, l.category, l.kind, l.amount_cents, balance_cents, l.transfer_id, l.memo);
    ids.push(Number(info.lastInsertRowid));
  }
  return ids;
}

function checkAmount(cents: number | null): number {
  if (cents == null || !Number.isSafeInteger(cents)) throw new BankError("Enter an amount like 125.00.", "amount");
  if (cents <= 0) throw new BankError("The amount must be more than zero.", "amount");
  if (cents > MAX_AMOUNT_CENTS) throw new BankError("That amount is over the $1,000,000.00 limit for online payments.", "amount");
  return cents;
}

function checkFunds(a: Account, cents: number) {
  if (cents > availableCents(a)) {
    throw new BankError(
      a.kind === "credit_card" ? `Not enough available credit on ${accountLabel(a)}.` : `Insufficient funds in ${accountLabel(a)}.`,
      "amount",
    );
  }
}

function cleanMemo(memo: string | null | undefined): string | null {
  const m = (memo ?? "").trim().slice(0, 140);
  return m || null;
}

/** Move money between two of the user's own accounts. Returns the transfer id. */
export function transfer(userId: number, fromId: number | null, toId: number | null, amountCents: number | null, memo?: string | null): string {
  const conn = db();
  return conn.transaction(() => {
    const from = getAccount(userId, fromId);
    const to = getAccount(userId, toId);
    if (!from) throw new BankError("Choose the account to transfer from.", "from");
    if (!to) throw new BankError("Choose the account to transfer to.", "to");
    if (from.id === to.id) throw new BankError("Choose two different accounts.", "to");
    const cents = checkAmount(amountCents);
    checkFunds(from, cents);
    const transferId = crypto.randomUUID();
    const isCardPayment = to.kind === "credit_card";
    const kind = isCardPayment ? "card_payment" : "transfer";
    const l = labels(bankContext().meta);
    const m = cleanMemo(memo);
    appendLines([
      {
        account: from,
        amount_cents: -cents,
        description: isCardPayment ? fill(l.card_payment, CARD_NAME) : fill(l.transfer_to, kindWord(l, to.kind)),
        counterparty: null,
        category: "transfer",
        kind,
        transfer_id: transferId,
        memo: m,
      },
      {
        account: to,
        amount_cents: cents,
        description: isCardPayment ? l.card_thanks : fill(l.transfer_from, kindWord(l, from.kind)),
        counterparty: null,
        category: "transfer",
        kind,
        transfer_id: transferId,
        memo: m,
      },
    ]);
    return transferId;
  }).immediate();
}

/** Who a payment out of checking goes to, as its ledger line names them. */
interface Payout {
  description: string;
  counterparty: string;
  category: string;
  kind: string;
}

/**
 * A payment out of a checking account to someone outside the bank (bill pay, Zelle): one debit
 * line. `recipient` looks up whom it goes to and runs first, as that is the form's first field.
 * Returns the new transaction id.
 */
function payOut(userId: number, fromId: number | null, amountCents: number | null, memo: string | null | undefined, recipient: () => Payout): number {
  return db().transaction(() => {
    const to = recipient();
    const from = getAccount(userId, fromId);
    if (!from || from.kind !== "checking") throw new BankError("Choose a checking account to pay from.", "from");
    const cents = checkAmount(amountCents);
    checkFunds(from, cents);
    const [id] = appendLines([{ account: from, amount_cents: -cents, ...to, transfer_id: null, memo: cleanMemo(memo) }]);
    return id;
  }).immediate();
}

/** Pay a saved payee from checking. Returns the new transaction id. */
export function payBill(userId: number, payeeId: number | null, fromId: number | null, amountCents: number | null, memo?: string | null): number {
  return payOut(userId, fromId, amountCents, memo, () => {
    const payee = db().prepare("SELECT * FROM payees WHERE id = ? AND user_id = ?").get(payeeId, userId) as Payee | undefined;
    if (!payee) throw new BankError("Choose a payee.", "payee");
    return {
      description: fill(labels(bankContext().meta).bill_pay, payee.name),
      counterparty: payee.name,
      category: payee.category,
      kind: "bill_payment",
    };
  });
}

/** Send money to a saved contact from checking. Returns the new transaction id. */
export function sendMoney(userId: number, contactId: number | null, fromId: number | null, amountCents: number | null, memo?: string | null): number {
  return payOut(userId, fromId, amountCents, memo, () => {
    const contact = db().prepare("SELECT * FROM contacts WHERE id = ? AND user_id = ?").get(contactId, userId) as Contact | undefined;
    if (!contact) throw new BankError("Choose who to send money to.", "contact");
    return {
      description: fill(labels(bankContext().meta).p2p_to, contact.name),
      counterparty: contact.name,
      category: "p2p",
      kind: "p2p_sent",
    };
  });
}

/** Longest payee or contact name, payee account number, email and mobile number (characters). */
export const NAME_CHARS = 80;
export const ACCOUNT_NUMBER_CHARS = 40;
export const EMAIL_CHARS = 120;
export const PHONE_CHARS = 40;
/** Bill-pay categories a payee may have. */
export const PAYEE_CATEGORIES = ["housing", "utilities", "loans", "insurance", "subscriptions", "health", "bills"];

/** One line of visible text: no control characters or line breaks. */
const ONE_LINE = /^[^\u0000-\u001f\u007f-\u009f\u2028\u2029]*$/;

function lineOf(value: string, max: number, message: string, field: string): string {
  const v = value.trim();
  if (v.length > max) throw new BankError(message, field);
  if (!ONE_LINE.test(v)) throw new BankError("Use one line of text, without control characters.", field);
  return v;
}

/** Save a new bill-pay payee (one per name). */
export function addPayee(userId: number, name: string, accountNumber: string, category: string): number {
  const n = lineOf(name, NAME_CHARS, `The payee's name is too long: at most ${NAME_CHARS} characters.`, "name");
  const acct = lineOf(accountNumber, ACCOUNT_NUMBER_CHARS, `The account number is too long: at most ${ACCOUNT_NUMBER_CHARS} characters.`, "account_number");
  const cat = category.trim() || "bills";
  if (!n) throw new BankError("Enter the payee's name.", "name");
  if (!acct) throw new BankError("Enter your account number with this payee.", "account_number");
  if (!PAYEE_CATEGORIES.includes(cat)) throw new BankError("Choose a category from the list.", "category");
  const conn = db();
  return conn.transaction(() => {
    const exists = conn.prepare("SELECT 1 FROM payees WHERE user_id = ? AND name = ?").get(userId, n);
    if (exists) throw new BankError(`${n} is already one of your payees.`, "name");
    const info = conn.prepare("INSERT INTO payees (user_id, name, account_number, category) VALUES (?, ?, ?, ?)").run(userId, n, acct, cat);
    return Number(info.lastInsertRowid);
  }).immediate();
}

/** Save a new P2P contact. */
export function addContact(userId: number, name: string, email: string, phone: string): number {
  const n = lineOf(name, NAME_CHARS, `The name is too long: at most ${NAME_CHARS} characters.`, "name");
  const e = lineOf(email, EMAIL_CHARS, `The email address is too long: at most ${EMAIL_CHARS} characters.`, "email");
  const p = lineOf(phone, PHONE_CHARS, `The mobile number is too long: at most ${PHONE_CHARS} characters.`, "phone");
  if (!n) throw new BankError("Enter the person's name.", "name");
  if (!e && !p) throw new BankError("Enter an email address or a mobile number.", "email");
  if (e && !/^[^\s@]+@[^\s@]+$/.test(e)) throw new BankError("Enter a valid email address.", "email");
  if (p && !/^\+?[0-9 ().-]{3,40}$/.test(p)) throw new BankError("Enter a mobile number in digits, like (503) 555-0142.", "phone");
  const conn = db();
  return conn.transaction(() => Number(conn.prepare("INSERT INTO contacts (user_id, name, email, phone) VALUES (?, ?, ?, ?)").run(userId, n, e, p).lastInsertRowid)).immediate();
}

/** What another app sends the card network (see @persona/platform/payments CardPayment). */
export interface CardRequest {
  kind: "charge" | "refund";
  app: string;
  merchant: string;
  amount_cents: number;
  card_last4: string;
  reference: string;
  category?: string;
  memo?: string | null;
}

/** The card network's answer (see @persona/platform/payments Authorization). */
export interface CardAnswer {
  authorization: string;
  status: "pending";
  kind: "charge" | "refund";
  account: string;
  amount_cents: number;
  repeated: boolean;
}

/** Thrown for a request the network refuses; `status` is the HTTP status to answer (400 bad request, 402 declined, 404 unknown card). */
export class CardDeclined extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

const CATEGORY = /^[a-z][a-z_]{1,30}$/;

// The fields every request from another app carries (card network, transfers); each throws CardDeclined 400.
function appName(value: unknown, role: "paying" | "calling"): string {
  const app = typeof value === "string" ? value : "";
  if (!/^[a-z][a-z0-9_]{0,30}$/.test(app)) throw new CardDeclined(`app must be the ${role} app's name`, 400);
  return app;
}

function appReference(value: unknown): string {
  const reference = typeof value === "string" ? value.trim() : "";
  if (!reference || reference.length > 80 || !ONE_LINE.test(reference)) throw new CardDeclined("reference must be 1-80 characters of one line", 400);
  return reference;
}

/** An optional free-text field of another app's request: a string (cut to `max` characters) or null; else 400. */
function appMemo(value: unknown, max: number): string | null {
  if (value == null || value === "") return null;
  if (typeof value !== "string") throw new CardDeclined("memo must be text", 400);
  return value.slice(0, max) || null;
}

function appAmount(value: unknown): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0 || value > MAX_AMOUNT_CENTS) {
    throw new CardDeclined("amount_cents must be a positive integer up to 100000000", 400);
  }
  return value;
}

/**
 * Authorise a card payment for another app: the card is the persona's card whose number ends
 * with `card_last4`; a charge must fit the available balance or credit (pending charges
 * included) and is held as a pending line; a refund is a pending credit, at most what that app
 * charged under the same reference (when it charged under it here). Idempotent on
 * (app, reference, kind). Throws CardDeclined.
 */
export function authorizeCard(req: Record<string, unknown>): CardAnswer {
  const kind = req.kind;
  if (kind !== "charge" && kind !== "refund") throw new CardDeclined("kind must be charge or refund", 400);
  const app = appName(req.app, "paying");
  const merchant = typeof req.merchant === "string" ? req.merchant.trim() : "";
  if (!merchant || merchant.length > 60 || !ONE_LINE.test(merchant)) throw new CardDeclined("merchant must be a statement descriptor of 1-60 characters", 400);
  const reference = appReference(req.reference);
  const cents = appAmount(req.amount_cents);
  const last4 = typeof req.card_last4 === "string" ? req.card_last4 : "";
  if (!/^\d{4}$/.test(last4)) throw new CardDeclined("card_last4 must be four digits", 400);
  const category = req.category == null || req.category === "" ? "shopping" : typeof req.category === "string" ? req.category : "";
  if (!CATEGORY.test(category)) throw new CardDeclined("category must be a lower-case word like travel or dining", 400);
  const memo = appMemo(req.memo, 200);
  const conn = db();
  // Check and write in one BEGIN IMMEDIATE transaction: the prior look-up, the funds check and the insert see the
  // same ledger, and a second writer (another connection) waits.
  return conn.transaction((): CardAnswer => {
    const prior = conn
      .prepare(
        "SELECT c.*, a.kind AS account_kind, a.card_number FROM card_authorizations c JOIN accounts a ON a.id = c.account_id WHERE c.app = ? AND c.reference = ? AND c.kind = ?",
      )
      .get(app, reference, kind) as (Authorization & { account_kind: string; card_number: string | null }) | undefined;
    if (prior) {
      if (prior.amount_cents !== cents) throw new CardDeclined(`${reference} was already authorised for a different amount`, 409);
      if (!String(prior.card_number ?? "").endsWith(last4)) throw new CardDeclined(`${reference} was already authorised on another card`, 409);
      return { authorization: prior.code, status: "pending", kind, account: prior.account_kind, amount_cents: cents, repeated: true };
    }
    const matches = (conn.prepare(`${ACCOUNT_SELECT} WHERE a.card_number IS NOT NULL`).all() as Account[]).filter(
      (a) => String(a.card_number).endsWith(last4),
    );
    if (matches.length !== 1) throw new CardDeclined(`no card ending ${last4} is issued by this bank`, 404);
    const account = matches[0];
    if (kind === "charge" && account.card_locked_at) throw new CardDeclined(`declined: the card ending ${last4} is locked`, 402);
    if (kind === "charge" && cents > availableCents(account)) {
      throw new CardDeclined(
        account.kind === "credit_card" ? `declined: not enough available credit on the card ending ${last4}` : `declined: insufficient funds for the card ending ${last4}`,
        402,
      );
    }
    if (kind === "refund") {
      const charged = conn
        .prepare("SELECT amount_cents, account_id FROM card_authorizations WHERE app = ? AND reference = ? AND kind = 'charge'")
        .get(app, reference) as { amount_cents: number; account_id: number } | undefined;
      if (charged && charged.account_id !== account.id) throw new CardDeclined(`${reference} was charged to another card`, 409);
      if (charged && cents > charged.amount_cents) throw new CardDeclined(`a refund of ${reference} cannot be more than its charge`, 409);
    }
    const code = crypto.createHash("sha256").update(`${app}\0${reference}\0${kind}`).digest("hex").slice(0, 6).toUpperCase();
    conn
      .prepare(
        `INSERT INTO card_authorizations (account_id, authorized_at, kind, app, reference, merchant, amount_cents, category, memo, code, status)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending')`,
      )
      .run(account.id, bankContext().now, kind, app, reference, merchant, cents, category, memo, code);
    return { authorization: code, status: "pending", kind, account: account.kind, amount_cents: cents, repeated: false };
  }).immediate();
}

// ---------------------------------------------------------------------------------------
// Transfers to and from accounts at other firms (@persona/platform/transfers).

/** A transfer request from another app: see @persona/platform/transfers BankTransfer. */
export interface TransferRequest {
  direction: "out" | "in";
  app: string;
  counterparty: string;
  amount_cents: number;
  reference: string;
  memo?: string | null;
}

/** The bank's answer (see @persona/platform/transfers TransferReceipt). */
export interface TransferAnswer {
  transaction_id: number;
  direction: "out" | "in";
  account_last4: string;
  amount_cents: number;
  balance_after_cents: number;
  repeated: boolean;
}

/**
 * Move money between the persona's checking account and an account at another firm: `out` debits
 * checking (it must have the funds, pending card holds included), `in` credits it; posted at once as
 * one `external_transfer` ledger line named as the world names such lines (labels ext_to / ext_from).
 * Idempotent on (app, reference, direction). Throws CardDeclined with status 400 (bad request),
 * 402 (insufficient funds), 404 (no checking account) or 409 (same reference, other amount).
 */
export function externalTransfer(req: Record<string, unknown>): TransferAnswer {
  const direction = req.direction;
  if (direction !== "out" && direction !== "in") throw new CardDeclined("direction must be out or in", 400);
  const app = appName(req.app, "calling");
  const counterparty = typeof req.counterparty === "string" ? req.counterparty.trim() : "";
  if (!counterparty || counterparty.length > 60 || !ONE_LINE.test(counterparty)) throw new CardDeclined("counterparty must be the firm's name, 1-60 characters", 400);
  const reference = appReference(req.reference);
  const cents = appAmount(req.amount_cents);
  const memo = cleanMemo(appMemo(req.memo, 140));
  const conn = db();
  // One BEGIN IMMEDIATE transaction: the prior look-up, the funds check and the ledger line see the same balance.
  return conn.transaction((): TransferAnswer => {
    const checking = (conn.prepare(`${ACCOUNT_SELECT} WHERE a.kind = 'checking' ORDER BY a.id`).get() as Account | undefined) ?? null;
    if (!checking) throw new CardDeclined("no checking account at this bank", 404);
    const last4 = checking.number.slice(-4);
    const prior = conn
      .prepare(
        `SELECT x.amount_cents, x.counterparty, x.transaction_id, t.balance_after_cents FROM external_transfers x
           JOIN transactions t ON t.id = x.transaction_id WHERE x.app = ? AND x.reference = ? AND x.direction = ?`,
      )
      .get(app, reference, direction) as { amount_cents: number; counterparty: string; transaction_id: number; balance_after_cents: number } | undefined;
    if (prior) {
      if (prior.amount_cents !== cents) throw new CardDeclined(`${reference} was already transferred for a different amount`, 409);
      if (prior.counterparty !== counterparty) throw new CardDeclined(`${reference} was already transferred with another counterparty`, 409);
      return { transaction_id: prior.transaction_id, direction, account_last4: last4, amount_cents: cents, balance_after_cents: prior.balance_after_cents, repeated: true };
    }
    if (direction === "out" && cents > availableCents(checking)) {
      throw new CardDeclined(`insufficient funds: ${accountLabel(checking)} cannot cover the transfer`, 402);
    }
    const l = labels(bankContext().meta);
    const [id] = appendLines([
      {
        account: checking,
        amount_cents: direction === "out" ? -cents : cents,
        description: fill(direction === "out" ? l.ext_to : l.ext_from, counterparty),
        counterparty,
        category: "transfer",
        kind: "external_transfer",
        transfer_id: null,
        memo,
      },
    ]);
    const line = conn.prepare("SELECT posted_at, balance_after_cents FROM transactions WHERE id = ?").get(id) as { posted_at: string; balance_after_cents: number };
    conn
      .prepare(
        `INSERT INTO external_transfers (transaction_id, created_at, direction, app, reference, counterparty, amount_cents)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(id, line.posted_at, direction, app, reference, counterparty, cents);
    return { transaction_id: id, direction, account_last4: last4, amount_cents: cents, balance_after_cents: line.balance_after_cents, repeated: false };
  }).immediate();
}

// ---------------------------------------------------------------------------------------
// Scheduled and recurring bill payments (table scheduled_payments).

/** How far ahead a payment can be scheduled (days). */
export const SCHEDULE_DAYS = 365;

/** A scheduled payment with its payee's name and the account it comes from. */
export interface ScheduledPayment {
  id: number;
  payee_id: number;
  payee: string;
  account_id: number;
  method: "bill_pay" | "autopay";
  amount_cents: number;
  frequency: "once" | "monthly";
  day: number | null;
  next_date: string;
  memo: string | null;
  status: string;
  updated_at: string | null;
  world_ref: string | null;
}

const SCHEDULED = `SELECT s.*, p.name AS payee FROM scheduled_payments s JOIN payees p ON p.id = s.payee_id
                   JOIN accounts a ON a.id = s.account_id`;

/** The persona's scheduled payments still to go out, soonest first. */
export function listScheduled(userId: number): ScheduledPayment[] {
  return db().prepare(`${SCHEDULED} WHERE a.user_id = ? AND s.status = 'scheduled' ORDER BY s.next_date, p.name COLLATE NOCASE, s.id`).all(userId) as ScheduledPayment[];
}

export function getScheduled(userId: number, id: number | null): ScheduledPayment | null {
  if (id === null) return null;
  return (db().prepare(`${SCHEDULED} WHERE a.user_id = ? AND s.id = ?`).get(userId, id) as ScheduledPayment | undefined) ?? null;
}

/** The dates a payment can be scheduled for as of `today` (`YYYY-MM-DD`): from tomorrow to SCHEDULE_DAYS ahead. */
export function scheduleWindow(today: string): { min: string; max: string } {
  return { min: addDays(`${today}T12:00:00`, 1).slice(0, 10), max: addDays(`${today}T12:00:00`, SCHEDULE_DAYS).slice(0, 10) };
}

/** A send date after today and at most SCHEDULE_DAYS ahead (BankError on the `date` field otherwise). */
function checkSendDate(value: string): string {
  const { today } = bankContext();
  const v = value.trim();
  const d = /^\d{4}-\d{2}-\d{2}$/.test(v) ? new Date(`${v}T12:00:00Z`) : null;
  if (!d || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== v) throw new BankError("Enter the date as YYYY-MM-DD.", "date");
  if (v <= today) throw new BankError("Choose a date after today for a scheduled payment (today's payments go out at once).", "date");
  if (v > scheduleWindow(today).max) throw new BankError(`Payments can be scheduled up to ${SCHEDULE_DAYS} days ahead.`, "date");
  return v;
}

/** Schedule a bill payment to payee `payeeId` from checking `fromId` on `date` (after today), `frequency` once or
 * monthly (then on that day of every month). No funds are checked or held until it goes out. Returns its id. */
export function schedulePayment(userId: number, payeeId: number | null, fromId: number | null, amountCents: number | null, date: string, frequency: string, memo?: string | null): number {
  const payee = db().prepare("SELECT id FROM payees WHERE id = ? AND user_id = ?").get(payeeId, userId) as { id: number } | undefined;
  if (!payee) throw new BankError("Choose a payee.", "payee");
  const from = getAccount(userId, fromId);
  if (!from || from.kind !== "checking") throw new BankError("Choose a checking account to pay from.", "from");
  if (frequency !== "once" && frequency !== "monthly") throw new BankError("Choose how often: once or every month.", "frequency");
  const cents = checkAmount(amountCents);
  const day = checkSendDate(date);
  return Number(
    db().prepare(`INSERT INTO scheduled_payments (payee_id, account_id, method, amount_cents, frequency, day, next_date, memo, status, created_at, updated_at, cancelled_at, world_ref)
                  VALUES (?, ?, 'bill_pay', ?, ?, ?, ?, ?, 'scheduled', ?, NULL, NULL, NULL)`)
      .run(payee.id, from.id, cents, frequency, frequency === "monthly" ? Number(day.slice(8)) : null, day, cleanMemo(memo), bankContext().now).lastInsertRowid,
  );
}

function scheduledOrRefuse(userId: number, id: number | null): ScheduledPayment {
  const s = getScheduled(userId, id);
  if (!s) throw new BankError("That scheduled payment does not exist.", "id");
  if (s.status !== "scheduled") throw new BankError("That payment was already cancelled.", "id");
  return s;
}

/** Change a scheduled bill payment's amount and send date (a monthly one then falls on that day of the month). An
 * autopay is drawn by the payee: it can be stopped, not changed (BankError). */
export function updateScheduled(userId: number, id: number | null, amountCents: number | null, date: string): void {
  const s = scheduledOrRefuse(userId, id);
  if (s.method === "autopay") throw new BankError(`${s.payee} takes this AutoPay from your account; change its amount or date with ${s.payee}, or stop it here.`, "id");
  const cents = checkAmount(amountCents);
  const day = checkSendDate(date);
  db().prepare("UPDATE scheduled_payments SET amount_cents = ?, next_date = ?, day = ?, updated_at = ? WHERE id = ?")
    .run(cents, day, s.frequency === "monthly" ? Number(day.slice(8)) : null, bankContext().now, s.id);
}

/** Cancel a scheduled payment (a monthly one: every payment still to come). */
export function cancelScheduled(userId: number, id: number | null): ScheduledPayment {
  const s = scheduledOrRefuse(userId, id);
  db().prepare("UPDATE scheduled_payments SET status = 'cancelled', cancelled_at = ? WHERE id = ?").run(bankContext().now, s.id);
  return s;
}
