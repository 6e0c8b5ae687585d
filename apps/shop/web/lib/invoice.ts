import { PDFDocument, StandardFonts, rgb } from "pdf-lib";
import type { ShopContext } from "./context";
import type { Card, Order, OrderItem, ReturnRow } from "./shop";

const NAVY = rgb(0x16 / 255, 0x32 / 255, 0x4f / 255);
const AMBER = rgb(0xf2 / 255, 0xa3 / 255, 0x3a / 255);
const GREY = rgb(0.4, 0.42, 0.46);

/** Text the standard PDF fonts can draw (WinAnsi): other characters become "?". */
function ansi(s: string): string {
  return s.replace(/[^\x20-\x7e\u00a0-\u00ff€•–—’“”]/g, "?");
}

export function invoiceFileName(o: Order): string {
  return `shopwell-invoice-${o.order_number}.pdf`;
}

/** The order's invoice as a one-page PDF: seller, buyer and ship-to, lines, subtotal, shipping, total, payment,
 * and refunds of returned lines. Amounts in the persona's currency and locale. */
export async function invoicePdf(ctx: ShopContext, o: Order, items: OrderItem[], returns: ReturnRow[], card: Card | undefined, buyer: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Shopwell invoice ${o.order_number}`);
  pdf.setAuthor("Shopwell");
  pdf.setCreationDate(new Date(`${o.placed_at}Z`));
  pdf.setModificationDate(new Date(`${o.placed_at}Z`));
  const page = pdf.addPage([612, 792]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const t = ctx.t;
  const text = (s: string, x: number, y: number, size = 10, f = font, color = rgb(0.1, 0.1, 0.12)) => page.drawText(ansi(s), { x, y, size, font: f, color });
  const right = (s: string, x: number, y: number, size = 10, f = font) => text(s, x - f.widthOfTextAtSize(ansi(s), size), y, size, f);
  page.drawRectangle({ x: 0, y: 722, width: 612, height: 70, color: NAVY });
  page.drawCircle({ x: 62, y: 757, size: 16, color: AMBER });
  text("Shopwell", 88, 750, 22, bold, rgb(1, 1, 1));
  text(t("Invoice", "Rechnung"), 470, 752, 16, bold, rgb(1, 1, 1));
  let y = 690;
  text(t("Order number", "Bestellnummer"), 48, y, 9, font, GREY);
  text(o.order_number, 48, y - 14, 11, bold);
  text(t("Order date", "Bestelldatum"), 220, y, 9, font, GREY);
  text(ctx.date(o.placed_at), 220, y - 14, 11);
  text(t("Invoice to", "Rechnung an"), 380, y, 9, font, GREY);
  text(buyer, 380, y - 14, 11);
  y -= 48;
  text(t("Ship to", "Lieferadresse"), 48, y, 9, font, GREY);
  text(`${o.ship_name}, ${o.ship_address}`, 48, y - 14, 10);
  y -= 36;
  text(t("Sold by Shopwell Retail, 400 Commerce Way, Seattle, WA 98109", "Verkauf durch Shopwell Retail, 400 Commerce Way, Seattle, WA 98109"), 48, y, 8, font, GREY);
  y -= 28;
  page.drawRectangle({ x: 40, y: y - 6, width: 532, height: 22, color: rgb(0.94, 0.95, 0.97) });
  text(t("Item", "Artikel"), 48, y, 9, bold);
  right(t("Qty", "Menge"), 420, y, 9, bold);
  right(t("Unit price", "Einzelpreis"), 490, y, 9, bold);
  right(t("Amount", "Betrag"), 564, y, 9, bold);
  y -= 26;
  for (const i of items) {
    const name = `${i.name}${i.variant ? ` – ${i.variant}` : ""}`;
    text(name.length > 70 ? `${name.slice(0, 68)}…` : name, 48, y, 10);
    right(String(i.qty), 420, y);
    right(ctx.money(i.price_cents), 490, y);
    right(ctx.money(i.qty * i.price_cents), 564, y);
    y -= 20;
  }
  page.drawLine({ start: { x: 300, y: y + 8 }, end: { x: 572, y: y + 8 }, thickness: 0.6, color: GREY });
  const row = (label: string, cents: number, f = font) => {
    y -= 16;
    text(label, 330, y, 10, f);
    right(ctx.money(cents), 564, y, 10, f);
  };
  row(t("Subtotal", "Zwischensumme"), o.subtotal_cents);
  row(t("Shipping", "Versand"), o.shipping_cents);
  row(t("Order total", "Gesamtbetrag"), o.total_cents, bold);
  const refunded = returns.reduce((s, r) => s + r.refund_cents, 0);
  if (refunded) row(t("Refunded", "Erstattet"), -refunded);
  y -= 30;
  text(t("Payment", "Zahlung"), 48, y, 9, font, GREY);
  text(card ? card.label : "-", 48, y - 14, 10);
  if (returns.length) {
    y -= 44;
    text(t("Returns", "Rücksendungen"), 48, y, 9, font, GREY);
    for (const r of returns) {
      y -= 14;
      const item = items.find((i) => i.id === r.order_item_id);
      text(`${r.rma}  ${item?.name ?? ""}  ${ctx.money(r.refund_cents)}  (${ctx.date(r.created_at)})`, 48, y, 9);
    }
  }
  text(t("Thank you for shopping with Shopwell. Returns are free within 30 days of delivery.", "Danke für Ihren Einkauf bei Shopwell. Rücksendungen sind innerhalb von 30 Tagen nach Lieferung kostenlos."), 48, 48, 8, font, GREY);
  return pdf.save();
}
