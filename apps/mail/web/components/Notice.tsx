import { Alert } from "@persona/ui";

/** The notice or error a form post came back with (`?notice=` / `?error=`). */
export function Notice({ notice, error }: { notice?: string; error?: string }) {
  if (error)
    return (
      <Alert tone="error" className="mb-toast mb-toast-error" data-testid="error">
        {error}
      </Alert>
    );
  if (notice)
    return (
      <Alert tone="info" className="mb-toast" data-testid="notice">
        {notice}
      </Alert>
    );
  return null;
}

export type Search = Record<string, string | string[] | undefined>;

export function one(v: string | string[] | undefined): string {
  return Array.isArray(v) ? (v[0] ?? "") : (v ?? "");
}
