import type { DiningContext } from "./context";
import type { User } from "./auth";
import { addDays } from "@persona/platform/clock";
import { cities, isDay, isTime, MAX_LARGE_PARTY } from "./tabletime";
import { one } from "./params";

/** The search the pages start from: the diner's city, today (tomorrow after 21:00), 19:00, two people; URL values
 * override it when they are valid. */
export function searchDefaults(ctx: DiningContext, user: User, sp: Record<string, string | string[] | undefined>) {
  const all = cities().map((c) => c.city);
  const cityIn = one(sp.city);
  const city = all.includes(cityIn) ? cityIn : all.includes(user.home_city) ? user.home_city : all[0];
  const late = ctx.now.slice(11, 16) >= "21:00";
  const fallbackDay = late ? addDays(ctx.now, 1).slice(0, 10) : ctx.today;
  const dayIn = one(sp.date);
  const day = isDay(dayIn) && dayIn >= ctx.today ? dayIn : fallbackDay;
  const timeIn = one(sp.time);
  const time = isTime(timeIn) ? timeIn : "19:00";
  const partyIn = Number(one(sp.party));
  const party = Number.isInteger(partyIn) && partyIn >= 1 && partyIn <= MAX_LARGE_PARTY ? partyIn : 2;
  const notice = cityIn && !all.includes(cityIn) ? `TableTime doesn't list restaurants in “${cityIn.slice(0, 60)}” yet; showing ${city}.` : "";
  return { cities: all, city, day, time, party, q: one(sp.q).slice(0, 100), cuisine: one(sp.cuisine), hood: one(sp.hood), notice };
}
