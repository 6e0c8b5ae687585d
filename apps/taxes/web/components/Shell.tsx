import Link from "next/link";
import { redirect } from "next/navigation";
import { Alert as Banner } from "@persona/ui";
import type { ReactNode } from "react";
import { currentUser, type User } from "@/taxes/lib/auth";
import type { TaxContext } from "@/taxes/lib/context";
import { STEPS, type Step } from "@/taxes/lib/fields";
import { t } from "@/taxes/lib/words";

export async function signedIn(path: string): Promise<User> {
  const user = await currentUser();
  if (!user) redirect(`/login?next=${encodeURIComponent(path)}`);
  return user;
}

export function Logo() {
  return (
    <span className="ll-logo">
      <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true">
        <rect width="32" height="32" rx="7" fill="#2f6b3a" />
        <path d="M9 23c0-8 6-14 15-14-1 9-6 15-15 14z" fill="#e8b64c" />
      </svg>
      <span>
        Ledger<b>leaf</b> Tax
      </span>
    </span>
  );
}

export function Shell({ ctx, user, children, step }: { ctx: TaxContext; user: User; children: ReactNode; step?: Step }) {
  return (
    <>
      <header className="ll-header">
        <Link href="/" className="ll-home">
          <Logo />
        </Link>
        <span className="ll-year">{ctx.taxYear}</span>
        <span className="ll-spacer" />
        <span className="ll-user" data-testid="user-name">{user.full_name}</span>
        <form action="/api/logout" method="post">
          <button className="ll-link" type="submit">
            {t(ctx, "signOut")}
          </button>
        </form>
      </header>
      {step ? (
        <nav className="ll-steps" aria-label="Steps">
          {STEPS.map((s, i) => (
            <Link key={s} href={`/return/${s}`} className={s === step ? "ll-step ll-step-on" : i < STEPS.indexOf(step) ? "ll-step ll-step-done" : "ll-step"}>
              <span className="ll-step-n">{i + 1}</span> {t(ctx, s)}
            </Link>
          ))}
        </nav>
      ) : null}
      <main className="ll-main">{children}</main>
    </>
  );
}

/** The page's error and notice, in the kit's message box with Ledgerleaf's look (`ll-alert`, `ll-note`). */
export function Alert({ error, notice }: { error?: string; notice?: string }) {
  return (
    <>
      {error ? (
        <Banner tone="error" className="ll-alert">
          {error}
        </Banner>
      ) : null}
      {notice ? (
        <Banner tone="success" className="ll-note">
          {notice}
        </Banner>
      ) : null}
    </>
  );
}
