import Link from "next/link";
import { Header } from "@/stays/components/Brand";
import { Photo } from "@/stays/components/Photo";
import { requireUser } from "@/stays/lib/auth";
import { stayContext } from "@/stays/lib/context";
import { threads } from "@/stays/lib/stays";

export const metadata = { title: "Messages" };

export default async function MessagesPage() {
  const user = await requireUser();
  const ctx = stayContext();
  const list = threads(user.id, ctx.now);
  return (
    <>
      <Header name={user.full_name} active="messages" />
      <main className="bs-page bs-narrow">
        <h1>Messages</h1>
        {list.length === 0 ? <p className="bs-empty">No messages yet. You can write to your host or hotel from any trip.</p> : null}
        <ul className="bs-trip-list">
          {list.map((t) => (
            <li key={t.id}>
              <Link href={`/trips/${t.confirmation}#messages`} className="bs-trip-row" data-testid="thread-row">
                <Photo seed={t.art} kind="room" label={t.property_name} className="bs-trip-thumb" />
                <div className="bs-trip-main">
                  <strong>{t.kind === "rental" ? t.host_name : t.property_name}</strong>
                  <span className="bs-muted">{t.property_name}</span>
                  <span>{t.last_body}</span>
                </div>
                <div className="bs-trip-side bs-small bs-muted">{t.last_at ? ctx.dateTime(t.last_at) : ""}</div>
              </Link>
            </li>
          ))}
        </ul>
      </main>
    </>
  );
}
