import Link from "next/link";
import { notFound } from "next/navigation";
import { Stars } from "@/dining/components/Brand";
import { Photo } from "@/dining/components/Photo";
import { Alert, Shell, signedIn } from "@/dining/components/Shell";
import { diningContext } from "@/dining/lib/context";
import { searchDefaults } from "@/dining/lib/defaults";
import { one, type SearchParams } from "@/dining/lib/params";
import { availableTimes, bandText, hoursOf, isFavourite, isLargeParty, isUpcoming, MAX_PARTY, menuOf, PARTY_SIZES, partyLabel, reservationsOf, restaurantBySlug, reviewsOf, weekday } from "@/dining/lib/tabletime";
import { errorMessage } from "@persona/platform/http";

const DAY_NAMES: Record<string, string> = { mon: "Mon", tue: "Tue", wed: "Wed", thu: "Thu", fri: "Fri", sat: "Sat", sun: "Sun" };

function dayRange(days: string): string {
  const all = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
  const list = days.split(",");
  if (list.length === 7) return "Daily";
  const idx = list.map((d) => all.indexOf(d));
  const contiguous = idx.every((v, i) => i === 0 || v === idx[i - 1] + 1);
  return contiguous && list.length > 2 ? `${DAY_NAMES[list[0]]}–${DAY_NAMES[list[list.length - 1]]}` : list.map((d) => DAY_NAMES[d]).join(", ");
}

export async function generateMetadata({ params }: { params: Promise<{ slug: string }> }) {
  const r = restaurantBySlug((await params).slug);
  return { title: r ? r.name : "Restaurant" };
}

