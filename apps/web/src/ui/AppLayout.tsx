import {
  ActionIcon,
  AppShell,
  Burger,
  Button,
  Group,
  NavLink,
  Text,
  Title,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { signOut, useMe } from '../api/queries/auth';
import { Loading } from './states';

export const NAVIGATION = [
  { to: '/', label: 'Dashboard' },
  { to: '/packs', label: 'Packs' },
  { to: '/playground', label: 'Playground' },
  { to: '/evaluations', label: 'Evaluations' },
  { to: '/reviews', label: 'Reviews' },
  { to: '/calibration', label: 'Calibration' },
  { to: '/datasets', label: 'Datasets' },
  { to: '/simulations', label: 'Simulations' },
  { to: '/integrations', label: 'Integrations' },
] as const;

function isCurrent(pathname: string, to: string): boolean {
  return to === '/' ? pathname === '/' : pathname === to || pathname.startsWith(`${to}/`);
}

function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  const next = scheme === 'dark' ? 'light' : 'dark';
  return (
    <ActionIcon
      variant="default"
      size="lg"
      onClick={() => setColorScheme(next)}
      aria-label={`Switch to ${next} mode`}
      title={`Switch to ${next} mode`}
    >
      <span aria-hidden>{scheme === 'dark' ? '☀' : '☾'}</span>
    </ActionIcon>
  );
}

/**
 * The frame of every signed-in page: header, navigation (a drawer on phones), the page. Kept free
 * of floating elements (menus, popovers): they would pull a positioning library into the first page.
 */
export function AppLayout() {
  const [opened, { toggle, close }] = useDisclosure();
  const { pathname } = useLocation();
  const me = useMe();
  if (me.isPending || me.isError) return <Loading label="Signing in" />;
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label="Toggle navigation"
            />
            <Title order={1} size="h4">
              <Link to="/" style={{ color: 'inherit', textDecoration: 'none' }}>
                Ticket Judge
              </Link>
            </Title>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <ColorSchemeToggle />
            <Text size="sm" truncate maw={220} visibleFrom="xs">
              {me.data.user.email}
            </Text>
            <Button variant="default" onClick={() => void signOut()}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main navigation">
        {NAVIGATION.map((item) => (
          <NavLink
            key={item.to}
            component={Link}
            to={item.to}
            label={item.label}
            active={isCurrent(pathname, item.to)}
            aria-current={isCurrent(pathname, item.to) ? 'page' : undefined}
            onClick={close}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
