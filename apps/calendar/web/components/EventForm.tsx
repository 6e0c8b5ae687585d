import Link from "next/link";
import { EVENT_COLORS } from "@/calendar/lib/colors";
import type { CalendarRow } from "@/calendar/lib/events";
import { reminderLabel } from "@/calendar/lib/format";
import { MAX_COUNT, MAX_REMINDERS, REMINDER_CHOICES, REMINDER_FIELDS } from "@/calendar/lib/write";

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
  /** The reminder slots' values (minutes; "" for an empty slot), in order. */
  reminders: string[];
  ends: string;
  until: string;
  count: string;
  /** A palette name or "calendar". */
  color: string;
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
  const filled = values.reminders.filter((x) => x !== "" && x !== "none");
  // The filled slots and one (at least two in all) to add another, up to the most an event may have.
  const slots = Array.from({ length: Math.min(MAX_REMINDERS, Math.max(2, filled.length + 1)) }, (_, i) => filled[i] ?? "");
  const choices = (cur: string) => {
    const n = Number(cur);
    return cur !== "" && !REMINDER_CHOICES.includes(n) && Number.isFinite(n) ? [...REMINDER_CHOICES, n].sort((a, b) => a - b) : REMINDER_CHOICES;
  };
  const calColor = cals.find((c) => c.id === values.calendar)?.color ?? "#3f4bb8";
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
      {repeatChoices ? (
        <fieldset className={`dbk-ends ${bad("ends") ?? ""}`} data-testid="repeat-ends">
          <legend>Ends</legend>
          <label className="chk">
            <input type="radio" name="ends" value="never" id="ends-never" defaultChecked={values.ends !== "on" && values.ends !== "after"} /> Never
          </label>
          <label className="chk">
            <input type="radio" name="ends" value="on" id="ends-on" defaultChecked={values.ends === "on"} /> On
            <input type="date" id="until" name="until" defaultValue={values.until} aria-label="Last day" className={bad("until")} />
          </label>
          <label className="chk">
            <input type="radio" name="ends" value="after" id="ends-after" defaultChecked={values.ends === "after"} /> After
            <input type="number" id="count" name="count" min={1} max={MAX_COUNT} defaultValue={values.count} aria-label="Number of occurrences" className={`dbk-count ${bad("count") ?? ""}`} /> occurrences
          </label>
        </fieldset>
      ) : null}
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
      {/* Colour and reminders belong to the whole event (one occurrence of a series has neither of its own). */}
      {repeatChoices ? (
        <>
      <fieldset className={`dbk-colors ${bad("color") ?? ""}`} data-testid="color-picker">
        <legend>Colour</legend>
        <label className="dbk-swatch" title="Calendar colour">
          <input type="radio" name="color" value="calendar" id="color-calendar" defaultChecked={!values.color || values.color === "calendar"} style={{ ["--c" as string]: calColor }} />
          <span>Calendar colour</span>
        </label>
        {EVENT_COLORS.map((c) => (
          <label key={c.id} className="dbk-swatch" title={c.label}>
            <input type="radio" name="color" value={c.id} id={`color-${c.id}`} defaultChecked={values.color === c.id} style={{ ["--c" as string]: c.hex }} aria-label={c.label} />
            <span className="sr">{c.label}</span>
          </label>
        ))}
      </fieldset>
      <fieldset className={`dbk-reminders ${bad("reminders") || bad("reminder") ? "bad" : ""}`} data-testid="reminder-slots">
        <legend>Reminders</legend>
        <input type="hidden" name="reminders_form" value="1" />
        {slots.map((cur, i) => (
          <select key={REMINDER_FIELDS[i]} id={REMINDER_FIELDS[i]} name={REMINDER_FIELDS[i]} defaultValue={cur} aria-label={`Reminder ${i + 1}`}>
            <option value="">{i < filled.length ? "Remove this reminder" : i === 0 ? "No reminder" : "Add a reminder"}</option>
            {choices(cur).map((n) => (
              <option key={n} value={String(n)}>
                {reminderLabel(n, values.all_day)}
              </option>
            ))}
          </select>
        ))}
        <span className="hint">Up to {MAX_REMINDERS}; save to add more.</span>
      </fieldset>
        </>
      ) : null}
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