export default async function RestaurantPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: SearchParams }) {
  const { slug } = await params;
  const sp = await searchParams;
  const r = restaurantBySlug(slug);
  if (!r) notFound();
  const user = await signedIn(`/r/${slug}`);
  const ctx = diningContext();
  const s = searchDefaults(ctx, user, { ...sp, city: r.city });
  const times = availableTimes(ctx, r, s.day, s.party, "");
  const menu = menuOf(r.id);
  const courses = [...new Set(menu.map((m) => m.course))];
  const reviews = reviewsOf(r.id);
  const saved = isFavourite(user.id, r.id);
  const hours = hoursOf(r.id);
  const here = reservationsOf(user.id).filter((v) => v.restaurant_id === r.id);
  const visits = here.filter((v) => v.status === "completed").length;
  const next = here.find((v) => isUpcoming(ctx, v));
  const openThatDay = hours.some((h) => h.days.split(",").includes(weekday(s.day)));
  return (
    <Shell user={user} current="/search">
      <div className="tt-rest-hero">
        <Photo palette={r.palette} motif={r.motif} label={`${r.name} dining room`} height={220} />
      </div>
      <Alert error={errorMessage(sp)} notice={one(sp.saved) === "1" ? "Saved to your restaurants." : one(sp.saved) === "0" ? "Removed from your saved restaurants." : ""} />
      <div className="tt-rest">
        <article>
          <div className="tt-rest-head">
            <div>
              <h1 data-testid="restaurant-name">{r.name}</h1>
              <div className="tt-meta">
                <Stars x10={r.rating_x10} size={16} /> {(r.rating_x10 / 10).toFixed(1)} · {r.review_count.toLocaleString(ctx.locale)} reviews · {bandText(r.band)} · {r.cuisine}
              </div>
            </div>
            <form action="/api/favorites" method="post">
              <input type="hidden" name="slug" value={r.slug} />
              <input type="hidden" name="on" value={saved ? "0" : "1"} />
              <button type="submit" className={saved ? "tt-saved" : "tt-secondary"} data-testid="favourite" aria-pressed={saved}>
                {saved ? "♥ Saved" : "♡ Save"}
              </button>
            </form>
          </div>
          <p className="tt-blurb">{r.blurb}</p>
          {visits || next ? (
            <p className="tt-note" data-testid="my-visits" data-visits={visits}>
              {visits ? `You've dined here ${visits === 1 ? "once" : `${visits} times`}.` : ""}
              {next ? (
                <>
                  {" "}
                  Your next table: <Link href={`/reservations/${next.confirmation}`}>{ctx.day(next.day)} at {ctx.time(next.time)}</Link>.
                </>
              ) : null}
            </p>
          ) : null}
          <nav className="tt-tabs">
            <a href="#menu">Menu</a>
            <a href="#reviews">Reviews</a>
            <a href="#details">Details</a>
          </nav>
          <section id="menu" className="tt-menu">
            <h2>Menu</h2>
            {courses.map((c) => (
              <div key={c} className="tt-course">
                <h3>{c}</h3>
                <ul>
                  {menu.filter((m) => m.course === c).map((m) => (
                    <li key={m.name} data-testid="dish">
                      <span>{m.name}</span>
                      <span className="tt-dots" />
                      <span className="tt-price">{ctx.money(m.price_cents, r.currency)}</span>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </section>
          <section id="reviews" className="tt-reviews">
            <h2>What {reviews.length} diners are saying</h2>
            <ul>
              {reviews.map((v) => (
                <li key={v.id} data-testid="review" data-mine={v.mine ? "1" : "0"}>
                  <div className="tt-review-head">
                    <span className="tt-avatar" aria-hidden="true">{v.author.slice(0, 1)}</span>
                    <div>
                      <strong>{v.author}</strong> <span className="tt-muted">{v.author_city}</span>
                      <div>
                        <Stars x10={v.rating * 10} /> <span className="tt-muted">Dined {ctx.month(v.visited)}</span>
                      </div>
                    </div>
                  </div>
                  <p>{v.body}</p>
                </li>
              ))}
            </ul>
          </section>
        </article>
        <aside className="tt-side">
          <div className="tt-box" data-testid="availability">
            <h2>Make a reservation</h2>
            <form action={`/r/${r.slug}`} method="get" className="tt-mini-form">
              <label>
                Party
                <select name="party" defaultValue={String(s.party)}>
                  {PARTY_SIZES.map((n) => (
                    <option key={n} value={n}>{partyLabel(n)}</option>
                  ))}
                </select>
              </label>
              <label>
                Date
                <input type="date" name="date" defaultValue={s.day} min={ctx.today} />
              </label>
              <button type="submit" className="tt-secondary">Find a time</button>
            </form>
            <p className="tt-muted">{ctx.longDay(s.day)}, {s.party} {s.party === 1 ? "person" : "people"}</p>
            {isLargeParty(s.party) ? (
              <p className="tt-muted" data-testid="large-party-note">
                Parties of more than {MAX_PARTY} book by request: choose a time and TableTime asks {r.name} for you.
              </p>
            ) : null}
            <div className="tt-times tt-times-wrap" data-testid="times" data-times={times.join(",")}>
              {times.length ? times.map((t) => (
                <Link key={t} className="tt-time" href={`/book?r=${r.slug}&date=${s.day}&time=${t}&party=${s.party}`}>{ctx.time(t)}</Link>
              )) : <span className="tt-muted">{openThatDay ? `No tables left for ${s.party} on this day.` : `${r.name} is closed on ${ctx.longDay(s.day).split(",")[0]}s.`}</span>}
            </div>
            {r.late_cancel_cents ? (
              <p className="tt-policy">Card required. Cancelling less than 24 hours ahead costs {ctx.money(r.late_cancel_cents, r.currency)} per guest.</p>
            ) : null}
          </div>
          <div className="tt-box" id="details">
            <h3>Hours</h3>
            <ul className="tt-hours">
              {hours.map((h) => (
                <li key={h.service}>
                  <span>{h.service === "lunch" ? "Lunch" : "Dinner"}</span>
                  <span>{dayRange(h.days)} {ctx.time(h.open)}–{ctx.time(h.close)}</span>
                </li>
              ))}
            </ul>
            <h3>Location</h3>
            <p data-testid="address">{r.address}</p>
            <p className="tt-muted">{r.neighbourhood}</p>
            <h3>Phone</h3>
            <p>{r.phone}</p>
          </div>
        </aside>
      </div>
    </Shell>
  );
}
