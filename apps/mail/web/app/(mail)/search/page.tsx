import { errorMessage } from "@persona/platform/http";
import { MessageList } from "@/mail/components/MessageList";
import { Notice, one, type Search } from "@/mail/components/Notice";
import { mailContext } from "@/mail/lib/db";
import { allLabels, listConversations } from "@/mail/lib/mail";
import { pageState } from "@/mail/lib/page";
import { searchCondition, SearchError } from "@/mail/lib/search";

export const metadata = { title: "Search results" };

export default async function SearchPage({ searchParams }: { searchParams: Promise<Search> }) {
  const sp = await searchParams;
  const q = one(sp.q).trim();
  const { page, here, query } = pageState("/search", sp, ["q"]);
  const ctx = mailContext();
  let error = errorMessage(sp);
  let list = null;
  try {
    list = listConversations(searchCondition(q), page);
  } catch (e) {
    if (!(e instanceof SearchError)) throw e;
    error = e.message;
  }
  return (
    <>
      <Notice notice={one(sp.notice)} error={error} />
      <p className="mb-searched">
        Results for <q data-testid="searched">{q}</q>
      </p>
      {list ? (
        <MessageList title="Search results" list={list} here={here} basePath="/search" query={query} today={ctx.today} locale={ctx.locale} labels={allLabels()} />
      ) : null}
    </>
  );
}
