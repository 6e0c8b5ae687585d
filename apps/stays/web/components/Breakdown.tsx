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

/** The price breakdown of a stay: nights, taxes, fees, total in the property's `currency`, and (`onCard`, for what
 * Bramblestay charges) what that is on the card at the reference rate when the card is in another currency. A stay
 * paid at the property passes `onCard={false}`: the hotel converts at its own day's rate. */
export function Breakdown({ b, ctx, currency, onCard = true }: { b: BreakdownInput; ctx: StayContext; currency: string; onCard?: boolean }) {
  return (
    <table className="bs-breakdown" data-testid="breakdown">
      <tbody>
        {b.nights
          ? b.nights.map((n) => (
              <tr key={n.night} className="bs-night">
                <td>{ctx.day(n.night)}</td>
                <td>{ctx.money(n.cents, currency)}</td>
              </tr>
            ))
          : null}
        <tr>
          <th>
            {b.nightCount} night{b.nightCount === 1 ? "" : "s"} × {ctx.money(b.nightly_cents, currency)}
            {b.nights ? " avg." : ""}
          </th>
          <td data-testid="subtotal">{ctx.money(b.subtotal_cents, currency)}</td>
        </tr>
        <tr>
          <th>Taxes</th>
          <td data-testid="taxes">{ctx.money(b.taxes_cents, currency)}</td>
        </tr>
        {b.fees
          .filter(([, c]) => c > 0)
          .map(([label, c]) => (
            <tr key={label}>
              <th>{label}</th>
              <td>{ctx.money(c, currency)}</td>
            </tr>
          ))}
        <tr className="bs-total">
          <th>Total</th>
          <td data-testid="total">{ctx.money(b.total_cents, currency)}</td>
        </tr>
        {onCard && currency !== ctx.currency ? (
          <tr className="bs-card-amount">
            <th>On your card ({ctx.currency})</th>
            <td data-testid="card-total">{ctx.money(ctx.toCard(b.total_cents, currency))}</td>
          </tr>
        ) : null}
      </tbody>
    </table>
  );
}
