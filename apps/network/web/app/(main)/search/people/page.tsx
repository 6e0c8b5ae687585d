import { errorMessage } from "@persona/platform/http";
import Link from "next/link";
import { ConnectAction, degree } from "@/network/components/Connect";
import { Frame } from "@/network/components/Frame";
import { Avatar } from "@/network/components/Logo";
import { Flash } from "@/network/components/Nav";
import { one } from "@/network/lib/format";
import { searchPeople } from "@/network/lib/network";

export const metadata = { title: "Search people" };

/** People search (the top bar's search): everyone whose name, headline, company or place matches every word. */
export default async function PeopleSearch({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const q = one(sp.keywords).slice(0, 100);
  const people = searchPeople(q);
  return (
    <Frame active="network">
      <div className="gl-cols gl-cols-profile">
        <section className="gl-center">
          <nav className="gl-card gl-tabs" aria-label="Search in">
            <span className="gl-tab gl-on">People</span>
            <Link href={`/jobs?${new URLSearchParams({ q }).toString()}`} className="gl-tab" data-testid="search-jobs">Jobs</Link>
          </nav>
          <Flash error={errorMessage(sp)} />
          <section className="gl-card">
            <h2 className="gl-h2" data-testid="people-count">
              {q ? `${people.length} ${people.length === 1 ? "result" : "results"} for “${q}”` : "Search for people by name, company, title or city"}
            </h2>
            {q && !people.length ? <p className="gl-muted">No one on Guildline matches. Check the spelling or try fewer words.</p> : null}
            <ul className="gl-list">
              {people.map((p) => (
                <li key={p.id} className="gl-invite" data-testid="person" data-id={p.id} data-name={p.name}>
                  <Avatar name={p.name} size={56} />
                  <div className="gl-grow">
                    <Link href={`/in/${p.id}`} className="gl-strong">{p.name}</Link> <span className="gl-muted gl-small" data-testid="degree">· {degree(p)}</span>
                    <div className="gl-small">{p.headline}</div>
                    <div className="gl-muted gl-small">{p.location}</div>
                  </div>
                  <ConnectAction p={p} />
                </li>
              ))}
            </ul>
          </section>
        </section>
      </div>
    </Frame>
  );
}
