import type { ReactNode } from "react";
import { duration, monthLabel } from "@/network/lib/format";
import type { Education, Experience } from "@/network/lib/network";
import { Avatar } from "./Logo";

/** The profile's top card. */
export function ProfileTop({ name, pronouns, headline, location, extra, actions }: { name: string; pronouns?: string; headline: string; location: string; extra?: ReactNode; actions?: ReactNode }) {
  return (
    <section className="gl-card gl-profile-top">
      <div className="gl-cover gl-cover-big" />
      <div className="gl-profile-id">
        <Avatar name={name} size={112} />
        <h1 data-testid="profile-name">{name}</h1>
        {pronouns ? <p className="gl-muted gl-small" data-testid="profile-pronouns">{pronouns}</p> : null}
        <p className="gl-headline" data-testid="profile-headline">{headline}</p>
        <p className="gl-muted gl-small" data-testid="profile-location">{location}</p>
        {extra}
        {actions ? <div className="gl-actions">{actions}</div> : null}
      </div>
    </section>
  );
}

/** The experience section: one row per job, newest first. */
export function ExperienceList({ items, today }: { items: Experience[]; today: string }) {
  return (
    <section className="gl-card">
      <h2 className="gl-h2">Experience</h2>
      <ul className="gl-list">
        {items.map((x) => (
          <li key={x.id} className="gl-exp" data-testid="experience" data-title={x.title} data-company={x.company} data-start={x.start_month} data-end={x.end_month ?? ""}>
            <div className="gl-exp-logo" aria-hidden="true">{x.company.slice(0, 1)}</div>
            <div>
              <div className="gl-strong">{x.title}</div>
              <div>{x.company}</div>
              <div className="gl-muted gl-small">
                {monthLabel(x.start_month)} – {monthLabel(x.end_month)} · {duration(x.start_month, x.end_month, today)}
              </div>
              {x.location ? <div className="gl-muted gl-small">{x.location}</div> : null}
              {x.description ? <p className="gl-small">{x.description}</p> : null}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function EducationList({ items }: { items: Education[] }) {
  return (
    <section className="gl-card">
      <h2 className="gl-h2">Education</h2>
      <ul className="gl-list">
        {items.map((x) => (
          <li key={x.id} className="gl-exp" data-testid="education">
            <div className="gl-exp-logo" aria-hidden="true">{x.school.slice(0, 1)}</div>
            <div>
              <div className="gl-strong">{x.school}</div>
              <div>{x.degree}</div>
              <div className="gl-muted gl-small">{x.start_year} – {x.end_year}</div>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
