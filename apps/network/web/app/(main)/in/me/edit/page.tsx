import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import Link from "next/link";
import { Frame } from "@/network/components/Frame";
import { Flash } from "@/network/components/Nav";
import { networkContext } from "@/network/lib/context";
import { one } from "@/network/lib/format";
import { LIMITS, getProfile, listExperience, listSkills, type Experience } from "@/network/lib/network";

export const metadata = { title: "Edit profile" };

function ExperienceForm({ x, today }: { x?: Experience; today: string }) {
  return (
    <form action="/api/experience" method="post" className="gl-form gl-exp-form" data-testid={x ? `experience-form-${x.id}` : "experience-form-new"}>
      <input type="hidden" name="_idem" value={idempotencyToken()} />
      <input type="hidden" name="back" value="/in/me/edit" />
      {x ? <input type="hidden" name="id" value={x.id} /> : null}
      <div className="gl-row">
        <label>Title<input name="title" defaultValue={x?.title} required maxLength={LIMITS.title} /></label>
        <label>Company<input name="company" defaultValue={x?.company} required maxLength={LIMITS.company} /></label>
      </div>
      <div className="gl-row">
        <label>Location<input name="location" defaultValue={x?.location} maxLength={LIMITS.location} /></label>
        <label>Start (YYYY-MM)<input name="start" type="month" defaultValue={x?.start_month} max={today.slice(0, 7)} required /></label>
        <label>End (empty: current)<input name="end" type="month" defaultValue={x?.end_month ?? ""} max={today.slice(0, 7)} /></label>
      </div>
      <label>Description<textarea name="description" defaultValue={x?.description} rows={2} maxLength={LIMITS.description} /></label>
      <div className="gl-actions">
        <button type="submit" name="action" value={x ? "update" : "add"} className="gl-primary">{x ? "Save" : "Add experience"}</button>
        {x ? <button type="submit" name="action" value="delete" className="gl-danger" formNoValidate>Delete</button> : null}
      </div>
    </form>
  );
}

export default async function EditProfile({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const { today } = networkContext();
  const p = getProfile();
  return (
    <Frame active="me">
      <div className="gl-cols gl-cols-profile">
        <section className="gl-center">
          <p><Link href="/in/me">← Back to your profile</Link></p>
          <Flash error={errorMessage(sp)} notice={one(sp.saved) ? "Saved." : ""} />
          <section className="gl-card">
            <h2 className="gl-h2">Intro</h2>
            <form action="/api/profile" method="post" className="gl-form" data-testid="intro-form">
              <input type="hidden" name="_idem" value={idempotencyToken()} />
              <input type="hidden" name="back" value="/in/me/edit" />
              <label>Headline<input name="headline" defaultValue={p.headline} required maxLength={LIMITS.headline} /></label>
              <label>Pronouns<input name="pronouns" defaultValue={p.pronouns} maxLength={LIMITS.pronouns} placeholder="e.g. she/her" /></label>
              <label>Location<input name="location" defaultValue={p.location} required maxLength={LIMITS.location} /></label>
              <label>About<textarea name="about" defaultValue={p.about} rows={6} maxLength={LIMITS.about} /></label>
              <button type="submit" className="gl-primary">Save intro</button>
            </form>
          </section>
          <section className="gl-card">
            <h2 className="gl-h2">Experience</h2>
            {listExperience().map((x) => <ExperienceForm key={x.id} x={x} today={today} />)}
            <h3 className="gl-h3">Add a position</h3>
            <ExperienceForm today={today} />
          </section>
          <section className="gl-card">
            <h2 className="gl-h2">Skills</h2>
            <ul className="gl-skills">
              {listSkills().map((s) => (
                <li key={s.id}>
                  {s.name}
                  <form action="/api/skills" method="post" className="gl-inline">
                    <input type="hidden" name="_idem" value={idempotencyToken()} />
                    <input type="hidden" name="id" value={s.id} />
                    <input type="hidden" name="action" value="remove" />
                    <input type="hidden" name="back" value="/in/me/edit" />
                    <button type="submit" className="gl-x" aria-label={`Remove ${s.name}`}>×</button>
                  </form>
                </li>
              ))}
            </ul>
            <form action="/api/skills" method="post" className="gl-form gl-row" data-testid="skill-form">
              <input type="hidden" name="_idem" value={idempotencyToken()} />
              <input type="hidden" name="action" value="add" />
              <input type="hidden" name="back" value="/in/me/edit" />
              <input name="skill" placeholder="Add a skill" aria-label="Skill" maxLength={LIMITS.skill} required />
              <button type="submit" className="gl-secondary">Add</button>
            </form>
          </section>
        </section>
      </div>
    </Frame>
  );
}
