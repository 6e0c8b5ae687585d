/** Fail fast at server start when the database is not configured, with a message that says why. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const fs = await import("node:fs");
  const file = process.env.DATABASE_PATH;
  if (!file || !fs.existsSync(file)) {
    console.error(
      file
        ? `Larkspur Bank: DATABASE_PATH=${file} does not exist. The database is created only by the Python builder (apps/bank/seed.py).`
        : "Larkspur Bank: DATABASE_PATH is not set. Point it at the seeded bank.sqlite written by the Python builder (apps/bank/seed.py).",
    );
    process.exit(1);
  }
}
