import Link from "next/link";
import { Filters } from "@/board/components/Filters";
import { Shell } from "@/board/components/Shell";
import { requireUser } from "@/board/lib/auth";
import { STATUSES, STATUS_LABEL, allLabels, listTickets, people, sprints } from "@/board/lib/board";
import { boardContext } from "@/board/lib/context";
import { one, type SearchParams } from "@/board/lib/params";

export const metadata = { title: "All tickets" };

export default async function SearchPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireUser();
  const sp = await searchParams;
  const ctx = boardContext();
  const status = (STATUSES as readonly string[]).includes(one(sp.status)) ? one(sp.status) : "";
  const values = { assignee: one(sp.assignee), label: one(sp.label), priority: one(sp.priority), q: one(sp.q) };
  const names = new Map(sprints(ctx.now).map((s) => [s.id, s.name]));
  const rows = listTickets({ ...values, status }).sort((a, b) => b.number - a.number);
  const shown = rows.slice(0, 200);
  return (
    <Shell team={ctx.team} workspace={ctx.workspace} user={user.full_name} active="search">
      <h1>All tickets</h1>
      <Filters action="/search" people={people()} labels={allLabels()} values={values} hidden={{ status }} />
      <p className="cn-muted" data-testid="result-count">
        {rows.length} {rows.length === 1 ? "ticket" : "tickets"}
        {values.q ? ` matching “${values.q}”` : ""}
        {rows.length > shown.length ? ` (newest ${shown.length} shown)` : ""}
      </p>
      <table className="cn-table">
        <thead>
          <tr>
            <th>Key</th>
            <th>Title</th>
            <th>Project</th>
            <th>Status</th>
            <th>Assignee</th>
            <th>Sprint</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((t) => (
            <tr key={t.key} data-testid="row" data-key={t.key}>
              <td>
                <Link href={`/t/${t.key}`}>{t.key}</Link>
              </td>
              <td>{t.title}</td>
              <td>{t.project}</td>
              <td>{STATUS_LABEL[t.status]}</td>
              <td>{t.assignee ?? "Unassigned"}</td>
              <td>{t.sprint_id ? names.get(t.sprint_id) : "Backlog"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Shell>
  );
}
