// Daybook end to end, in headless Chromium against the production server.
//
// APP_FACTS (tests/apps/calendar/test_web.py) holds values computed from the persona's world: next week's
// events, the month's chip count, a recurring meeting's dates, an invitation, a flight. Reads first,
// then the writes; .ics exports are saved to facts.out_dir for the pytest side to parse.
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { after, before, test } from "node:test";
import { facts as readFacts, openSignedIn, screenshot } from "@persona/platform/testing";

const facts = readFacts();
const BASE = facts.base_url;
const HOST = new URL(BASE).hostname;
let browser;
let page;

before(async () => {
  ({ browser, page } = await openSignedIn("db_session", facts.session_token, { timeout: 20_000 }));
});

after(async () => {
  await browser?.close();
});

const text = async (loc) => (await loc.first().innerText()).trim();

async function chips(selector = '[data-testid="event-chip"]') {
  return page.locator(selector).evaluateAll((els) => {
    const seen = new Map();
    for (const e of els) if (!seen.has(e.dataset.key)) seen.set(e.dataset.key, { title: e.dataset.title, start: e.dataset.start, end: e.dataset.end, text: e.innerText });
    return [...seen.values()];
  });
}

/**
 * A request to the app by its host name over node:http (fetch drops a Host header), signed in
 * unless `cookie` is false. Resolves to {status, headers, body (Buffer), json()}.
 */
function api(method, pathname, { data, cookie = true, headers = {} } = {}) {
  const payload = data === undefined ? null : Buffer.from(JSON.stringify(data));
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: Number(process.env.SITE_PORT),
        path: pathname,
        method,
        headers: {
          Host: HOST,
          ...(cookie ? { Cookie: `db_session=${facts.session_token}` } : {}),
          ...(payload ? { "Content-Type": "application/json", "Content-Length": payload.length } : {}),
          ...headers,
        },
      },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode, headers: res.headers, body, json: () => JSON.parse(body.toString("utf8")) });
        });
      },
    );
    req.on("error", reject);
    req.end(payload ?? undefined);
  });
}

async function occurrencesJson(from, to) {
  const r = await api("GET", `/api/events?from=${from}&to=${to}`);
  assert.equal(r.status, 200);
  return r.json().occurrences;
}

