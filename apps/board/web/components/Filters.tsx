import { PRIORITIES, PRIORITY_LABEL, type Person } from "@/board/lib/board";

/** The filter bar (GET form): assignee, label, priority and words; `hidden` keeps other parameters. */
export function Filters({ action, people, labels, values, hidden = {} }: { action: string; people: Person[]; labels: string[]; values: Record<string, string>; hidden?: Record<string, string> }) {
  return (
    <form action={action} className="cn-filters" data-testid="filters">
      {Object.entries(hidden).map(([k, v]) => (v ? <input key={k} type="hidden" name={k} value={v} /> : null))}
      <label>
        Assignee
        <select name="assignee" defaultValue={values.assignee ?? ""}>
          <option value="">Anyone</option>
          <option value="none">Unassigned</option>
          {people.map((p) => (
            <option key={p.id} value={String(p.id)}>
              {p.is_me ? `${p.name} (me)` : p.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Label
        <select name="label" defaultValue={values.label ?? ""}>
          <option value="">Any</option>
          {labels.map((l) => (
            <option key={l} value={l}>
              {l}
            </option>
          ))}
        </select>
      </label>
      <label>
        Priority
        <select name="priority" defaultValue={values.priority ?? ""}>
          <option value="">Any</option>
          {PRIORITIES.map((p) => (
            <option key={p} value={p}>
              {PRIORITY_LABEL[p]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Words
        <input name="q" defaultValue={values.q ?? ""} placeholder="Key or words" />
      </label>
      <button type="submit">Filter</button>
    </form>
  );
}
