import { redirect } from "next/navigation";
import { requireUser } from "@/workchat/lib/auth";
import { listChannels } from "@/workchat/lib/chat";
import { chatContext } from "@/workchat/lib/context";

/** The workspace's home: its first channel (#general). */
export default async function Home() {
  const user = await requireUser();
  const first = listChannels(user.person_id, chatContext().now)[0];
  if (!first) {
    return (
      <div className="hd-empty-page">
        <h1>No workspace yet</h1>
        <p className="muted">You are not in any Huddle workspace. When your company invites you, its channels show up here.</p>
      </div>
    );
  }
  redirect(`/c/${first.name}`);
}
