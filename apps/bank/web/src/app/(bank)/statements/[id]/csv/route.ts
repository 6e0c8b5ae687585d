import type { NextRequest } from "next/server";
import { getStatement } from "@/lib/bank";
import { bankContext } from "@/lib/context";
import { requestUser, seeOther } from "@/lib/http";
import { statementCsv, statementFileName } from "@/lib/statement";

export const dynamic = "force-dynamic";

export async function GET(req: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const user = requestUser(req);
  if (!user) return seeOther("/login?next=/statements");
  const found = getStatement(user.id, Number((await params).id));
  if (!found) return new Response("Statement not found", { status: 404 });
  const body = statementCsv(found.account, found.statement, bankContext());
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${statementFileName(found.account, found.statement, "csv")}"`,
      "Cache-Control": "no-store",
    },
  });
}
