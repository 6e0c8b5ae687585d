/** The notice or error a form post came back with (`?notice=` / `?error=`). */
export function Notice({ notice, error }: { notice?: string; error?: string }) {
  if (error)
    return (
      <div className="mb-toast mb-toast-error" role="alert" data-testid="error">
        {error}
      </div>
    );
  if (notice)
    return (
      <div className="mb-toast" role="status" data-testid="notice">
        {notice}
      </div>
    );
  return null;
}

export type Search = Record<string, string | string[] | undefined>;

export function one(v: string | string[] | undefined): string {
  return Array.isArray(v) ? (v[0] ?? "") : (v ?? "");
}
