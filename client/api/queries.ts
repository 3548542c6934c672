import { QueryClient } from '@tanstack/react-query';
import { createContext } from 'react';
import type { ShellData } from '../../views/shell/shell-data';
import type { ApiClient } from './api-client';

/** The API client for components that call procedures (mutations, queries). */
export const ApiContext = createContext<ApiClient | undefined>(undefined);

/** Query keys, one per procedure that components read. */
export const QUERY_KEYS = { accountStatus: ['account.status'] } as const;

/**
 * TanStack Query with §7's defaults: no refetch on window focus or on mount. The account status the
 * server rendered with seeds the cache, so hydration needs no request (§4 App start step 2 ran on
 * the server).
 */
export function createQueryClient(data: Pick<ShellData, 'account'>): QueryClient {
  const client = new QueryClient({
    defaultOptions: {
      queries: { refetchOnWindowFocus: false, refetchOnMount: false, retry: 1 },
      mutations: { retry: 0 },
    },
  });
  if (data.account) client.setQueryData(QUERY_KEYS.accountStatus, data.account);
  return client;
}
