'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../trpc/react';

/**
 * A `<datalist>` of the broker's users as principals (`User:<name>`), for principal inputs
 * (`list={id}`). Listing users needs DESCRIBE on the cluster; without it there are simply no
 * suggestions, and the input still takes any principal.
 */
export function UserSuggestions({ id }: { id: string }) {
  const trpc = useTRPC();
  const users = useQuery({ ...trpc.users.list.queryOptions({}), retry: false });
  return (
    <datalist id={id}>
      {(users.data?.users ?? []).map((user) => (
        <option key={user.name} value={`User:${user.name}`} />
      ))}
    </datalist>
  );
}
