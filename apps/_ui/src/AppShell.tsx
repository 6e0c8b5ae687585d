import Link from "next/link";
import type { HTMLAttributes, ReactNode } from "react";
import { Nav, type NavItem } from "./Nav";

export interface AppShellProps {
  /** Brand mark (an inline SVG) and name shown at the left of the header. */
  logo: ReactNode;
  brandName: string;
  homeHref?: string;
  /** Primary navigation; omit on signed-out pages. */
  nav?: NavItem[];
  /** Right side of the header: the signed-in user's menu, or a sign-in link. */
  actions?: ReactNode;
  /** A thin strip above the header (date, notices). */
  topBar?: ReactNode;
  footer?: ReactNode;
  children: ReactNode;
}

/** Page shell shared by the app clones: top strip, header with brand + nav + actions, main column, footer. */
export function AppShell({ logo, brandName, homeHref = "/", nav, actions, topBar, footer, children }: AppShellProps) {
  return (
    <div className="pui-shell">
      <a className="pui-skip" href="#main">
        Skip to content
      </a>
      {topBar ? (
        <div className="pui-topbar">
          <div className="pui-container">{topBar}</div>
        </div>
      ) : null}
      <header className="pui-header">
        <div className="pui-container pui-header-row">
          <Link href={homeHref} className="pui-brand" aria-label={`${brandName} home`}>
            {logo}
            <span className="pui-brand-name">{brandName}</span>
          </Link>
          {nav ? <Nav items={nav} /> : <span className="pui-spacer" />}
          <div className="pui-header-actions">{actions}</div>
        </div>
      </header>
      <main id="main" className="pui-main">
        <div className="pui-container">{children}</div>
      </main>
      {footer ? (
        <footer className="pui-footer">
          <div className="pui-container">{footer}</div>
        </footer>
      ) : null}
    </div>
  );
}

/** Title row of a page: heading, optional subtitle, optional actions on the right. */
export function PageHeader({ title, subtitle, actions, eyebrow }: { title: ReactNode; subtitle?: ReactNode; actions?: ReactNode; eyebrow?: ReactNode }) {
  return (
    <div className="pui-page-header">
      <div>
        {eyebrow ? <div className="pui-eyebrow">{eyebrow}</div> : null}
        <h1>{title}</h1>
        {subtitle ? <p className="pui-subtitle">{subtitle}</p> : null}
      </div>
      {actions ? <div className="pui-page-actions">{actions}</div> : null}
    </div>
  );
}

/** A white panel with an optional heading row. */
export function Card({
  title,
  actions,
  children,
  className,
  id,
  flush,
}: {
  title?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  id?: string;
  /** No padding: for tables that run edge to edge. */ flush?: boolean;
}) {
  return (
    <section className={`pui-card ${className ?? ""}`.trim()} id={id}>
      {title || actions ? (
        <div className="pui-card-head">
          {title ? <h2>{title}</h2> : <span />}
          {actions}
        </div>
      ) : null}
      <div className={flush ? "pui-card-body is-flush" : "pui-card-body"}>{children}</div>
    </section>
  );
}

/**
 * A message box: info, success, warning or error (`role="alert"` for an error, `"status"` otherwise).
 *
 * The kit's look comes from `pui-alert pui-alert-<tone>` (styles.css). An app with its own look passes its class
 * (`className="sw-alert"`) and styles that instead; other attributes (`data-testid`, `id`) go on the box.
 */
export function Alert({
  tone = "info",
  title,
  children,
  className,
  ...rest
}: { tone?: "info" | "success" | "warning" | "error"; title?: ReactNode; children?: ReactNode } & Omit<HTMLAttributes<HTMLDivElement>, "title" | "role">) {
  return (
    <div {...rest} className={`pui-alert pui-alert-${tone}${className ? ` ${className}` : ""}`} role={tone === "error" ? "alert" : "status"}>
      {title ? <strong className="pui-alert-title">{title}</strong> : null}
      {children ? <div>{children}</div> : null}
    </div>
  );
}
