import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../client';

export const meKeys = { me: ['me'] as const };

/** The signed-in user; a missing session sends the browser to /login (see unwrap). */
export function useMe() {
  return useQuery({
    queryKey: meKeys.me,
    queryFn: () => unwrap(api.GET('/api/auth/me')),
    staleTime: 5 * 60_000,
    retry: false,
  });
}

export async function signOut(): Promise<void> {
  await api.POST('/api/auth/sign-out');
  window.location.assign('/login');
}
