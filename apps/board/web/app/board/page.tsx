import { errorMessage } from "@persona/platform/http";
import Link from "next/link";
import { BoardColumns } from "@/board/components/BoardColumns";
import { Filters } from "@/board/components/Filters";
import { Notice, Shell } from "@/board/components/Shell";
import { requireUser } from "@/board/lib/auth";
import { STATUSES, STATUS_LABEL, allLabels, currentSprint, listTickets, people, sprints } from "@/board/lib/board";
import { boardContext } from "@/board/lib/context";
import { one, type SearchParams } from "@/board/lib/params";

export const metadata = { title: "Sprint board" };

export default async function BoardPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireUser();
  const sp = await searchParams;
  const ctx = boardContext();
  const all = sprints(ctx.now);
  const wanted = one(sp.sprint);
  const sprint = (wanted && all.find((s) => String(s.id) === wanted)) || currentSprint(ctx.now);
  const values = { assignee: one(sp.assignee), label: one(sp.label), priority: one(sp.priority), q: one(sp.q) };
  const shell = { team: ctx.team, workspace: ctx.workspace, user: user.full_name, active: "board" };
  if (!sprint) {
    return (
      <Shell {...shell}>
        <div className="cn-empty" data-testid="empty">
          <h1>No sprints yet</h1>
          <p>Your team has not planned a sprint on Cairn. Create a ticket to start a backlog.</p>
          <Link href="/new" className="cn-primary">
            New ticket
          </Link>
        </div>
      </Shell>
    );
  }
  const tickets = listTickets({ sprint: sprint.id, ...values });
  const cards = tickets.map((t) => ({ key: t.key, title: t.title, status: t.status, priority: t.priority, type: t.type, points: t.points, assignee: t.assignee, labels: t.labels, project: t.project, due: t.due }));
  const points = tickets.reduce((n, t) => n + (t.points ?? 0), 0);
  const donePoints = tickets.filter((t) => t.status === "done").reduce((n, t) => n + (t.points ?? 0), 0);
  const qs = new URLSearchParams(Object.entries({ sprint: wanted, ...values }).filter(([, v]) => v) as [string, string][]).toString();
  return (
    <Shell {...shell}>
      <header className="cn-head">
        <div>
          <h1 data-testid="sprint-name">{sprint.name}</h1>
          <p className="cn-muted">
            {ctx.day(sprint.start)} – {ctx.day(sprint.end)} · <span data-testid="sprint-state">{sprint.state === "current" ? "Active" : sprint.state === "next" ? "Up next" : "Closed"}</span> · {donePoints} of {points} points done
          </p>
          <p className="cn-goal">
            <b>Goal:</b> {sprint.goal}
          </p>
        </div>
        <nav className="cn-sprint-pick" aria-label="Sprints">
          {all.slice(-4).map((s) => (
            <Link key={s.id} href={`/board?sprint=${s.id}`} className={s.id === sprint.id ? "cn-nav-on" : ""}>
              {s.name}
            </Link>
          ))}
        </nav>
      </header>
      <Notice error={errorMessage(sp)} ok={one(sp.ok)} />
      <Filters action="/board" people={people()} labels={allLabels()} values={values} hidden={{ sprint: wanted }} />
      <BoardColumns columns={STATUSES.map((s) => ({ status: s, label: STATUS_LABEL[s] }))} cards={cards} back={`/board${qs ? `?${qs}` : ""}`} />
    </Shell>
  );
}
