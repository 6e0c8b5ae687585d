"use client";

import { useState } from "react";
import { formatMoney, parseMoney } from "@persona/ui/format";

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
 * "Other amount" takes any amount typed in the persona's currency (`tip` = "custom", `tip_amount` = the text):
 * its total is the order without a tip (`baseCents`) plus the amount, formatted here the way the server formats.
 */
export function TipAndTotal({ legend, options, initial, rows, tipWord, totalWord, otherWord, baseCents, currency, locale }: {
  legend: string; options: TipOption[]; initial: number; rows: [string, string][]; tipWord: string; totalWord: string;
  otherWord: string; baseCents: number; currency: string; locale: string;
}) {
  const [tip, setTip] = useState<number | "custom">(initial);
  const [amount, setAmount] = useState("");
  const typed = parseMoney(amount, locale);
  const chosen = tip === "custom"
    ? { percent: null, label: typed === null ? "–" : formatMoney(typed, { currency, locale }), total: formatMoney(baseCents + (typed ?? 0), { currency, locale }) }
    : options.find((o) => o.cents === tip) ?? options[0];
  return (
    <>
      <fieldset className="bf-tips">
        <legend>{legend}</legend>
        {options.map((o) => (
          <label key={o.percent} className="bf-tip">
            <input type="radio" name="tip" value={o.cents} checked={o.cents === tip} onChange={() => setTip(o.cents)} /> {o.percent}% · {o.label}
          </label>
        ))}
        <label className="bf-tip bf-tip-other">
          <input type="radio" name="tip" value="custom" checked={tip === "custom"} onChange={() => setTip("custom")} /> {otherWord}
          <input name="tip_amount" inputMode="decimal" value={amount} aria-label={otherWord} size={7} className="bf-tip-amount" data-testid="tip-amount"
            onFocus={() => setTip("custom")} onChange={(e) => { setTip("custom"); setAmount(e.target.value); }} />
        </label>
      </fieldset>
      <table className="bf-totals" data-testid="totals">
        <tbody>
          {rows.map(([k, v], i) => <tr key={k}><td>{k}</td><td className="bf-num" data-testid={i === 0 ? "subtotal" : undefined}>{v}</td></tr>)}
          <tr><td>{tipWord}{chosen.percent === null ? "" : ` (${chosen.percent}%)`}</td><td className="bf-num" data-testid="tip">{chosen.label}</td></tr>
          <tr className="bf-total-row"><td>{totalWord}</td><td className="bf-num" data-testid="total">{chosen.total}</td></tr>
        </tbody>
      </table>
    </>
  );
}
