import { errorMessage } from "@persona/platform/http";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ConnectAction } from "@/network/components/Connect";
import { Frame } from "@/network/components/Frame";
import { Flash } from "@/network/components/Nav";
import { PostCard } from "@/network/components/PostCard";
import { ProfileTop } from "@/network/components/ProfileView";
import { requireUser } from "@/network/lib/auth";
import { networkContext } from "@/network/lib/context";
import { monthLabel, one } from "@/network/lib/format";
import { feed, personHit } from "@/network/lib/network";

export default async function PersonPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { id } = await params;
  const sp = await searchParams;
  const user = await requireUser();
  const p = /^\d{1,9}$/.test(id) ? personHit(Number(id)) : null;
  if (!p) notFound();
  const { now } = networkContext();
  const mutual = JSON.parse(p.mutual_json) as string[];
  const posts = feed(now, { author: p.id, limit: 5 });
  return (
    <Frame active="network">
      <div className="gl-cols gl-cols-profile">
        <section className="gl-center">
          <Flash error={errorMessage(sp)} notice={one(sp.done)} />
          <ProfileTop name={p.name} headline={p.headline} location={p.location}
            extra={<p className="gl-small gl-muted" data-testid="degree">{p.connected_on ? `1st · connected since ${p.connected_on}` : `2nd${mutual.length ? ` · ${mutual.length} mutual: ${mutual.join(", ")}` : ""}`}</p>}
            actions={<ConnectAction p={p} />} />
          <section className="gl-card">
            <h2 className="gl-h2">Experience</h2>
            <ul className="gl-list">
              <li className="gl-exp"><div className="gl-exp-logo">{p.company.slice(0, 1)}</div><div><div className="gl-strong">{p.title}</div><div>{p.company}</div><div className="gl-muted gl-small">{monthLabel(p.started)} – Present</div></div></li>
              {p.previous_title ? <li className="gl-exp"><div className="gl-exp-logo">{(p.previous_company ?? "?").slice(0, 1)}</div><div><div className="gl-strong">{p.previous_title}</div><div>{p.previous_company}</div></div></li> : null}
            </ul>
          </section>
          <section className="gl-card">
            <h2 className="gl-h2">Activity</h2>
            {posts.length ? posts.map((x) => <PostCard key={x.id} post={x} me={user.full_name} now={now} back={`/in/${p.id}`} />) : <p className="gl-muted">{p.name} hasn't posted lately.</p>}
          </section>
          <p><Link href="/network">← My Network</Link></p>
        </section>
      </div>
    </Frame>
  );
}
