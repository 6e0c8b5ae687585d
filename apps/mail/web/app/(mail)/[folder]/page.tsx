import { errorMessage } from "@persona/platform/http";
import { notFound } from "next/navigation";
import { MessageList } from "@/mail/components/MessageList";
import { Notice, one, type Search } from "@/mail/components/Notice";
import { mailContext } from "@/mail/lib/db";
import { allLabels, folderCondition, listConversations, SYSTEM_FOLDERS, type FolderKey } from "@/mail/lib/mail";
import { pageState } from "@/mail/lib/page";

function folderOf(key: string) {
  return SYSTEM_FOLDERS.find((f) => f.key === key && key !== "inbox");
}

export async function generateMetadata({ params }: { params: Promise<{ folder: string }> }) {
  return { title: folderOf((await params).folder)?.title ?? "Not found" };
}

export default async function FolderPage({ params, searchParams }: { params: Promise<{ folder: string }>; searchParams: Promise<Search> }) {
  const folder = folderOf((await params).folder);
  if (!folder) notFound();
  const sp = await searchParams;
  const { page, here } = pageState(folder.href, sp);
  const ctx = mailContext();
  const list = listConversations(folderCondition(folder.key as FolderKey), page);
  return (
    <>
      <Notice notice={one(sp.notice)} error={errorMessage(sp)} />
      <MessageList
        title={folder.title}
        folder={folder.key}
        list={list}
        here={here}
        basePath={folder.href}
        today={ctx.today}
        locale={ctx.locale}
        labels={allLabels()}
        showRecipients={folder.key === "sent" || folder.key === "drafts"}
      />
    </>
  );
}
