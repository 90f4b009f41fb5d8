import type { Metadata } from 'next';
import { ProduceForm } from './_components/produce-form';

type ProducePageProps = { params: Promise<{ topic: string }> };

export async function generateMetadata({ params }: ProducePageProps): Promise<Metadata> {
  return { title: `Produce · ${decodeURIComponent((await params).topic)}` };
}

/** Produce one record by hand: key, value, ordered headers, partition and compression. */
export default async function ProducePage({ params }: ProducePageProps) {
  return <ProduceForm topic={decodeURIComponent((await params).topic)} />;
}
