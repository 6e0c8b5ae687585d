import { cuisinesIn, neighbourhoodsIn, PARTY_SIZES, partyLabel } from "@/dining/lib/tabletime";

/** The search bar: city, date, time, party size, free text (a GET form to /search). */
export function SearchBar({ cities, city, day, time, party, q, min, timeLabel }: { cities: string[]; city: string; day: string; time: string; party: number; q: string; min: string; timeLabel: (t: string) => string }) {
  const times: string[] = [];
  for (let m = 10 * 60 + 30; m <= 22 * 60; m += 30) times.push(`${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`);
  if (!times.includes(time)) times.push(time);
  times.sort();
  return (
    <form action="/search" method="get" className="tt-searchbar" data-testid="search-form">
      <label>
        <span>Date</span>
        <input type="date" name="date" defaultValue={day} min={min} required />
      </label>
      <label>
        <span>Time</span>
        <select name="time" defaultValue={time}>
          {times.map((t) => (
            <option key={t} value={t}>
              {timeLabel(t)}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>Party</span>
        <select name="party" defaultValue={String(party)}>
          {PARTY_SIZES.map((n) => (
            <option key={n} value={n}>
              {partyLabel(n)}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>City</span>
        <select name="city" defaultValue={city}>
          {cities.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </label>
      <label className="tt-grow">
        <span>Restaurant, cuisine or neighbourhood</span>
        <input type="search" name="q" defaultValue={q} maxLength={100} placeholder={example(city)} />
      </label>
      <button type="submit" className="tt-primary">
        Let&apos;s go
      </button>
    </form>
  );
}

/** The search box's hint: a cuisine and a neighbourhood of the city shown ("e.g. Thai, Pearl District"). */
function example(city: string): string {
  const words = [cuisinesIn(city)[0], neighbourhoodsIn(city)[0]].filter(Boolean);
  return words.length ? `e.g. ${words.join(", ")}` : "Restaurant, cuisine or neighbourhood";
}
