import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import Link from "next/link";
import { Frame } from "@/network/components/Frame";
import { Avatar } from "@/network/components/Logo";
import { Flash } from "@/network/components/Nav";
import { PostCard } from "@/network/components/PostCard";
import { requireUser } from "@/network/lib/auth";
import { networkContext } from "@/network/lib/context";
import { one } from "@/network/lib/format";
import { feed, getProfile, listConnections, suggestions } from "@/network/lib/network";

export const metadata = { title: "Feed" };

export default async function FeedPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const user = await requireUser();
  const { now } = networkContext();
  const profile = getProfile();
  const posts = feed(now, { limit: 40 });
  const people = suggestions(4);
  return (
    <Frame active="home">
      <div className="gl-cols">
        <aside className="gl-left">
          <div className="gl-card gl-me-card" data-testid="me-card">
            <div className="gl-cover" />
            <Avatar name={user.full_name} size={64} />
            <Link href="/in/me" className="gl-strong">{user.full_name}</Link>
            <p className="gl-muted gl-small" data-testid="me-headline">{profile.headline}</p>
            <p className="gl-small"><Link href="/network">{listConnections().length} connections</Link></p>
          </div>
        </aside>
        <section className="gl-center">
          <Flash error={errorMessage(sp)} notice={one(sp.posted) ? "Your post is live." : ""} />
          <form action="/api/posts" method="post" className="gl-card gl-composer" data-testid="composer">
            <input type="hidden" name="_idem" value={idempotencyToken()} />
            <Avatar name={user.full_name} size={44} />
            <textarea name="body" placeholder="Start a post" aria-label="Start a post" rows={3} maxLength={3000} />
            <button type="submit" className="gl-primary">Post</button>
          </form>
          {posts.map((p) => (
            <PostCard key={p.id} post={p} me={user.full_name} now={now} back="/" />
          ))}
        </section>
        <aside className="gl-right">
          <div className="gl-card">
            <h2 className="gl-h2">People you may know</h2>
            <ul className="gl-people">
              {people.map((p) => (
                <li key={p.id}>
                  <Avatar name={p.name} size={36} />
                  <div>
                    <Link href={`/in/${p.id}`} className="gl-strong">{p.name}</Link>
                    <div className="gl-muted gl-small">{p.headline}</div>
                  </div>
                </li>
              ))}
            </ul>
          </div>
        </aside>
      </div>
    </Frame>
  );
}
