import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";

/** A labelled form row with optional hint and error text. */
export function Field({
  label,
  htmlFor,
  hint,
  error,
  children,
}: {
  label: ReactNode;
  htmlFor: string;
  hint?: ReactNode;
  error?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className={error ? "pui-field has-error" : "pui-field"}>
      <label htmlFor={htmlFor}>{label}</label>
      {children}
      {hint && !error ? <p className="pui-hint">{hint}</p> : null}
      {error ? <p className="pui-error">{error}</p> : null}
    </div>
  );
}

export function Input(props: InputHTMLAttributes<HTMLInputElement>) {
  return <input {...props} className={`pui-input ${props.className ?? ""}`.trim()} />;
}

/** A money input with a currency prefix. */
export function MoneyInput({ symbol = "$", ...props }: InputHTMLAttributes<HTMLInputElement> & { symbol?: string }) {
  return (
    <div className="pui-money-input">
      <span aria-hidden="true">{symbol}</span>
      <input inputMode="decimal" autoComplete="off" placeholder="0.00" {...props} className={`pui-input ${props.className ?? ""}`.trim()} />
    </div>
  );
}

export function Select({ children, ...props }: SelectHTMLAttributes<HTMLSelectElement> & { children: ReactNode }) {
  return (
    <select {...props} className={`pui-input pui-select ${props.className ?? ""}`.trim()}>
      {children}
    </select>
  );
}

export function TextArea(props: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea {...props} className={`pui-input ${props.className ?? ""}`.trim()} />;
}
