import Link from "next/link";
import type { ReactNode } from "react";
import { AppShell } from "@persona/ui";
import { LogoMark } from "@/bank/components/Logo";
import { requireUser } from "@/bank/lib/auth";
import { bankContext, formatters } from "@/bank/lib/context";
import { carePhone, deposit, legalLine } from "@/bank/lib/labels";

const NAV = [
  { href: "/accounts", label: "Accounts", match: ["/"] },
  { href: "/transfer", label: "Transfer" },
  { href: "/pay-bills", label: "Pay bills" },
  { href: "/send-money", label: "Send money" },
  { href: "/cards", label: "Cards" },
  { href: "/statements", label: "Statements" },
];

function initials(name: string) {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join("");
}

/** Signed-in pages: the bank's header, nav and footer around every page. */
export default async function BankLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  const ctx = bankContext();
  const f = formatters(ctx);
  return (
    <AppShell
      logo={<LogoMark />}
      brandName="Larkspur Bank"
      homeHref="/accounts"
      nav={NAV}
      topBar={
        <>
          <span className="lb-topbar-left">
            <span data-testid="today">Today is {f.longToday()}</span>
          </span>
          <span className="lb-topbar-right">
            <span data-testid="care-phone">Customer care {carePhone(ctx.meta)}</span>
            <span>Secure session</span>
          </span>
        </>
      }
      actions={
        <div className="lb-user">
          <div className="lb-user-name">
            <Link href="/profile">{user.full_name}</Link>
            <form action="/api/logout" method="post">
              <button type="submit" className="lb-linkbtn">
                Sign out
              </button>
            </form>
          </div>
          <Link href="/profile" className="lb-avatar" aria-label="Profile">
            {initials(user.full_name)}
          </Link>
        </div>
      }
      footer={
        <div className="lb-footer-row">
          <span>
            © {ctx.today.slice(0, 4)} {legalLine("Larkspur Bank", deposit(ctx.meta))}
          </span>
          <span>Privacy · Security · Accessibility · Help</span>
        </div>
      }
    >
      {children}
    </AppShell>
  );
}
