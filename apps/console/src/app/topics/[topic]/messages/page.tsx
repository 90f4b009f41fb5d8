import type { Metadata } from 'next';
import { MessageBrowser } from './_components/message-browser';

type MessagesPageProps = { params: Promise<{ topic: string }> };

export async function generateMetadata({ params }: MessagesPageProps): Promise<Metadata> {
  return { title: `Messages · ${decodeURIComponent((await params).topic)}` };
}

/** The message browser: a streamed, filterable search with exact paging, all kept in the URL. */
export default async function MessagesPage({ params }: MessagesPageProps) {
  return <MessageBrowser topic={decodeURIComponent((await params).topic)} />;
}
