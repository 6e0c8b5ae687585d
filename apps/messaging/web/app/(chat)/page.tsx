import { errorMessage } from "@persona/platform/http";
import { Logo } from "@/messaging/components/Avatar";
import { Sidebar } from "@/messaging/components/Sidebar";

export const metadata = { title: "Chats" };

export default async function Home({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const error = errorMessage(await searchParams);
  return (
    <>
      <Sidebar />
      <main className="pl-main pl-empty">
        <div className="pl-empty-card">
          <Logo size={72} />
          <h1>Parley</h1>
          {error ? (
            <p className="pl-alert" role="alert" data-testid="error">
              {error}
            </p>
          ) : null}
          <p>Pick a conversation on the left, or start a group with the people you plan things with.</p>
          <p className="pl-muted">Messages are end-to-end yours.</p>
        </div>
      </main>
    </>
  );
}
