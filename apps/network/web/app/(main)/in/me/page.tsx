import { errorMessage } from "@persona/platform/http";
import Link from "next/link";
import { Frame } from "@/network/components/Frame";
import { Flash } from "@/network/components/Nav";
import { PostCard } from "@/network/components/PostCard";
import { EducationList, ExperienceList, ProfileTop } from "@/network/components/ProfileView";
import { requireUser } from "@/network/lib/auth";
import { networkContext } from "@/network/lib/context";
import { one } from "@/network/lib/format";
import { feed, getProfile, listConnections, listEducation, listExperience, listSkills } from "@/network/lib/network";

export const metadata = { title: "Your profile" };

export default async function MyProfile({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const user = await requireUser();
  const { now, today } = networkContext();
  const p = getProfile();
  const posts = feed(now, { author: "me", limit: 3 });
  return (
    <Frame active="me">
      <div className="gl-cols gl-cols-profile">
        <section className="gl-center">
          <Flash error={errorMessage(sp)} notice={one(sp.saved) ? "Your profile is updated." : ""} />
          <ProfileTop name={user.full_name} pronouns={p.pronouns} headline={p.headline} location={p.location}
            extra={<p className="gl-small"><Link href="/network">{listConnections().length} connections</Link></p>}
            actions={<Link href="/in/me/edit" className="gl-primary" data-testid="edit-profile">Edit profile</Link>} />
          <section className="gl-card">
            <h2 className="gl-h2">About</h2>
            <p className="gl-about" data-testid="profile-about">{p.about}</p>
          </section>
          <section className="gl-card">
            <h2 className="gl-h2">Activity</h2>
            {posts.length ? posts.map((x) => <PostCard key={x.id} post={x} me={user.full_name} now={now} back="/in/me" />) : <p className="gl-muted">You haven't posted yet.</p>}
          </section>
          <ExperienceList items={listExperience()} today={today} />
          <EducationList items={listEducation()} />
          <section className="gl-card">
            <h2 className="gl-h2">Skills</h2>
            <ul className="gl-skills">
              {listSkills().map((s) => <li key={s.id} data-testid="skill">{s.name}</li>)}
            </ul>
          </section>
        </section>
      </div>
    </Frame>
  );
}
