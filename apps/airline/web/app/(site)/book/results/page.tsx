import Link from "next/link";
import { Options } from "@/airline/components/Options";
import { SearchForm } from "@/airline/components/SearchForm";
import { airport, airports, dateProblem, families, lastBookableDate, options } from "@/airline/lib/air";
import { requireUser } from "@/airline/lib/auth";
import { airContext, money, travelers } from "@/airline/lib/context";
import { one, travellers, type SP } from "@/airline/lib/page";
import { day } from "@/airline/lib/time";

export const metadata = { title: "Choose flights" };

export default async function Results({ searchParams }: { searchParams: SP }) {
  const sp = await searchParams;
  await requireUser();
  const ctx = airContext();
  const from = one(sp.from).toUpperCase(), to = one(sp.to).toUpperCase();
  const date = one(sp.date), ret = one(sp.return), cabin = one(sp.cabin) === "business" ? "business" : "economy";
  const asked = travellers(one(sp.pax), `${travelers(ctx, null)}s`);
  const pax = asked.pax;
  const out = one(sp.out);
  const all = airports();
  let error = "";
  if (asked.error) error = asked.error;
  else if (!airport(from) || !airport(to)) error = "Choose the airports you fly from and to.";
  else if (from === to) error = "Choose two different airports.";
  else if (dateProblem(ctx, date)) error = dateProblem(ctx, date);
  else if (ret && (dateProblem(ctx, ret) || ret < date)) error = ret > lastBookableDate(ctx) ? `Return: ${dateProblem(ctx, ret)}` : "The return date must be on or after the departure date.";
  const fams = families().filter((f) => f.cabin === cabin);
  const choosingReturn = !error && ret && out;
  const list = error ? [] : choosingReturn ? options(ctx, to, from, ret) : options(ctx, from, to, date);
  const base = { from, to, date, return: ret, cabin, pax: String(pax) };
  // On the return step: the departure and fare already chosen (each journey keeps its own fare family).
  const outFam = choosingReturn ? fams.find((f) => f.code === one(sp.family)) : undefined;
  const outChosen = outFam ? options(ctx, from, to, date).find((o) => o.key === out) : undefined;
  return (
    <div className="ma-page">
      <SearchForm airports={all} from={from || ctx.homeAirport} to={to} date={date} ret={ret} cabin={cabin} pax={asked.error ? "1" : String(pax)} min={ctx.now.slice(0, 10)} max={lastBookableDate(ctx)} />
      {error ? <p className="ma-alert" role="alert" data-testid="error">{error}</p> : (
        <>
          <h1>
            {choosingReturn ? "Choose your return" : "Choose your departure"}: {airport(choosingReturn ? to : from)!.city} → {airport(choosingReturn ? from : to)!.city}
          </h1>
          <p className="ma-muted">{day(choosingReturn ? ret : date, ctx.locale)} · {travelers(ctx, pax)} · fares per {travelers(ctx, null)}, taxes and fees included</p>
          {choosingReturn ? (
            <p>
              {outChosen && outFam ? <span data-testid="chosen-out" data-cents={outChosen.fares[outFam.code]}>Departing {outChosen.legs.map((l) => l.flight).join(", ")} · {outFam.name} {money(ctx, outChosen.fares[outFam.code])} per {travelers(ctx, null)}. </span> : null}
              <Link href={`/book/results?${new URLSearchParams(base)}`}>← Change departure</Link>
            </p>
          ) : null}
          {ret && !out ? (
            <Options ctx={ctx} list={list} fams={fams} airportOf={(c) => airport(c)!} action="/book/results" hidden={base} pax={pax} name="out" />
          ) : (
            <Options ctx={ctx} list={list} fams={fams} airportOf={(c) => airport(c)!} action="/book/review" hidden={ret ? { ...base, out, outfamily: one(sp.family) } : base} pax={pax} name={ret ? "ret" : "out"} />
          )}
        </>
      )}
    </div>
  );
}
