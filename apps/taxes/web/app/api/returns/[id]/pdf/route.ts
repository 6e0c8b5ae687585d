import type { NextRequest } from "next/server";
import { fileResponse, jsonError, seeOther } from "@persona/platform/http";
import { requestUser } from "@/taxes/lib/auth";
import { documentOf } from "@/taxes/lib/store";

export const dynamic = "force-dynamic";

/** The PDF copy of a filed return of the signed-in user: `id` digits only (else 400), 404 when there is none. */
export async function GET(req: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const user = requestUser(req);
  if (!user) return seeOther("/login");
  const raw = (await params).id;
  if (!/^[0-9]{1,9}$/.test(raw) || Number(raw) < 1) return jsonError("The return id must be a record number (digits only).", 400, "id");
  const doc = documentOf(user, Number(raw));
  if (!doc) return jsonError("No such document.", 404);
  return fileResponse(new Uint8Array(doc.content), "application/pdf", doc.filename);
}