function plusDays(date, n) {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

const NW = facts.next_week;

test("next week's events (titles and times) are the world's", async () => {
  await page.goto(`${BASE}/week?date=${NW.start}`);
  assert.match(await text(page.locator('[data-testid="range-title"]')), /–/);
  await screenshot(page, "week-next");
  const got = (await chips()).map((c) => [c.title, c.start, c.end]).sort((a, b) => (a[1] + a[0]).localeCompare(b[1] + b[0]));
  const want = [...NW.events].sort((a, b) => (a[1] + a[0]).localeCompare(b[1] + b[0]));
  assert.deepEqual(got, want);
  const all = await chips();
  for (const [title, label] of NW.labels) {
    assert.ok(all.some((c) => c.title === title && c.text.includes(label)), `${title} shows ${label}`);
  }
});

test("the month view shows one chip per event per day of the world's month", async () => {
  await page.goto(`${BASE}/month?date=${facts.month.date}`);
  await screenshot(page, "month");
  const total = await page.locator('[data-testid="month-cell"][data-in-month="1"]').evaluateAll((cells) =>
    cells.reduce((n, c) => n + c.querySelectorAll('[data-testid="month-chip"]').length + Number(c.querySelector('[data-testid="month-more"]')?.dataset.more ?? 0), 0),
  );
  assert.equal(total, facts.month.chips);
});

test("day and schedule views navigate and list the same day", async () => {
  await page.goto(`${BASE}/day?date=${NW.start}`);
  await page.click('[data-testid="next"]');
  await page.waitForURL(new RegExp(`date=${plusDays(NW.start, 1)}`));
  const dayChips = (await chips()).map((c) => c.title).sort();
  const want = NW.events.filter((e) => e[1].slice(0, 10) <= plusDays(NW.start, 1) && (e[2].length === 10 ? e[2] > plusDays(NW.start, 1) : e[2].slice(0, 10) >= plusDays(NW.start, 1))).map((e) => e[0]).sort();
  assert.deepEqual(dayChips, want);
  await page.goto(`${BASE}/agenda?date=${NW.start}`);
  await screenshot(page, "schedule");
  assert.ok((await page.locator('[data-testid="agenda-item"]').count()) >= NW.events.length);
  await page.click('[data-testid="today"]');
  await page.waitForURL(/agenda\?date=/);
});

test("a recurring meeting: its RRULE expands to the world's dates; the page names the rule", async () => {
  const r = await api("GET", `/api/events/${facts.series.id}/occurrences`);
  const body = r.json();
  assert.match(body.rrule, /^FREQ=/);
  assert.deepEqual(body.occurrences.map((o) => o.start.slice(0, 10)), facts.series.dates);
  await page.goto(`${BASE}/events/${facts.series.id}?occ=${encodeURIComponent(body.occurrences[0].recurrenceId)}`);
  assert.equal(await text(page.locator('[data-testid="event-title"]')), facts.series.title);
  assert.ok((await text(page.locator('[data-testid="event-rule"]'))).length > 5);
  await screenshot(page, "series-event");
  const ics = await api("GET", `/events/${facts.series.id}/ics`);
  assert.match(ics.headers["content-type"], /text\/calendar/);
  fs.writeFileSync(path.join(facts.out_dir, "series.ics"), ics.body);
});

test("a flight shows in the persona's zone with both airports' local times; exports parse", async () => {
  await page.goto(`${BASE}/events/${facts.flight.id}`);
  await screenshot(page, "flight");
  const when = await text(page.locator('[data-testid="event-when"]'));
  assert.ok(when.includes(facts.flight.local_start) && when.includes(facts.flight.local_end), when);
  assert.match(await text(page.locator('[data-testid="event-zones"]')), /Local times/);
  fs.writeFileSync(path.join(facts.out_dir, "flight.ics"), (await api("GET", `/events/${facts.flight.id}/ics`)).body);
  fs.writeFileSync(path.join(facts.out_dir, "all.ics"), (await api("GET", "/calendar.ics")).body);
});

test("create, edit, move and delete persist", async () => {
  const wed = plusDays(NW.start, 3);
  await page.goto(`${BASE}/events/new?date=${wed}&time=15:00`);
  await page.fill("#title", "Dentist follow-up");
  await page.fill("#location", "Hawthorne Family Dental");
  await page.click('[data-testid="save"]');
  await page.waitForURL(/\/events\/[0-9a-f-]+\?notice=created/);
  const id = new URL(page.url()).pathname.split("/").pop();
  assert.equal(await text(page.locator('[data-testid="event-title"]')), "Dentist follow-up");
  await page.click('[data-testid="edit-this"]');
  await page.fill("#title", "Dentist follow-up (moved)");
  await page.click('[data-testid="save"]');
  await page.waitForURL(/notice=saved/);
  assert.equal(await text(page.locator('[data-testid="event-title"]')), "Dentist follow-up (moved)");
  const thu = plusDays(NW.start, 4);
  await page.fill('[data-testid="move-form"] input[name="date"]', thu);
  await page.fill('[data-testid="move-form"] input[name="time"]', "08:00");
  await page.click('[data-testid="move-form"] button');
  await page.waitForURL(/notice=moved/);
  const occ = (await occurrencesJson(thu, plusDays(thu, 1))).find((o) => o.eventId === id);
  assert.equal(occ.start, `${thu}T08:00:00`);
  assert.equal(occ.end, `${thu}T09:00:00`);
  await screenshot(page, "after-move");

  await page.goto(`${BASE}/events/new?date=${wed}&time=12:00`);
  await page.fill("#title", "Throwaway");
  await page.click('[data-testid="save"]');
  await page.waitForURL(/notice=created/);
  const gone = new URL(page.url()).pathname;
  await page.click('[data-testid="delete"]');
  await page.waitForURL(/notice=deleted/);
  const r = await page.goto(`${BASE}${gone}`);
  assert.equal(r.status(), 404);
});

test("bad input is refused with a clear message and changes nothing", async () => {
  const day = plusDays(NW.start, 2);
  const before = (await occurrencesJson(day, plusDays(day, 1))).length;
  const base = { title: "Ok", date: day, start_time: "10:00", end_date: day, end_time: "11:00", calendar: "personal" };
  const cases = [
    [{ ...base, title: "   " }, /title/i, "title"],
    [{ ...base, title: "x".repeat(201) }, /too long/i, "title"],
    [{ ...base, end_time: "09:00" }, /end after it starts/i, "end_time"],
    [{ ...base, date: "2026-02-30" }, /real calendar date/i, "date"],
    [{ ...base, start_time: "25:00" }, /HH:MM/, "start_time"],
    [{ ...base, calendar: "nope" }, /calendars/i, "calendar"],
    [{ ...base, timezone: "Mars/Olympus" }, /time zone/i, "timezone"],
  ];
  for (const [body, msg, field] of cases) {
    const r = await api("POST", "/api/events", { data: body });
    assert.equal(r.status, 400, JSON.stringify(body).slice(0, 80));
    const j = r.json();
    assert.match(j.error, msg);
    assert.equal(j.field, field);
  }
  // The form shows the message and keeps what was typed.
  await page.goto(`${BASE}/events/new?date=${day}&time=10:00`);
  await page.fill("#title", "Late dinner");
  await page.fill("#end_time", "09:00");
  await page.click('[data-testid="save"]');
  await page.waitForURL(/error=/);
  assert.match(await text(page.locator('[data-testid="form-error"]')), /must end after it starts/);
  assert.equal(await page.inputValue("#title"), "Late dinner");
  await screenshot(page, "form-error");
  const bad = await api("POST", `/api/events/${facts.series.id}/move`, { data: { occ: "2020-01-01T09:30:00", date: day, time: "10:00" } });
  assert.equal(bad.status, 404);
  assert.equal((await occurrencesJson(day, plusDays(day, 1))).length, before);
});

test("a title with HTML is stored verbatim and rendered as text", async () => {
  const title = '<b>Lunch</b> & "friends" <script>x</script>';
  await page.goto(`${BASE}/events/new?date=${plusDays(NW.start, 5)}&time=12:00`);
  await page.fill("#title", title);
  await page.click('[data-testid="save"]');
  await page.waitForURL(/notice=created/);
  assert.equal(await text(page.locator('[data-testid="event-title"]')), title);
  assert.equal(await page.locator('[data-testid="event-title"] b, [data-testid="event-title"] script').count(), 0);
});

test("moving one stand-up (edit this event) writes an override; the series keeps its other days", async () => {
  const m = facts.move;
  await page.goto(`${BASE}/events/${m.series}/edit?occ=${encodeURIComponent(m.recurrence_id)}&scope=this`);
  await page.fill("#start_time", "10:00");
  await page.fill("#end_time", m.start.slice(11, 13) === "10" ? "10:15" : "10:15");
  await page.click('[data-testid="save"]');
  await page.waitForURL(/notice=saved/);
  const day = m.recurrence_id.slice(0, 10);
  const list = (await occurrencesJson(day, plusDays(day, 2))).filter((o) => o.eventId === m.series);
  assert.equal(list[0].start, m.start);
  assert.equal(list[1].start.slice(11), m.recurrence_id.slice(11), "the next day is unchanged");
});

test("edit all events of a new weekly series", async () => {
  const first = facts.lesson.first;
  await page.goto(`${BASE}/events/new?date=${first.slice(0, 10)}&time=17:00`);
  await page.fill("#title", "Piano lesson");
  await page.fill("#end_time", "17:30");
  await page.selectOption("#repeat", "weekly");
  await page.click('[data-testid="save"]');
  await page.waitForURL(/notice=created/);
  const id = new URL(page.url()).pathname.split("/").pop();
  await page.goto(`${BASE}/events/${id}/edit?scope=all`);
  await page.fill("#location", "Alder Street Music School");
  await page.click('[data-testid="save"]');
  await page.waitForURL(/notice=saved/);
  const later = plusDays(first.slice(0, 10), 14);
  const occ = (await occurrencesJson(later, plusDays(later, 1))).find((o) => o.eventId === id);
  assert.equal(occ.start, `${later}T17:00:00`);
  assert.equal(occ.location, "Alder Street Music School");
});

test("a series ending after N times, with two reminders and its own colour", async () => {
  const tue = plusDays(NW.start, 2);
  await page.goto(`${BASE}/events/new?date=${tue}&time=07:00`);
  await page.fill("#title", "Stretch break");
  await page.fill("#end_time", "07:20");
  await page.selectOption("#repeat", "daily");
  await page.check("#ends-after");
  await page.fill("#count", "3");
  await page.selectOption("#reminder", "10");
  await page.selectOption("#reminder2", "1440");
  await page.check("#color-tomato");
  const hex = await page.locator("#color-tomato").evaluate((el) => el.style.getPropertyValue("--c"));
  await screenshot(page, "form-repeat-end");
  await page.click('[data-testid="save"]');
  await page.waitForURL(/notice=created/);
  const id = new URL(page.url()).pathname.split("/").pop();
  assert.match(await text(page.locator('[data-testid="event-rule"]')), /Daily, 3 times/);
  assert.deepEqual(await page.locator('[data-testid="event-reminder"]').evaluateAll((els) => els.map((e) => e.dataset.minutes)), ["1440", "10"]);
  assert.match(await text(page.locator('[data-testid="event-reminders"]')), /1 day before[\s\S]*10 minutes before/);
  await screenshot(page, "event-repeat-end");
  await page.goto(`${BASE}/week?date=${NW.start}`);
  await screenshot(page, "week-repeat-end");
  const mine = await page.locator('[data-testid="event-chip"][data-title="Stretch break"]').evaluateAll((els) => els.map((e) => [e.dataset.start, e.style.getPropertyValue("--c")]));
  assert.deepEqual(mine, [0, 1, 2].map((i) => [`${plusDays(tue, i)}T07:00:00`, hex]), "exactly three occurrences, in tomato");
  const later = (await occurrencesJson(plusDays(tue, 3), plusDays(tue, 40))).filter((o) => o.eventId === id);
  assert.equal(later.length, 0, "nothing after the third");
  fs.writeFileSync(path.join(facts.out_dir, "repeat-end.ics"), (await api("GET", `/events/${id}/ics`)).body);
  // Refused: COUNT 0 or over 730, an end before the start, an unknown colour, a reminder twice, six reminders.
  const base = { title: "Nope", date: tue, start_time: "09:00", end_date: tue, end_time: "10:00", repeat: "daily", calendar: "personal" };
  for (const [body, field] of [
    [{ ...base, ends: "after", count: "0" }, "count"],
    [{ ...base, ends: "after", count: "731" }, "count"],
    [{ ...base, ends: "on", until: plusDays(tue, -1) }, "until"],
    [{ ...base, color: "chartreuse" }, "color"],
    [{ ...base, reminder: "10", reminder2: "10" }, "reminders"],
    [{ ...base, reminders: "0,5,10,15,30,60" }, "reminders"],
  ]) {
    const r = await api("POST", "/api/events", { data: body });
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.equal(r.json().field, field);
  }
  assert.equal((await occurrencesJson(tue, plusDays(tue, 1))).filter((o) => o.title === "Nope").length, 0);
});

test("accepting an invitation updates the RSVP (the reply goes to mail when it is served)", async (t) => {
  if (!facts.invitation) return t.skip("no upcoming invitation in this world");
  await page.goto(`${BASE}/events/${facts.invitation.id}`);
  const me = page.locator('[data-testid="guest"]', { hasText: "(you)" });
  assert.equal(await me.getAttribute("data-partstat"), "NEEDS-ACTION");
  await page.click('[data-testid="rsvp-yes"]');
  await page.waitForURL(/notice=rsvp/);
  assert.equal(await page.locator('[data-testid="guest"]', { hasText: "(you)" }).getAttribute("data-partstat"), "ACCEPTED");
  const notice = await text(page.locator('[data-testid="notice"]'));
  assert.match(notice, facts.mail_served ? /sent a reply/ : /could not be sent/);
  await screenshot(page, "invitation-accepted");
});

test("internal routes refuse callers without the key; sign-in works", async () => {
  for (const p of ["/api/internal/rsvp", "/api/internal/events"]) {
    const r = await api("POST", p, { data: { uid: "x", partstat: "ACCEPTED" } });
    assert.equal(r.status, 403);
  }
  const anon = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const p = await anon.newPage();
  await p.goto(`${BASE}/week`);
  assert.equal(new URL(p.url()).pathname, "/login");
  await p.fill("#username", facts.username);
  await p.fill("#password", "wrong");
  await p.click('[data-testid="login-form"] button');
  await p.waitForURL(/error=/);
  await p.fill("#username", facts.username);
  await p.fill("#password", facts.password);
  await p.click('[data-testid="login-form"] button');
  await p.waitForURL(/\/week/);
  await anon.close();
});
