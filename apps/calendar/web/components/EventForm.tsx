import Link from "next/link";
import type { CalendarRow } from "@/calendar/lib/events";

export interface FormValues {
  title: string;
  date: string;
  start_time: string;
  end_date: string;
  end_time: string;
  all_day: boolean;
  timezone: string;
  calendar: string;
  location: string;
  description: string;
  repeat: string;
  reminder: string;
}

const ZONES = ["America/Los_Angeles", "America/Denver", "America/Chicago", "America/New_York", "Pacific/Honolulu", "Europe/London", "Europe/Lisbon", "Europe/Berlin", "Asia/Tokyo", "UTC"];

/** The create/edit form: posts to `action`; `error`/`field` from a refused post are shown above the form. */
export function EventForm({ action, values, cals, error, field, hidden, cancel, repeatChoices, submit }: {
  action: string;
  values: FormValues;
  cals: CalendarRow[];
  error?: string;
  field?: string;
  hidden: Record<string, string>;
  cancel: string;
  repeatChoices: { value: string; label: string }[] | null;
  submit: string;
}) {
  const zones = ZONES.includes(values.timezone) ? ZONES : [values.timezone, ...ZONES];
  const bad = (f: string) => (field === f ? "bad" : undefined);
  return (
    <form action={action} method="post" className="dbk-form" data-testid="event-form">
      {Object.entries(hidden).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      {error ? (
        <div className="dbk-error" role="alert" data-testid="form-error" data-field={field}>
          {error}
        </div>
      ) : null}
      <input className={`dbk-title-input ${bad("title") ?? ""}`} id="title" name="title" placeholder="Add title" defaultValue={values.title} aria-label="Title" autoFocus />
      <div className="dbk-row">
        <label>
          Starts <input type="date" id="date" name="date" defaultValue={values.date} className={bad("date")} />
        </label>
        <input type="time" id="start_time" name="start_time" defaultValue={values.start_time} aria-label="Start time" className={bad("start_time")} />
        <span>to</span>
        <input type="date" id="end_date" name="end_date" defaultValue={values.end_date} aria-label="End date" className={bad("end_date")} />
        <input type="time" id="end_time" name="end_time" defaultValue={values.end_time} aria-label="End time" className={bad("end_time")} />
      </div>
      <div className="dbk-row">
        <label className="chk">
          <input type="checkbox" id="all_day" name="all_day" value="1" defaultChecked={values.all_day} /> All day
        </label>
        <label>
          Time zone{" "}
          <select id="timezone" name="timezone" defaultValue={values.timezone}>
            {zones.map((z) => (
              <option key={z} value={z}>
                {z.replace(/_/g, " ")}
              </option>
            ))}
          </select>
        </label>
        {repeatChoices ? (
          <label>
            Repeats{" "}
            <select id="repeat" name="repeat" defaultValue={values.repeat}>
              {repeatChoices.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.label}
                </option>
              ))}
            </select>
          </label>
        ) : null}
      </div>
      <label className="dbk-field">
        Location <input id="location" name="location" defaultValue={values.location} placeholder="Add location" />
      </label>
      <label className="dbk-field">
        Calendar{" "}
        <select id="calendar" name="calendar" defaultValue={values.calendar}>
          {cals.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
      <label className="dbk-field">
        Reminder{" "}
        <select id="reminder" name="reminder" defaultValue={values.reminder}>
          <option value="">Keep as is</option>
          <option value="none">No reminder</option>
          <option value="0">At the start</option>
          <option value="5">5 minutes before</option>
          <option value="10">10 minutes before</option>
          <option value="15">15 minutes before</option>
          <option value="30">30 minutes before</option>
          <option value="60">1 hour before</option>
          <option value="120">2 hours before</option>
          <option value="1440">1 day before</option>
          <option value="10080">1 week before</option>
        </select>
      </label>
      <label className="dbk-field">
        Description <textarea id="description" name="description" rows={5} defaultValue={values.description} placeholder="Add description" />
      </label>
      <div className="dbk-form-actions">
        <Link href={cancel} className="dbk-linkbtn">
          Cancel
        </Link>
        <button type="submit" className="dbk-primary" data-testid="save">
          {submit}
        </button>
      </div>
    </form>
  );
}
