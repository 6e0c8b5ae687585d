import type { NextRequest } from "next/server";
import { bankContext } from "@/bank/lib/context";
import { fileResponse, requestStatement } from "@/bank/lib/http";
import { statementCsv, statementFileName } from "@/bank/lib/statement";

export const dynamic = "force-dynamic";

export async function GET(req: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const found = await requestStatement(req, params);
  if (found instanceof Response) return found;
  const { account, statement } = found;
  return fileResponse(statementCsv(account, statement, bankContext()), "text/csv; charset=utf-8", statementFileName(account, statement, "csv"));
}
