"use client";

import { useState } from "react";

export interface TipOption {
  percent: number;
  cents: number;
  /** `$3.35` */
  label: string;
  /** The order total with this tip, formatted. */
  total: string;
}

/**
 * The tip choice and the totals of a delivery checkout: picking a tip updates the tip and total lines at
 * once (every option's total is computed and formatted on the server; the route recomputes it from the cart).
 */
export function TipAndTotal({ legend, options, initial, rows, tipWord, totalWord }: {
  legend: string; options: TipOption[]; initial: number; rows: [string, string][]; tipWord: string; totalWord: string;
}) {
  const [tip, setTip] = useState(initial);
  const chosen = options.find((o) => o.cents === tip) ?? options[0];
  return (
    <>
      <fieldset className="bf-tips">
        <legend>{legend}</legend>
        {options.map((o) => (
          <label key={o.percent} className="bf-tip">
            <input type="radio" name="tip" value={o.cents} checked={o.cents === tip} onChange={() => setTip(o.cents)} /> {o.percent}% · {o.label}
          </label>
        ))}
      </fieldset>
      <table className="bf-totals" data-testid="totals">
        <tbody>
          {rows.map(([k, v], i) => <tr key={k}><td>{k}</td><td className="bf-num" data-testid={i === 0 ? "subtotal" : undefined}>{v}</td></tr>)}
          <tr><td>{tipWord} ({chosen.percent}%)</td><td className="bf-num" data-testid="tip">{chosen.label}</td></tr>
          <tr className="bf-total-row"><td>{totalWord}</td><td className="bf-num" data-testid="total">{chosen.total}</td></tr>
        </tbody>
      </table>
    </>
  );
}
