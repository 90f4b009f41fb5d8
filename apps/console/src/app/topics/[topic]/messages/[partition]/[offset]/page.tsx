import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { RecordPage } from './_components/record-page';

type RecordRouteProps = { params: Promise<{ topic: string; partition: string; offset: string }> };

export async function generateMetadata({ params }: RecordRouteProps): Promise<Metadata> {
  const { topic, partition, offset } = await params;
  return { title: `${decodeURIComponent(topic)} ${partition}:${offset}` };
}

/** The permalink to one record: topic, partition and offset identify it for as long as it is retained. */
export default async function RecordRoute({ params }: RecordRouteProps) {
  const { topic, partition, offset } = await params;
  if (!/^\d{1,7}$/.test(partition) || !/^\d{1,19}$/.test(offset)) notFound();
  return <RecordPage topic={decodeURIComponent(topic)} partition={Number(partition)} offset={offset} />;
}
