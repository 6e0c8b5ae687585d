import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import { Notice, Shell } from "@/board/components/Shell";
import { requireUser } from "@/board/lib/auth";
import { POINTS, PRIORITIES, PRIORITY_LABEL, TYPES, TYPE_LABEL, people, projects, sprints } from "@/board/lib/board";
import { boardContext } from "@/board/lib/context";
import type { SearchParams } from "@/board/lib/params";

export const metadata = { title: "New ticket" };

export default async function NewTicket({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireUser();
  const sp = await searchParams;
  const ctx = boardContext();
  const open = sprints(ctx.now).filter((s) => s.state !== "past");
  const list = projects();
  return (
    <Shell team={ctx.team} workspace={ctx.workspace} user={user.full_name} active="new">
      <h1>New ticket</h1>
      <Notice error={errorMessage(sp)} />
      {list.length === 0 ? (
        <p className="cn-muted" data-testid="empty">
          There are no projects on this board yet, so there is nowhere to file a ticket.
        </p>
      ) : (
        <form action="/api/tickets" method="post" className="cn-form cn-new" data-testid="new-form">
          <input type="hidden" name="_idem" value={idempotencyToken()} />
          <label>
            Title
            <input name="title" required maxLength={200} />
          </label>
          <label>
            Project
            <select name="project" defaultValue={String(list.at(-1)!.id)}>
              {list.map((p) => (
                <option key={p.id} value={String(p.id)}>
                  {p.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Type
            <select name="type" defaultValue="task">
              {TYPES.map((t) => (
                <option key={t} value={t}>
                  {TYPE_LABEL[t]}
                </option>
              ))}
            </select>
          </label>
          <label>
            Assignee
            <select name="assignee" defaultValue={String(user.person_id)}>
              <option value="">Unassigned</option>
              {people().map((p) => (
                <option key={p.id} value={String(p.id)}>
                  {p.is_me ? `${p.name} (me)` : p.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Priority
            <select name="priority" defaultValue="medium">
              {PRIORITIES.map((p) => (
                <option key={p} value={p}>
                  {PRIORITY_LABEL[p]}
                </option>
              ))}
            </select>
          </label>
          <label>
            Story points
            <select name="points" defaultValue="">
              <option value="">None</option>
              {POINTS.map((p) => (
                <option key={p} value={String(p)}>
                  {p}
                </option>
              ))}
            </select>
          </label>
          <label>
            Labels (comma separated)
            <input name="labels" />
          </label>
          <label>
            Due date
            <input name="due" type="date" />
          </label>
          <label>
            Sprint
            <select name="sprint" defaultValue="backlog">
              <option value="backlog">Backlog</option>
              {open.map((s) => (
                <option key={s.id} value={String(s.id)}>
                  {s.name} ({s.state === "current" ? "active" : "next"})
                </option>
              ))}
            </select>
          </label>
          <label>
            Description
            <textarea name="description" rows={6} maxLength={10000} />
          </label>
          <button type="submit" className="cn-primary">
            Create ticket
          </button>
        </form>
      )}
    </Shell>
  );
}
