import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Notice, Shell } from "@/board/components/Shell";
import { requireUser } from "@/board/lib/auth";
import { POINTS, PRIORITIES, PRIORITY_LABEL, STATUSES, STATUS_LABEL, TYPES, TYPE_LABEL, people, projects, sprints, ticket } from "@/board/lib/board";
import { boardContext } from "@/board/lib/context";
import { one, type SearchParams } from "@/board/lib/params";

export async function generateMetadata({ params }: { params: Promise<{ key: string }> }) {
  return { title: decodeURIComponent((await params).key).toUpperCase().slice(0, 40) };
}

const FIELD_LABEL: Record<string, string> = {
  created: "created the ticket",
  status: "changed the status",
  sprint: "moved it to another sprint",
  title: "renamed it",
  description: "edited the description",
  assignee: "changed the assignee",
  priority: "changed the priority",
  type: "changed the type",
  labels: "changed the labels",
  points: "changed the story points",
  due: "changed the due date",
  project: "moved it to another project",
  comment: "commented",
  subtask: "updated a sub-task",
};
const show = (field: string, v: string | null) => (v == null ? "none" : field === "status" ? (STATUS_LABEL[v as keyof typeof STATUS_LABEL] ?? v) : field === "priority" ? (PRIORITY_LABEL[v] ?? v) : v);

