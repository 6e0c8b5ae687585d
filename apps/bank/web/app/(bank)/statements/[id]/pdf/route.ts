import type { NextRequest } from "next/server";
import { bankContext } from "@/bank/lib/context";
import { fileResponse, requestStatement } from "@/bank/lib/http";
import { statementFileName, statementPdf } from "@/bank/lib/statement";

export const dynamic = "force-dynamic";

/** The statement as a PDF download, or shown in the browser with `?view=1`. */
export async function GET(req: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const found = await requestStatement(req, params);
  if (found instanceof Response) return found;
  const { user, account, statement } = found;
  const bytes = await statementPdf(user, account, statement, bankContext());
  const inline = req.nextUrl.searchParams.get("view") === "1";
  return fileResponse(Buffer.from(bytes), "application/pdf", statementFileName(account, statement, "pdf"), inline);
}
