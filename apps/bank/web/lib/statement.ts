import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from "pdf-lib";
import { maskNumber } from "@persona/ui/format";
import { statementLines, type Account, type Statement, type Txn } from "./bank";
import type { BankContext } from "./context";
import { formatters } from "./context";
import type { User } from "./auth";
import { carePhone, categoryLabel, deposit, kindLabel } from "./labels";

/** Plain decimal of cents for machine-readable files: -189500 -> "-1895.00". */
export function decimal(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

function csvCell(v: string | number): string {
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function statementFileName(account: Account, s: Statement, ext: "csv" | "pdf"): string {
  return `larkspur-${account.kind.replace("_", "-")}-${account.number.slice(-4)}-${s.period_start.slice(0, 7)}.${ext}`;
}

/**
 * The statement as CSV: a summary block whose totals are the statement row, a blank line,
 * then one line per ledger entry of the period (oldest first).
 */
export function statementCsv(account: Account, s: Statement, ctx: BankContext): string {
  const lines = statementLines(s);
  const rows: (string | number)[][] = [
    ["Larkspur Bank statement"],
    ["Account", `${account.name} ${maskNumber(account.number)}`],
    ["Period start", s.period_start],
    ["Period end", s.period_end],
    ["Currency", ctx.currency],
    ["Opening balance", decimal(s.opening_cents)],
    ["Total credits", decimal(s.credits_cents)],
    ["Total debits", decimal(s.debits_cents)],
    ["Closing balance", decimal(s.closing_cents)],
    [],
    ["Date", "Description", "Category", "Type", "Amount", "Balance"],
    ...lines.map((t) => [t.posted_at.slice(0, 10), t.description, t.category, t.kind, decimal(t.amount_cents), decimal(t.balance_after_cents)]),
  ];
  return rows.map((r) => r.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

// ----------------------------------------------------------------------------------- PDF

const TEAL = rgb(0x1f / 255, 0x4e / 255, 0x5f / 255);
const AMBER = rgb(0xd9 / 255, 0x8e / 255, 0x3a / 255);
const INK = rgb(0.1, 0.14, 0.16);
const SOFT = rgb(0.36, 0.42, 0.45);
const LINE = rgb(0.86, 0.89, 0.9);

/** Standard PDF fonts speak WinAnsi only: replace what they can't draw. */
function winAnsi(s: string): string {
  return s
    .normalize("NFC")
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\u2212/g, "-")
    .replace(/[^\x20-\x7e\u00a0-\u00ff\u2022\u2013\u2014\u20ac]/g, "?");
}

function fit(font: PDFFont, text: string, size: number, width: number): string {
  let t = winAnsi(text);
  if (font.widthOfTextAtSize(t, size) <= width) return t;
  while (t.length > 1 && font.widthOfTextAtSize(t + "…", size) > width) t = t.slice(0, -1);
  return t + "…";
}

/** The statement as a PDF: letterhead, summary (the statement row's totals), and every line of the period. */
export async function statementPdf(user: User, account: Account, s: Statement, ctx: BankContext): Promise<Uint8Array> {
  const f = formatters(ctx);
  const lines: Txn[] = statementLines(s);
  const doc = await PDFDocument.create();
  doc.setTitle(`Larkspur Bank statement ${s.period_start} to ${s.period_end}`);
  doc.setAuthor("Larkspur Bank");
  doc.setCreator("Larkspur Bank online banking");
  doc.setProducer("Larkspur Bank");
  const created = new Date(`${s.period_end}T12:00:00Z`);
  doc.setCreationDate(created);
  doc.setModificationDate(created);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);

  const W = 612;
  const H = 792;
  const M = 48;
  let page: PDFPage = doc.addPage([W, H]);
  let y = H;
  const text = (p: PDFPage, t: string, x: number, yy: number, size = 9.5, font = regular, color = INK) =>
    p.drawText(winAnsi(t), { x, y: yy, size, font, color });
  const right = (p: PDFPage, t: string, xRight: number, yy: number, size = 9.5, font = regular, color = INK) => {
    const s2 = winAnsi(t);
    p.drawText(s2, { x: xRight - font.widthOfTextAtSize(s2, size), y: yy, size, font, color });
  };

  // Letterhead
  page.drawRectangle({ x: 0, y: H - 86, width: W, height: 86, color: TEAL });
  page.drawRectangle({ x: 0, y: H - 90, width: W, height: 4, color: AMBER });
  page.drawCircle({ x: M + 10, y: H - 43, size: 11, color: AMBER });
  page.drawCircle({ x: M + 10, y: H - 43, size: 4, color: TEAL });
  text(page, "Larkspur Bank", M + 30, H - 40, 20, bold, rgb(1, 1, 1));
  text(page, "Banking that grows with you", M + 30, H - 56, 9, regular, rgb(0.8, 0.88, 0.9));
  right(page, `${kindLabel(account.kind, ctx.locale)} statement`, W - M, H - 40, 12, bold, rgb(1, 1, 1));
  right(page, `${f.date(s.period_start, "long")} – ${f.date(s.period_end, "long")}`, W - M, H - 56, 9, regular, rgb(0.8, 0.88, 0.9));

  y = H - 122;
  text(page, user.full_name, M, y, 11, bold);
  for (const part of user.address.split(/,\s*(?=[^,]*,)/)) {
    y -= 13;
    text(page, part, M, y, 9.5, regular, SOFT);
  }
  right(page, account.name, W - M, H - 122, 11, bold);
  right(page, `Account ${maskNumber(account.number)}`, W - M, H - 135, 9.5, regular, SOFT);
  if (account.routing_number) right(page, `Routing ${account.routing_number}`, W - M, H - 148, 9.5, regular, SOFT);

  // Summary box
  y = Math.min(y, H - 148) - 30;
  const boxH = 64;
  page.drawRectangle({ x: M, y: y - boxH, width: W - 2 * M, height: boxH, color: rgb(0.95, 0.97, 0.97), borderColor: LINE, borderWidth: 1 });
  const cols = [
    ["Opening balance", s.opening_cents],
    ["Credits", s.credits_cents],
    ["Debits", s.debits_cents],
    ["Closing balance", s.closing_cents],
  ] as const;
  const colW = (W - 2 * M) / cols.length;
  cols.forEach(([label, cents], i) => {
    const x = M + 14 + i * colW;
    text(page, label.toUpperCase(), x, y - 22, 7.5, bold, SOFT);
    const shown = account.kind === "credit_card" && (label === "Opening balance" || label === "Closing balance") ? -cents : cents;
    text(page, f.money(shown), x, y - 44, 14, bold, i === 3 ? TEAL : INK);
  });
  y -= boxH + 14;
  if (account.kind === "credit_card") {
    text(
      page,
      "Balances on a credit card statement are the amount owed. Credits are payments and refunds; debits are purchases, fees and interest.",
      M,
      y,
      8,
      regular,
      SOFT,
    );
    y -= 12;
  }

  // Lines
  const colX = { date: M, desc: M + 70, cat: M + 300, amount: W - M - 92, balance: W - M };
  const header = (p: PDFPage, yy: number) => {
    p.drawRectangle({ x: M, y: yy - 6, width: W - 2 * M, height: 20, color: TEAL });
    text(p, "DATE", colX.date + 6, yy, 8, bold, rgb(1, 1, 1));
    text(p, "DESCRIPTION", colX.desc, yy, 8, bold, rgb(1, 1, 1));
    text(p, "CATEGORY", colX.cat, yy, 8, bold, rgb(1, 1, 1));
    right(p, "AMOUNT", colX.amount, yy, 8, bold, rgb(1, 1, 1));
    right(p, "BALANCE", colX.balance - 6, yy, 8, bold, rgb(1, 1, 1));
    return yy - 22;
  };
  y -= 14;
  text(page, `Transactions (${lines.length})`, M, y, 11, bold);
  y = header(page, y - 22);
  const insured = deposit(ctx.meta);
  const footer = (p: PDFPage, n: number) => {
    p.drawLine({ start: { x: M, y: 40 }, end: { x: W - M, y: 40 }, thickness: 0.5, color: LINE });
    text(p, [`Larkspur Bank${insured.suffix}`, insured.scheme, `Questions? Call ${carePhone(ctx.meta)}`].filter(Boolean).join(" · "), M, 28, 7.5, regular, SOFT);
    right(p, `Page ${n}`, W - M, 28, 7.5, regular, SOFT);
  };
  let pageNo = 1;
  if (lines.length === 0) {
    text(page, "No transactions this period.", M + 6, y, 9.5, regular, SOFT);
  }
  lines.forEach((t, i) => {
    if (y < 60) {
      footer(page, pageNo++);
      page = doc.addPage([W, H]);
      y = header(page, H - 60);
    }
    if (i % 2 === 1) page.drawRectangle({ x: M, y: y - 5, width: W - 2 * M, height: 17, color: rgb(0.975, 0.98, 0.98) });
    text(page, f.date(t.posted_at, "medium"), colX.date + 6, y, 8.5);
    text(page, fit(regular, t.description, 8.5, colX.cat - colX.desc - 10), colX.desc, y, 8.5);
    text(page, fit(regular, categoryLabel(t.category), 8.5, 62), colX.cat, y, 8.5, regular, SOFT);
    right(page, f.signed(t.amount_cents), colX.amount, y, 8.5, regular, t.amount_cents > 0 ? rgb(0.11, 0.48, 0.3) : INK);
    right(page, f.money(t.balance_after_cents), colX.balance - 6, y, 8.5);
    y -= 17;
  });
  y -= 6;
  if (y < 80) {
    footer(page, pageNo++);
    page = doc.addPage([W, H]);
    y = H - 60;
  }
  page.drawLine({ start: { x: M, y: y + 8 }, end: { x: W - M, y: y + 8 }, thickness: 1, color: LINE });
  text(page, "Totals for this period", colX.desc, y - 6, 9, bold);
  right(page, `Credits ${f.money(s.credits_cents)}   Debits ${f.money(s.debits_cents)}`, colX.balance - 6, y - 6, 9, bold);
  footer(page, pageNo);
  return doc.save({ useObjectStreams: false });
}
