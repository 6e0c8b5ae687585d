import { Overview } from "@/bank/components/Overview";
import { requireUser } from "@/bank/lib/auth";

export const metadata = { title: "Accounts" };

export default async function AccountsPage() {
  return <Overview user={await requireUser()} />;
}
