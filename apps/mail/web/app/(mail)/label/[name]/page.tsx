import { errorMessage } from "@persona/platform/http";
import { notFound } from "next/navigation";
import { MessageList } from "@/mail/components/MessageList";
import { Notice, one, type Search } from "@/mail/components/Notice";
import { mailContext } from "@/mail/lib/db";
import { allLabels, labelByName, labelCondition, listConversations } from "@/mail/lib/mail";
import { pageState } from "@/mail/lib/page";

export async function generateMetadata({ params }: { params: Promise<{ name: string }> }) {
  return { title: decodeURIComponent((await params).name) };
}

export default async function LabelPage({ params, searchParams }: { params: Promise<{ name: string }>; searchParams: Promise<Search> }) {
  const label = labelByName(decodeURIComponent((await params).name));
  if (!label) notFound();
  const sp = await searchParams;
  const path = `/label/${encodeURIComponent(label.name)}`;
  const { page, here } = pageState(path, sp);
  const ctx = mailContext();
  const list = listConversations(labelCondition(label.id), page);
  return (
    <>
      <Notice notice={one(sp.notice)} error={errorMessage(sp)} />
      <MessageList title={label.name} folder={label.name} list={list} here={here} basePath={path} today={ctx.today} locale={ctx.locale} labels={allLabels()} />
    </>
  );
}
