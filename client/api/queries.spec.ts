import { QueryObserver } from '@tanstack/react-query';
import { QUERY_KEYS, createQueryClient } from './queries';

type Account = Parameters<typeof createQueryClient>[0]['account'];

describe('createQueryClient (§7 query defaults)', () => {
  it('no refetch on window focus or on mount unless a query asks for it', () => {
    const queries = createQueryClient({ account: undefined }).getDefaultOptions().queries;
    expect(queries).toMatchObject({ refetchOnWindowFocus: false, refetchOnMount: false });
  });

  it.each([
    { with: 'the defaults', options: {}, fetches: 0 },
    {
      with: 'refetchOnMount asked for (the control)',
      options: { refetchOnMount: true },
      fetches: 1,
    },
  ])(
    'a query mounted over the account the server rendered with, $with: $fetches fetch',
    ({ options, fetches }) => {
      const account = { signedIn: true } as unknown as Account;
      const client = createQueryClient({ account });
      const queryFn = jest.fn(() => Promise.resolve(account));
      // What useQuery does when a component mounts: an observer subscribes to the query.
      const observer = new QueryObserver(client, {
        queryKey: QUERY_KEYS.accountStatus,
        queryFn,
        ...options,
      });
      const unsubscribe = observer.subscribe(() => undefined);
      expect(observer.getCurrentResult().data).toBe(account);
      expect(queryFn).toHaveBeenCalledTimes(fetches);
      unsubscribe();
    },
  );
});
