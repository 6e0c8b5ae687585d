import { lookupId } from "@persona/platform/http";
import { notFound } from "next/navigation";
import { ContactCard } from "@/messaging/components/ContactCard";
import { Sidebar } from "@/messaging/components/Sidebar";
import { directConversationOf, getContact } from "@/messaging/lib/chat";
import { chatContext } from "@/messaging/lib/context";

type Params = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Params) {
  return { title: getContact(lookupId((await params).id))?.name ?? "Contact" };
}

export default async function ContactPage({ params }: Params) {
  const raw = (await params).id;
  const contact = /^\d{1,12}$/.test(raw) ? getContact(Number(raw)) : null;
  if (!contact) notFound();
  const { locale } = chatContext();
  const birthday = contact.birthday
    ? new Intl.DateTimeFormat(locale, { month: "long", day: "numeric", timeZone: "UTC" }).format(new Date(`${contact.birthday}T12:00:00Z`))
    : null;
  return (
    <>
      <Sidebar active={directConversationOf(contact.id) ?? undefined} />
      <main className="pl-main pl-panel">
        <ContactCard contact={contact} birthday={birthday} />
      </main>
    </>
  );
}
