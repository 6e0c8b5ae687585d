import type { ReactNode } from "react";
import { redirect } from "next/navigation";
import { Alert as Banner } from "@persona/ui";
import { currentUser, type User } from "@/dining/lib/auth";
import { Header } from "./Brand";

/** The signed-in page frame (signed out: to /login, coming back to `path`). */
export async function signedIn(path: string): Promise<User> {
  const user = await currentUser();
  if (!user) redirect(`/login?next=${encodeURIComponent(path)}`);
  return user;
}

export function Shell({ user, current, children }: { user: User; current: string; children: ReactNode }) {
  return (
    <>
      <Header name={user.full_name} points={user.points} current={current} />
      <main className="tt-main">{children}</main>
      <footer className="tt-footer">
        <span>© TableTime</span>
        <span>Reservations are free. Restaurants with a card policy charge only for late cancellations.</span>
      </footer>
    </>
  );
}

export function Alert({ error, notice }: { error?: string; notice?: string }) {
  return (
    <>
      {error ? (
        <Banner tone="error" className="tt-alert" data-testid="error">
          {error}
        </Banner>
      ) : null}
      {notice ? (
        <Banner tone="success" className="tt-note" data-testid="notice">
          {notice}
        </Banner>
      ) : null}
    </>
  );
}
