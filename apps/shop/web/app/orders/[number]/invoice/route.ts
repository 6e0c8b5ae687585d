import type { NextRequest } from "next/server";
import { fileResponse, seeOther } from "@persona/platform/http";
import { requestUser } from "@/shop/lib/auth";
import { shopContext } from "@/shop/lib/context";
import { invoiceFileName, invoicePdf } from "@/shop/lib/invoice";
import { cardById, itemsOf, orderByNumber, returnsOf } from "@/shop/lib/shop";

export const dynamic = "force-dynamic";

/** The order's invoice PDF (signed in, own orders only). */
export async function GET(req: NextRequest, { params }: { params: Promise<{ number: string }> }) {
  const user = requestUser(req);
  if (!user) return seeOther("/login");
  const { number } = await params;
  const o = orderByNumber(user.id, number);
  if (!o) return new Response("No such order", { status: 404 });
  const pdf = await invoicePdf(shopContext(), o, itemsOf(o.id), returnsOf(o.id), cardById(user.id, o.card_id), user.full_name);
  return fileResponse(Buffer.from(pdf), "application/pdf", invoiceFileName(o), true);
}
