import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import { EventForm } from "@/calendar/components/EventForm";
import { Shell } from "@/calendar/components/Shell";
import { requireUser } from "@/calendar/lib/auth";
import { calContext } from "@/calendar/lib/context";
import { calendars } from "@/calendar/lib/events";
import { one, type Search } from "@/calendar/lib/search";
import { validDate, validTime } from "@/calendar/lib/tz";
import { REMINDER_FIELDS } from "@/calendar/lib/write";

export const metadata = { title: "New event" };

const REPEATS = [
  { value: "none", label: "Does not repeat" },
  { value: "daily", label: "Daily" },
  { value: "weekdays", label: "Every weekday (Monday to Friday)" },
  { value: "weekly", label: "Weekly on this day" },
  { value: "monthly", label: "Monthly on this weekday" },
  { value: "yearly", label: "Annually on this date" },
];

export default async function NewEventPage({ searchParams }: { searchParams: Promise<Search> }) {
  const sp = await searchParams;
  const user = await requireUser();
  const ctx = calContext();
  const date = validDate(one(sp.date)) ? one(sp.date) : ctx.today;
  const time = validTime(one(sp.time)) ? one(sp.time) : `${String(Math.min(22, Number(ctx.now.slice(11, 13)) + 1)).padStart(2, "0")}:00`;
  const endH = String(Math.min(23, Number(time.slice(0, 2)) + 1)).padStart(2, "0");
  const error = errorMessage(sp);
  const had = !!error;
  const values = {
    title: had ? one(sp.title) : "",
    date: had ? one(sp.date) : date,
    start_time: had ? one(sp.start_time) : time,
    end_date: had ? one(sp.end_date) : date,
    end_time: had ? one(sp.end_time) : `${endH}:${time.slice(3)}`,
    all_day: had ? one(sp.all_day) === "1" : false,
    timezone: (had && one(sp.timezone)) || ctx.tz,
    calendar: (had && one(sp.calendar)) || "personal",
    location: had ? one(sp.location) : "",
    description: had ? one(sp.description) : "",
    repeat: (had && one(sp.repeat)) || "none",
    reminders: had ? REMINDER_FIELDS.map((k) => one(sp[k])) : ["30"],
    ends: (had && one(sp.ends)) || "never",
    until: had ? one(sp.until) : "",
    count: had ? one(sp.count) : "10",
    color: (had && one(sp.color)) || "calendar",
  };
  return (
    <Shell user={user} view={null} date={date} title="New event">
      <EventForm action="/api/events" values={values} cals={calendars()} error={error || undefined} field={one(sp.field) || undefined} hidden={{ _idem: idempotencyToken() }} cancel={`/week?date=${date}`} repeatChoices={REPEATS} submit="Save" />
    </Shell>
  );
}
