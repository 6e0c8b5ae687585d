import type { NextRequest } from "next/server";
import { getStatement } from "@/lib/bank";
import { bankContext } from "@/lib/context";
import { requestUser, seeOther } from "@/lib/http";
import { statementFileName, statementPdf } from "@/lib/statement";

export const dynamic = "force-dynamic";

export async function GET(req: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const user = requestUser(req);
  if (!user) return seeOther("/login?next=/statements");
  const found = getStatement(user.id, Number((await params).id));
  if (!found) return new Response("Statement not found", { status: 404 });
  const bytes = await statementPdf(user, found.account, found.statement, bankContext());
  const inline = req.nextUrl.searchParams.get("view") === "1";
  return new Response(Buffer.from(bytes), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `${inline ? "inline" : "attachment"}; filename="${statementFileName(found.account, found.statement, "pdf")}"`,
      "Cache-Control": "no-store",
    },
  });
}
