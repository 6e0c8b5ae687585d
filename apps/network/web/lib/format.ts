const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** `2024-03` -> `Mar 2024`; null -> `Present`. */
export function monthLabel(ym: string | null): string {
  if (!ym) return "Present";
  return `${MONTHS[Number(ym.slice(5, 7)) - 1]} ${ym.slice(0, 4)}`;
}

/** Whole months from `start` to `end` (or now), inclusive, as `2 yrs 3 mos`. */
export function duration(start: string, end: string | null, today: string): string {
  const e = end ?? today.slice(0, 7);
  const n = (Number(e.slice(0, 4)) - Number(start.slice(0, 4))) * 12 + Number(e.slice(5, 7)) - Number(start.slice(5, 7)) + 1;
  const y = Math.floor(n / 12);
  const m = n % 12;
  return [y ? `${y} yr${y > 1 ? "s" : ""}` : "", m ? `${m} mo${m > 1 ? "s" : ""}` : ""].filter(Boolean).join(" ") || "1 mo";
}

/** How long ago `iso` was before `now` (both local ISO): `5m`, `3h`, `2d`, `4w`, `3mo`, `1y`. */
export function ago(iso: string, now: string): string {
  const s = (new Date(`${now}Z`).getTime() - new Date(`${iso}Z`).getTime()) / 1000;
  if (s < 60) return "now";
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  if (s < 7 * 86400) return `${Math.floor(s / 86400)}d`;
  if (s < 30 * 86400) return `${Math.floor(s / (7 * 86400))}w`;
  if (s < 365 * 86400) return `${Math.floor(s / (30 * 86400))}mo`;
  return `${Math.floor(s / (365 * 86400))}y`;
}

/** A salary range in the job's currency, whole units: `$115,000 - $144,000/yr`. */
export function salaryRange(min: number, max: number, currency: string, locale: string): string {
  const f = new Intl.NumberFormat(locale, { style: "currency", currency, maximumFractionDigits: 0 });
  return `${f.format(min / 100)} – ${f.format(max / 100)}/yr`;
}

export const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";
