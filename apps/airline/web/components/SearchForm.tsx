import type { Airport } from "@/airline/lib/air";

/** The flight search: from, to, dates, cabin, travellers (a GET form to /book/results). */
export function SearchForm({ airports, from, to, date, ret, cabin, pax, min, max }: { airports: Airport[]; from: string; to: string; date: string; ret: string; cabin: string; pax: string; min?: string; max?: string }) {
  return (
    <form className="ma-search" action="/book/results" method="get" data-testid="search-form">
      <label>
        From
        <select name="from" defaultValue={from}>
          {airports.map((a) => <option key={a.code} value={a.code}>{a.city} ({a.code})</option>)}
        </select>
      </label>
      <label>
        To
        <select name="to" defaultValue={to}>
          {airports.map((a) => <option key={a.code} value={a.code}>{a.city} ({a.code})</option>)}
        </select>
      </label>
      <label>
        Depart
        <input type="date" name="date" defaultValue={date} min={min} max={max} required />
      </label>
      <label>
        Return <small>(optional)</small>
        <input type="date" name="return" defaultValue={ret} min={min} max={max} />
      </label>
      <label>
        Cabin
        <select name="cabin" defaultValue={cabin}>
          <option value="economy">Economy</option>
          <option value="business">Business</option>
        </select>
      </label>
      <label>
        Travellers
        <select name="pax" defaultValue={pax}>
          {[1, 2, 3, 4, 5, 6].map((n) => <option key={n} value={n}>{n}</option>)}
        </select>
      </label>
      <button type="submit" className="ma-primary">Find flights</button>
    </form>
  );
}
