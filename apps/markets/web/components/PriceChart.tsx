/**
 * The YES price history of a market as an inline SVG line chart (no chart library): x is the day, y the price
 * 0-100 cents, gridlines at 25/50/75, the last price labelled. `points` oldest first.
 */
export function PriceChart({ points, width = 720, height = 240, label }: { points: { day: string; yes_cents: number }[]; width?: number; height?: number; label: string }) {
  const pad = { l: 40, r: 52, t: 12, b: 26 };
  const w = width - pad.l - pad.r;
  const h = height - pad.t - pad.b;
  const n = points.length;
  const x = (i: number) => pad.l + (n <= 1 ? w : (i / (n - 1)) * w);
  const y = (c: number) => pad.t + h - (c / 100) * h;
  const path = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.yes_cents).toFixed(1)}`).join(" ");
  const area = n ? `${path} L${x(n - 1).toFixed(1)},${y(0)} L${x(0).toFixed(1)},${y(0)} Z` : "";
  const last = points[n - 1];
  const ticks = n ? [0, Math.floor((n - 1) / 2), n - 1] : [];
  return (
    <svg className="hl-chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label} data-testid="price-chart" data-points={n} data-last={last?.yes_cents ?? ""}>
      {[0, 25, 50, 75, 100].map((g) => (
        <g key={g}>
          <line x1={pad.l} x2={pad.l + w} y1={y(g)} y2={y(g)} className="hl-grid" />
          <text x={pad.l - 6} y={y(g) + 4} textAnchor="end" className="hl-axis">
            {g}¢
          </text>
        </g>
      ))}
      {ticks.map((i) => (
        <text key={i} x={x(i)} y={height - 6} textAnchor={i === 0 ? "start" : i === n - 1 ? "end" : "middle"} className="hl-axis">
          {points[i].day}
        </text>
      ))}
      {n ? <path d={area} className="hl-area" /> : null}
      {n ? <path d={path} className="hl-line" /> : null}
      {last ? (
        <>
          <circle cx={x(n - 1)} cy={y(last.yes_cents)} r={4} className="hl-dot" />
          <text x={x(n - 1) + 8} y={y(last.yes_cents) + 4} className="hl-last">
            {last.yes_cents}¢
          </text>
        </>
      ) : null}
    </svg>
  );
}
