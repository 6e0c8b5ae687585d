import { redirect } from "next/navigation";
import { requireUser } from "@/calendar/lib/auth";

export default async function Home() {
  await requireUser();
  redirect("/week");
}
