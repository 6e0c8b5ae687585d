import type { StayContext } from "@/stays/lib/context";

export interface BreakdownInput {
  nights: { night: string; cents: number }[] | null;
  nightCount: number;
  nightly_cents: number;
  subtotal_cents: number;
  taxes_cents: number;
  fees: [string, number][];
  total_cents: number;
}

/** The price breakdown of a stay: nights, taxes, fees, total. */
export function Breakdown({ b, ctx }: { b: BreakdownInput; ctx: StayContext }) {
  return (
    <table className="bs-breakdown" data-testid="breakdown">
      <tbody>
        {b.nights
          ? b.nights.map((n) => (
              <tr key={n.night} className="bs-night">
                <td>{ctx.day(n.night)}</td>
                <td>{ctx.money(n.cents)}</td>
              </tr>
            ))
          : null}
        <tr>
          <th>
            {b.nightCount} night{b.nightCount === 1 ? "" : "s"} × {ctx.money(b.nightly_cents)}
            {b.nights ? " avg." : ""}
          </th>
          <td data-testid="subtotal">{ctx.money(b.subtotal_cents)}</td>
        </tr>
        <tr>
          <th>Taxes</th>
          <td data-testid="taxes">{ctx.money(b.taxes_cents)}</td>
        </tr>
        {b.fees
          .filter(([, c]) => c > 0)
          .map(([label, c]) => (
            <tr key={label}>
              <th>{label}</th>
              <td>{ctx.money(c)}</td>
            </tr>
          ))}
        <tr className="bs-total">
          <th>Total</th>
          <td data-testid="total">{ctx.money(b.total_cents)}</td>
        </tr>
      </tbody>
    </table>
  );
}