export default async function TicketPage({ params, searchParams }: { params: Promise<{ key: string }>; searchParams: SearchParams }) {
  const user = await requireUser();
  const { key } = await params;
  const sp = await searchParams;
  const ctx = boardContext();
  const t = ticket(decodeURIComponent(key));
  if (!t) notFound();
  const team = people();
  const open = sprints(ctx.now).filter((s) => s.state !== "past");
  return (
    <Shell team={ctx.team} workspace={ctx.workspace} user={user.full_name} active="">
      <p className="cn-crumbs">
        <Link href="/board">Board</Link> / {t.project} / <span data-testid="ticket-key">{t.key}</span>
      </p>
      <Notice error={errorMessage(sp)} ok={one(sp.ok)} />
      <div className="cn-detail" data-testid="ticket" data-key={t.key} data-status={t.status}>
        <div className="cn-detail-main">
          <h1 data-testid="ticket-title">{t.title}</h1>
          <div className="cn-description" data-testid="ticket-description">
            {t.description.split("\n").map((line, i) => (line.startsWith("- ") ? <li key={i}>{line.slice(2)}</li> : line ? <p key={i}>{line}</p> : null))}
          </div>
          {t.subtasks.length ? (
            <section className="cn-subtasks">
              <h2>Sub-tasks</h2>
              <ul>
                {t.subtasks.map((s) => (
                  <li key={s.id} data-testid="subtask" data-done={s.done}>
                    <form action={`/api/tickets/${t.key}/subtasks`} method="post">
                      <input type="hidden" name="_idem" value={idempotencyToken()} />
                      <input type="hidden" name="position" value={s.position} />
                      <input type="hidden" name="done" value={s.done ? "0" : "1"} />
                      <button type="submit" className="cn-check" aria-label={s.done ? `Reopen ${s.title}` : `Complete ${s.title}`}>
                        {s.done ? "☑" : "☐"}
                      </button>
                      <span className={s.done ? "cn-done" : ""}>{s.title}</span>
                    </form>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <section id="comments" className="cn-comments">
            <h2>Comments ({t.comments.length})</h2>
            {t.comments.map((c) => (
              <article key={c.id} className="cn-comment" data-testid="comment">
                <header>
                  <b>{c.author}</b> <time dateTime={c.created_at}>{ctx.stamp(c.created_at)}</time>
                </header>
                <p>{c.body}</p>
              </article>
            ))}
            <form action={`/api/tickets/${t.key}/comments`} method="post" className="cn-form" data-testid="comment-form">
              <input type="hidden" name="_idem" value={idempotencyToken()} />
              <label>
                Add a comment
                <textarea name="body" rows={3} required maxLength={5000} />
              </label>
              <button type="submit" className="cn-primary">
                Comment
              </button>
            </form>
          </section>
          <section className="cn-activity">
            <h2>Activity</h2>
            <ol>
              {t.activity.map((a) => (
                <li key={a.id} data-testid="activity" data-field={a.field}>
                  <time dateTime={a.at}>{ctx.stamp(a.at)}</time> <b>{a.actor}</b> {FIELD_LABEL[a.field] ?? a.field}
                  {a.field !== "description" && a.field !== "created" && a.field !== "comment" && (a.old != null || a.new != null) ? (
                    <>
                      : <s>{show(a.field, a.old)}</s> → <span>{show(a.field, a.new)}</span>
                    </>
                  ) : null}
                </li>
              ))}
            </ol>
          </section>
        </div>
        <aside className="cn-detail-side">
          <form action={`/api/tickets/${t.key}/status`} method="post" className="cn-form cn-status-form">
            <input type="hidden" name="_idem" value={idempotencyToken()} />
            <input type="hidden" name="back" value={`/t/${t.key}`} />
            <label>
              Status
              <select name="status" defaultValue={t.status} data-testid="status-select">
                {STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {STATUS_LABEL[s]}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit">Move</button>
          </form>
          <form action={`/api/tickets/${t.key}`} method="post" className="cn-form" data-testid="edit-form">
            <input type="hidden" name="_idem" value={idempotencyToken()} />
            <label>
              Title
              <input name="title" defaultValue={t.title} required maxLength={200} />
            </label>
            <label>
              Assignee
              <select name="assignee" defaultValue={t.assignee_id ? String(t.assignee_id) : ""}>
                <option value="">Unassigned</option>
                {team.map((p) => (
                  <option key={p.id} value={String(p.id)}>
                    {p.is_me ? `${p.name} (me)` : p.name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Priority
              <select name="priority" defaultValue={t.priority}>
                {PRIORITIES.map((p) => (
                  <option key={p} value={p}>
                    {PRIORITY_LABEL[p]}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Type
              <select name="type" defaultValue={t.type}>
                {TYPES.map((p) => (
                  <option key={p} value={p}>
                    {TYPE_LABEL[p]}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Story points
              <select name="points" defaultValue={t.points == null ? "" : String(t.points)}>
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
              <input name="labels" defaultValue={t.labels.join(", ")} />
            </label>
            <label>
              Due date
              <input name="due" type="date" defaultValue={t.due ?? ""} />
            </label>
            <label>
              Sprint
              <select name="sprint" defaultValue={t.sprint_id && open.some((s) => s.id === t.sprint_id) ? String(t.sprint_id) : t.sprint_id ? "keep" : "backlog"}>
                {t.sprint_id && !open.some((s) => s.id === t.sprint_id) ? <option value="keep">{t.sprint} (closed)</option> : null}
                <option value="backlog">Backlog</option>
                {open.map((s) => (
                  <option key={s.id} value={String(s.id)}>
                    {s.name} ({s.state === "current" ? "active" : "next"})
                  </option>
                ))}
              </select>
            </label>
            <label>
              Project
              <select name="project" defaultValue={String(t.project_id)}>
                {projects().map((p) => (
                  <option key={p.id} value={String(p.id)}>
                    {p.name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Description
              <textarea name="description" defaultValue={t.description} rows={6} maxLength={10000} />
            </label>
            <button type="submit" className="cn-primary">
              Save changes
            </button>
          </form>
          <dl className="cn-facts">
            <dt>Reporter</dt>
            <dd>{t.reporter}</dd>
            <dt>Created</dt>
            <dd>{ctx.stamp(t.created_at)}</dd>
            <dt>Updated</dt>
            <dd>{ctx.stamp(t.updated_at)}</dd>
          </dl>
        </aside>
      </div>
    </Shell>
  );
}
