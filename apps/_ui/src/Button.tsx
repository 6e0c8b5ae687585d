import Link from "next/link";
import type { AnchorHTMLAttributes, ButtonHTMLAttributes, ReactNode } from "react";

export type ButtonVariant = "primary" | "secondary" | "accent" | "ghost" | "danger";

function classes(variant: ButtonVariant, size: "md" | "sm", extra?: string) {
  return ["pui-btn", `pui-btn-${variant}`, size === "sm" ? "pui-btn-sm" : "", extra ?? ""].filter(Boolean).join(" ");
}

/** A form or action button. */
export function Button({
  variant = "primary",
  size = "md",
  className,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant; size?: "md" | "sm" }) {
  return <button type="submit" {...rest} className={classes(variant, size, className)} />;
}

/** A link that looks like a button. Uses Next's client-side navigation unless `download` or `external` is set. */
export function ButtonLink({
  href,
  variant = "secondary",
  size = "md",
  className,
  children,
  external,
  ...rest
}: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string; variant?: ButtonVariant; size?: "md" | "sm"; external?: boolean; children: ReactNode }) {
  const cls = classes(variant, size, className);
  if (external || rest.download !== undefined) {
    return (
      <a href={href} className={cls} {...rest}>
        {children}
      </a>
    );
  }
  return (
    <Link href={href} className={cls} {...rest}>
      {children}
    </Link>
  );
}
