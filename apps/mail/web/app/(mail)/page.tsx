import { errorMessage } from "@persona/platform/http";
import { MessageList } from "@/mail/components/MessageList";
import { Notice, one, type Search } from "@/mail/components/Notice";
import { mailContext } from "@/mail/lib/db";
import { allLabels, folderCondition, listConversations } from "@/mail/lib/mail";
import { pageState } from "@/mail/lib/page";

export const metadata = { title: "Inbox" };

export default async function InboxPage({ searchParams }: { searchParams: Promise<Search> }) {
  const sp = await searchParams;
  const { page, here } = pageState("/", sp);
  const ctx = mailContext();
  const list = listConversations(folderCondition("inbox"), page);
  return (
    <>
      <Notice notice={one(sp.notice)} error={errorMessage(sp)} />
      <MessageList title="Inbox" folder="inbox" list={list} here={here} basePath="/" today={ctx.today} locale={ctx.locale} labels={allLabels()} />
    </>
  );
}
