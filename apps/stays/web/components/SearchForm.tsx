/** The search box: destination, dates and guests (a plain GET form to /search). */
export function SearchForm({ cities, city, checkIn, checkOut, guests, compact }: { cities: string[]; city: string; checkIn: string; checkOut: string; guests: string; compact?: boolean }) {
  return (
    <form action="/search" method="get" className={compact ? "bs-search bs-search-compact" : "bs-search"} data-testid="search-form">
      <label className="bs-search-where">
        <span>Where to?</span>
        <select name="city" defaultValue={city} required>
          <option value="">Choose a destination</option>
          {cities.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>Check-in</span>
        <input type="date" name="checkin" defaultValue={checkIn} required />
      </label>
      <label>
        <span>Check-out</span>
        <input type="date" name="checkout" defaultValue={checkOut} required />
      </label>
      <label className="bs-search-guests">
        <span>Guests</span>
        <input type="number" name="guests" min={1} max={8} defaultValue={guests} required />
      </label>
      <button type="submit" className="bs-primary">
        Search
      </button>
    </form>
  );
}
