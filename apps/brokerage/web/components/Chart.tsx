import type { Close } from "@/brokerage/lib/broker";

/**
 * An inline SVG line chart of closes (oldest first): green when the range ends above its start, red below, a dashed
 * line at the first close, the low and high labelled. No client script.
 */
export function PriceChart({ closes, money, label }: { closes: Close[]; money: (c: number) => string; label: string }) {
  const W = 640;
  const H = 220;
  const P = 8;
  const PY = 20;
  if (closes.length < 2) return <p className="tw-muted">{label}</p>;
  const values = closes.map((c) => c.close_cents);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const span = hi - lo || 1;
  const x = (i: number) => P + ((W - 2 * P) * i) / (closes.length - 1);
  const y = (v: number) => PY + (H - 2 * PY) * (1 - (v - lo) / span);
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const up = values[values.length - 1] >= values[0];
  return (
    <svg className="tw-chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label} data-testid="price-chart" data-points={closes.length}>
      <line x1={P} x2={W - P} y1={y(values[0])} y2={y(values[0])} stroke="#9aa7a7" strokeDasharray="4 4" strokeWidth="1" />
      <polyline points={points} fill="none" stroke={up ? "#1f9d55" : "#d64545"} strokeWidth="2" strokeLinejoin="round" />
      <text x={W - P} y={13} textAnchor="end" className="tw-chart-label">
        {money(hi)}
      </text>
      <text x={W - P} y={H - 4} textAnchor="end" className="tw-chart-label">
        {money(lo)}
      </text>
    </svg>
  );
}
