import type { NextRequest } from "next/server";
import { fileResponse, seeOther } from "@persona/platform/http";
import { requestUser } from "@/taxes/lib/auth";
import { documentOf } from "@/taxes/lib/store";

export const dynamic = "force-dynamic";

/** The PDF copy of a filed return of the signed-in user. */
export async function GET(req: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const user = requestUser(req);
  if (!user) return seeOther("/login");
  const id = Number((await params).id);
  const doc = Number.isInteger(id) ? documentOf(user, id) : null;
  if (!doc) return new Response("No such document", { status: 404 });
  return fileResponse(new Uint8Array(doc.content), "application/pdf", doc.filename);
}
