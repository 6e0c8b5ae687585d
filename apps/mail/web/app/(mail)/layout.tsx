import Link from "next/link";
import type { ReactNode } from "react";
import { Logo } from "@/mail/components/Logo";
import { Rail } from "@/mail/components/Rail";
import { requireUser } from "@/mail/lib/auth";

function initials(name: string) {
  return name.split(/\s+/).filter(Boolean).slice(0, 2).map((w) => w[0]!.toUpperCase()).join("");
}

/** Signed-in pages: the header with the search box, the left rail, and the page. */
export default async function MailLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  return (
    <div className="mb-app">
      <header className="mb-header">
        <Link href="/" className="mb-brand">
          <Logo />
          <span>Mailbox</span>
        </Link>
        <form action="/search" method="get" className="mb-search" role="search">
          <span className="mb-search-icon" aria-hidden="true">⌕</span>
          <input name="q" type="search" placeholder="Search mail   (from:  to:  subject:  has:attachment  before:  after:)" aria-label="Search mail" data-testid="search" />
        </form>
        <div className="mb-account">
          <Link href="/settings" className="mb-gear" aria-label="Settings" title="Settings">
            ⚙
          </Link>
          <span className="mb-account-name" title={user.email}>
            {user.full_name}
          </span>
          <span className="mb-avatar" aria-hidden="true">
            {initials(user.full_name)}
          </span>
          <form action="/api/logout" method="post">
            <button className="mb-linkbtn" type="submit">
              Sign out
            </button>
          </form>
        </div>
      </header>
      <div className="mb-body">
        <Rail />
        <main className="mb-content">{children}</main>
      </div>
    </div>
  );
}
