import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import Link from "next/link";
import { Filters } from "@/board/components/Filters";
import { Notice, Shell } from "@/board/components/Shell";
import { requireUser } from "@/board/lib/auth";
import { STATUS_LABEL, allLabels, listTickets, people, sprints, type TicketRow } from "@/board/lib/board";
import { boardContext } from "@/board/lib/context";
import { one, type SearchParams } from "@/board/lib/params";

export const metadata = { title: "Backlog & sprints" };

function Rows({ tickets, targets, back }: { tickets: TicketRow[]; targets: { value: string; label: string }[]; back: string }) {
  if (!tickets.length) return <p className="cn-muted">No tickets.</p>;
  return (
    <table className="cn-table">
      <thead>
        <tr>
          <th>Key</th>
          <th>Title</th>
          <th>Status</th>
          <th>Assignee</th>
          <th>Priority</th>
          <th>Points</th>
          <th>Move to</th>
        </tr>
      </thead>
      <tbody>
        {tickets.map((t) => (
          <tr key={t.key} data-testid="row" data-key={t.key}>
            <td>
              <Link href={`/t/${t.key}`}>{t.key}</Link>
            </td>
            <td>{t.title}</td>
            <td>{STATUS_LABEL[t.status]}</td>
            <td>{t.assignee ?? "Unassigned"}</td>
            <td>{t.priority}</td>
            <td>{t.points ?? ""}</td>
            <td>
              <form action={`/api/tickets/${t.key}`} method="post" className="cn-inline">
                <input type="hidden" name="_idem" value={idempotencyToken()} />
                <input type="hidden" name="back" value={back} />
                <select name="sprint" aria-label={`Sprint for ${t.key}`} defaultValue="">
                  <option value="" disabled>
                    Choose…
                  </option>
                  {targets.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </select>
                <button type="submit">Move</button>
              </form>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default async function BacklogPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireUser();
  const sp = await searchParams;
  const ctx = boardContext();
  const all = sprints(ctx.now);
  const open = all.filter((s) => s.state !== "past");
  const values = { assignee: one(sp.assignee), label: one(sp.label), priority: one(sp.priority), q: one(sp.q) };
  const targets = [...open.map((s) => ({ value: String(s.id), label: s.name })), { value: "backlog", label: "Backlog" }];
  const past = all.filter((s) => s.state === "past").slice(-1);
  return (
    <Shell team={ctx.team} workspace={ctx.workspace} user={user.full_name} active="backlog">
      <h1>Backlog &amp; sprints</h1>
      <Notice error={errorMessage(sp)} ok={one(sp.ok)} />
      <Filters action="/backlog" people={people()} labels={allLabels()} values={values} />
      {[...open, ...past].length === 0 ? <p className="cn-muted" data-testid="empty">No sprints yet.</p> : null}
      {open.map((s) => {
        const rows = listTickets({ sprint: s.id, ...values });
        return (
          <section key={s.id} className="cn-sprint" data-testid="sprint" data-sprint={s.id} data-state={s.state}>
            <h2>
              {s.name} <small>{s.state === "current" ? "Active" : "Up next"} · {ctx.day(s.start)} – {ctx.day(s.end)} · {rows.length} tickets</small>
            </h2>
            <p className="cn-goal">{s.goal}</p>
            <Rows tickets={rows} targets={targets.filter((o) => o.value !== String(s.id))} back="/backlog" />
          </section>
        );
      })}
      <section className="cn-sprint" data-testid="sprint" data-sprint="backlog" data-state="backlog">
        <h2>Backlog</h2>
        <Rows tickets={listTickets({ sprint: "backlog", ...values })} targets={targets.filter((o) => o.value !== "backlog")} back="/backlog" />
      </section>
    </Shell>
  );
}
