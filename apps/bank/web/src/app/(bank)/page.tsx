import { Overview } from "@/components/Overview";
import { requireUser } from "@/lib/auth";

export const metadata = { title: "Accounts" };

export default async function HomePage() {
  return <Overview user={await requireUser()} />;
}
