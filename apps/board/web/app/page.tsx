import { redirect } from "next/navigation";
import { currentUser } from "@/board/lib/auth";

/** The front door: the sprint board when signed in, else the sign-in page. */
export default async function Home() {
  redirect((await currentUser()) ? "/board" : "/login");
}
