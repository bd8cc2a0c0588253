import { Modal, Stack, Text } from '@mantine/core';
import { useContext, useEffect, useRef, useState } from 'react';
import { UNSAFE_NavigationContext, useLocation, type To } from 'react-router';
import { historyIndex, historyStep } from './history-index';
import { FormActions } from '../../ui/FormActions';
import { guardPops } from '../../ui/pop-guard';

type Navigate = (to: To, state?: unknown, opts?: unknown) => void;

/** The path a navigation goes to; undefined when it stays on the current path (a query or hash). */
function targetPath(to: To): string | undefined {
  return typeof to === 'string' ? to.split(/[?#]/)[0] || undefined : to.pathname;
}

/**
 * While `dirty`: a navigation to another page of the app (a link, a redirect after an action, the
 * browser's Back or Forward) is held and a modal asks "Leave without saving?" ("Stay" keeps the page
 * and its edits, "Leave without saving" goes on), and closing or reloading the tab gets the
 * browser's own `beforeunload` prompt. Moving within the page (a tab, a query string) is not held.
 *
 * react-router's `useBlocker` needs its data router, which added 17 kB (gzipped) to the first page
 * and took it over its 300 kB budget; so the guard works with the declarative router instead:
 * - it holds the router's navigator (`push` and `replace`, which every `Link` and `navigate` call
 *   goes through);
 * - it hears Back and Forward (`popstate`) before the router does (`pop-guard.ts`, whose listener
 *   the app adds at boot, before the router's), stops them there, so the page never changes, and
 *   steps the browser back to the entry it left (`history.go`, by the entries' `idx`,
 *   features/packs/history-index.ts), a step it stops too. "Leave" repeats the step and lets the router have it.
 */
export function UnsavedChangesGuard({ dirty, what = 'edits' }: { dirty: boolean; what?: string }) {
  const { navigator } = useContext(UNSAFE_NavigationContext);
  const { pathname, key } = useLocation();
  const [held, setHeld] = useState<(() => void) | null>(null);
  // Set by "Leave" after Back or Forward: the next step is the user's, and the router takes it.
  const leaving = useRef(false);

  useEffect(() => {
    if (!dirty) return;
    const target = navigator as { push: Navigate; replace: Navigate };
    const { push, replace } = target;
    const hold =
      (go: Navigate): Navigate =>
      (to, state, opts) => {
        const path = targetPath(to);
        if (path === undefined || path === pathname) go.call(navigator, to, state, opts);
        else setHeld(() => () => go.call(navigator, to, state, opts));
      };
    target.push = hold(push);
    target.replace = hold(replace);

    const here = historyIndex(window.history.state);
    const onPop = (event: PopStateEvent) => {
      const step = historyStep(here, event.state);
      if (leaving.current || step === null || (step !== 0 && window.location.pathname === pathname)) {
        leaving.current = false;
        return;
      }
      event.stopImmediatePropagation();
      // 0: the browser is back on this page's entry after the undo below.
      if (step === 0) return;
      window.history.go(-step);
      setHeld(() => () => {
        leaving.current = true;
        window.history.go(step);
      });
    };
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    const releasePops = guardPops(onPop);
    window.addEventListener('beforeunload', warn);
    return () => {
      target.push = push;
      target.replace = replace;
      releasePops();
      window.removeEventListener('beforeunload', warn);
    };
  }, [dirty, navigator, pathname, key]);

  function leave() {
    const go = held;
    setHeld(null);
    go?.();
  }

  return (
    <Modal
      opened={held !== null}
      onClose={() => setHeld(null)}
      closeButtonProps={{ 'aria-label': 'Close' }}
      title="Leave without saving?"
    >
      <Stack>
        <Text size="sm">
          You have unsaved {what}. If you leave this page now, they are lost. Stay to keep editing and save
          them first.
        </Text>
        <FormActions
          cancelLabel="Stay"
          onCancel={() => setHeld(null)}
          label="Leave without saving"
          color="red.9"
          onSubmit={leave}
        />
      </Stack>
    </Modal>
  );
}
