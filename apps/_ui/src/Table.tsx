import type { ReactNode } from "react";

export interface Column<Row> {
  key: string;
  header: ReactNode;
  align?: "left" | "right" | "center";
  /** Cell content; defaults to `row[key]`. */
  render?: (row: Row) => ReactNode;
  className?: string;
}

/** A plain, accessible data table. Rows get `data-row` attributes for tests and styling hooks. */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  empty = "Nothing to show.",
  caption,
  rowProps,
}: {
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string | number;
  empty?: ReactNode;
  caption?: ReactNode;
  rowProps?: (row: Row) => Record<string, string | number | undefined>;
}) {
  return (
    <div className="pui-table-wrap">
      <table className="pui-table">
        {caption ? <caption>{caption}</caption> : null}
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" className={`pui-align-${c.align ?? "left"} ${c.className ?? ""}`.trim()}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr className="pui-table-empty">
              <td colSpan={columns.length}>{empty}</td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={rowKey(row)} {...(rowProps ? rowProps(row) : {})}>
                {columns.map((c) => (
                  <td key={c.key} className={`pui-align-${c.align ?? "left"} ${c.className ?? ""}`.trim()}>
                    {c.render ? c.render(row) : String((row as Record<string, unknown>)[c.key] ?? "")}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

/** Previous / next pager that keeps the current query parameters. */
export function Pagination({
  page,
  pageCount,
  basePath,
  params,
  label,
}: {
  page: number;
  pageCount: number;
  basePath: string;
  params: Record<string, string | undefined>;
  label?: ReactNode;
}) {
  const href = (p: number) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
    if (p > 1) q.set("page", String(p));
    const s = q.toString();
    return s ? `${basePath}?${s}` : basePath;
  };
  return (
    <nav className="pui-pagination" aria-label="Pagination">
      <span className="pui-pagination-label">{label ?? `Page ${page} of ${Math.max(pageCount, 1)}`}</span>
      <span className="pui-pagination-links">
        {page > 1 ? (
          <a className="pui-btn pui-btn-secondary pui-btn-sm" href={href(page - 1)} rel="prev">
            ← Previous
          </a>
        ) : (
          <span className="pui-btn pui-btn-secondary pui-btn-sm is-disabled" aria-disabled="true">
            ← Previous
          </span>
        )}
        {page < pageCount ? (
          <a className="pui-btn pui-btn-secondary pui-btn-sm" href={href(page + 1)} rel="next">
            Next →
          </a>
        ) : (
          <span className="pui-btn pui-btn-secondary pui-btn-sm is-disabled" aria-disabled="true">
            Next →
          </span>
        )}
      </span>
    </nav>
  );
}
