import { errorMessage } from "@persona/platform/http";
import { Frame } from "@/network/components/Frame";
import { Flash } from "@/network/components/Nav";
import { Threads } from "@/network/components/Threads";
import { networkContext } from "@/network/lib/context";
import { listThreads } from "@/network/lib/network";

export const metadata = { title: "Messaging" };

export default async function MessagingPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const { now } = networkContext();
  return (
    <Frame active="messaging">
      <div className="gl-card gl-messaging">
        <div className="gl-thread-list">
          <h2 className="gl-h2">Messaging</h2>
          <Threads threads={listThreads(now)} now={now} />
        </div>
        <div className="gl-thread-pane gl-muted"><Flash error={errorMessage(sp)} />Pick a conversation.</div>
      </div>
    </Frame>
  );
}
