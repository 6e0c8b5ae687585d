import { SearchForm } from "@/airline/components/SearchForm";
import { errorMessage } from "@persona/platform/http";
import { airports, lastBookableDate } from "@/airline/lib/air";
import { requireUser } from "@/airline/lib/auth";
import { airContext } from "@/airline/lib/context";
import { one, type SP } from "@/airline/lib/page";
import { addDays, day } from "@/airline/lib/time";

export const metadata = { title: "Book a flight" };

export default async function BookPage({ searchParams }: { searchParams: SP }) {
  const sp = await searchParams;
  const error = errorMessage(sp);
  const user = await requireUser();
  const ctx = airContext();
  return (
    <div className="ma-page">
      <section className="ma-hero">
        <h1>Where to next, {user.given_name}?</h1>
        <p>Nonstop and one-stop flights from {user.home_airport} to {airports().length - 1} airports.</p>
      </section>
      {error ? <p className="ma-alert" role="alert">{error}</p> : null}
      <SearchForm airports={airports()} from={one(sp.from) || user.home_airport} to={one(sp.to) || "AUS"} date={one(sp.date) || addDays(ctx.now.slice(0, 10), 21)} ret={one(sp.return)} cabin={one(sp.cabin) || "economy"} pax={one(sp.pax) || "1"} min={ctx.now.slice(0, 10)} max={lastBookableDate(ctx)} />
      <p className="ma-muted">Our schedule is open for booking through {day(lastBookableDate(ctx), ctx.locale)}.</p>
    </div>
  );
}
