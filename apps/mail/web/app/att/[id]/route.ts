import { fileResponse, idValue } from "@persona/platform/http";
import type { NextRequest } from "next/server";
import { requestUser } from "@/mail/lib/auth";
import { seeOther } from "@/mail/lib/http";
import { attachmentContent } from "@/mail/lib/mail";

export const dynamic = "force-dynamic";

/** Download an attachment with its stored bytes (`?inline=1` to view in the browser). The id is digits only. */
export async function GET(req: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  if (!requestUser(req)) return seeOther("/login");
  const id = idValue((await params).id);
  const a = id !== null ? attachmentContent(id) : null;
  if (!a) return new Response("Attachment not found", { status: 404 });
  const inline = req.nextUrl.searchParams.get("inline") === "1" && /^(application\/pdf|text\/plain|image\/(png|jpeg|gif))$/.test(a.content_type);
  return fileResponse(new Uint8Array(a.content), a.content_type, a.filename, inline);
}
