import QRCode from "qrcode";
import { PDFDocument, StandardFonts, rgb } from "pdf-lib";
import { AirError, airport, bcbp, bookingByPnr, familyOf, passengersOf, seatsOf, segmentsOf, type Segment } from "./air";
import type { AirContext } from "./context";
import type { User } from "./auth";
import { awareIso, clock, clockZone, day, instant, zoneAbbr } from "./time";

export interface Pass {
  passenger: string; bcbpName: string; ticket: string; pnr: string; flight: string; from: string; to: string;
  fromCity: string; toCity: string; depLocal: string; arrLocal: string; boardingLocal: string; fromZone: string; toZone: string;
  group: number; seat: string; sequence: number; gate: string | null; cabin: string; fare: string; bcbp: string; aircraft: string;
}

/** Boarding minutes before departure: 50 on a widebody, 40 otherwise. */
function boardingLead(seg: Segment): number {
  return seg.aircraft.includes("787") ? 50 : 40;
}

/** The boarding passes of segment `segmentId` of `pnr`, one per checked-in traveller. Throws AirError when the trip or
 * flight is unknown or nobody is checked in. */
export function passes(ctx: AirContext, user: User, pnr: string, segmentId: number | null): Pass[] {
  const b = bookingByPnr(user.id, pnr);
  const all = segmentsOf(b.id);
  // No flight named: the next checked-in flight of the trip, else the last one flown.
  const checked = all.filter((s) => seatsOf(s.id).some((t) => t.sequence != null));
  const seg = segmentId !== null
    ? all.find((s) => s.id === segmentId)
    : (checked.find((s) => instant(s.dep_utc) > ctx.nowMs) ?? checked[checked.length - 1]);
  if (!seg) throw new AirError("That flight is not part of this trip.");
  const fam = familyOf(b, seg);
  const pax = passengersOf(b.id);
  const from = airport(seg.origin)!, to = airport(seg.destination)!;
  const boarding = awareIso(instant(seg.dep_utc) - boardingLead(seg) * 60_000, from.timezone);
  const out: Pass[] = [];
  for (const t of seatsOf(seg.id)) {
    if (t.sequence == null || !t.checked_in_at) continue;
    const p = pax.find((x) => x.id === t.passenger_id)!;
    out.push({
      passenger: p.full_name, bcbpName: p.bcbp_name, ticket: p.ticket_number, pnr: b.pnr, flight: seg.flight_number,
      from: seg.origin, to: seg.destination, fromCity: from.city, toCity: to.city, depLocal: seg.dep_local, arrLocal: seg.arr_local,
      boardingLocal: boarding, fromZone: from.timezone, toZone: to.timezone, group: seg.boarding_group, seat: t.seat, sequence: t.sequence,
      gate: seg.gate, cabin: fam.cabin === "business" ? "Business" : "Economy", fare: fam.name, aircraft: seg.aircraft,
      bcbp: bcbp({
        name: p.bcbp_name, pnr: b.pnr, from: seg.origin, to: seg.destination, carrier: ctx.code, flight: seg.flight_number,
        depLocal: seg.dep_local, compartment: fam.cabin === "business" ? "J" : "Y", seat: t.seat, sequence: t.sequence, ticket: p.ticket_number,
        loyalty: p.loyalty_number, bags: fam.checked_bags, issued: t.checked_in_at,
      }),
    });
  }
  if (!out.length) throw new AirError("Check in first: your boarding pass is ready once you have checked in.");
  return out;
}

/** The QR of a BCBP string as a PNG data URL (error correction M). */
export async function qrDataUrl(text: string): Promise<string> {
  return QRCode.toDataURL(text, { errorCorrectionLevel: "M", margin: 2, scale: 6 });
}

/** The boarding passes as a PDF: one A6-landscape-like page per traveller with the QR of its BCBP string. */
export async function passesPdf(ctx: AirContext, list: Pass[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`${ctx.airline} boarding pass ${list[0].pnr}`);
  doc.setAuthor(ctx.airline);
  doc.setCreator(ctx.airline);
  doc.setProducer(ctx.airline);
  const fixed = new Date(instant(list[0].depLocal) - 86_400_000);
  doc.setCreationDate(fixed);
  doc.setModificationDate(fixed);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const reg = await doc.embedFont(StandardFonts.Helvetica);
  const navy = rgb(11 / 255, 42 / 255, 74 / 255), gold = rgb(232 / 255, 163 / 255, 61 / 255), grey = rgb(0.35, 0.38, 0.42);
  const L = ctx.locale;
  for (const p of list) {
    const page = doc.addPage([595, 320]);
    page.drawRectangle({ x: 0, y: 270, width: 595, height: 50, color: navy });
    page.drawText(ctx.airline.toUpperCase(), { x: 24, y: 288, size: 18, font: bold, color: rgb(1, 1, 1) });
    page.drawText("BOARDING PASS", { x: 430, y: 288, size: 12, font: bold, color: gold });
    const label = (t: string, x: number, y: number) => page.drawText(t.toUpperCase(), { x, y, size: 7, font: bold, color: grey });
    const value = (t: string, x: number, y: number, size = 13) => page.drawText(t, { x, y, size, font: bold, color: navy });
    label("Passenger", 24, 250); value(p.bcbpName, 24, 234);
    label("Confirmation", 250, 250); value(p.pnr, 250, 234);
    label("Flight", 360, 250); value(p.flight, 360, 234);
    value(p.from, 24, 190, 30); value(p.to, 150, 190, 30);
    page.drawText(p.fromCity, { x: 24, y: 176, size: 9, font: reg, color: grey });
    page.drawText(p.toCity, { x: 150, y: 176, size: 9, font: reg, color: grey });
    label("Date", 24, 150); value(day(p.depLocal, L), 24, 134, 11);
    label("Departs", 150, 150); value(clockZone(p.depLocal, p.fromZone, L), 150, 134, 11);
    label("Boarding", 250, 150); value(`${clock(p.boardingLocal, L)} ${zoneAbbr(p.fromZone, instant(p.boardingLocal))}`, 250, 134, 11);
    label("Group", 24, 110); value(String(p.group), 24, 92, 18);
    label("Seat", 90, 110); value(p.seat, 90, 92, 18);
    label("Gate", 160, 110); value(p.gate ?? "See screens", 160, 92, p.gate ? 18 : 11);
    label("Seq", 250, 110); value(String(p.sequence).padStart(3, "0"), 250, 92, 18);
    label("Ticket", 24, 62); page.drawText(p.ticket, { x: 24, y: 48, size: 10, font: reg, color: navy });
    label("Cabin", 150, 62); page.drawText(`${p.cabin} · ${p.fare}`, { x: 150, y: 48, size: 10, font: reg, color: navy });
    page.drawText("Gate closes 15 minutes before departure.", { x: 24, y: 20, size: 8, font: reg, color: grey });
    const png = await QRCode.toBuffer(p.bcbp, { type: "png", errorCorrectionLevel: "M", margin: 2, scale: 6 });
    const img = await doc.embedPng(png);
    page.drawImage(img, { x: 405, y: 50, width: 170, height: 170 });
  }
  return doc.save({ useObjectStreams: false });
}
