type PopHandler = (event: PopStateEvent) => void;

let current: PopHandler | null = null;

/**
 * Adds the app's first `popstate` listener, so the unsaved-changes guard sees the browser's Back
 * and Forward before the router does. Listeners on `window` run in the order they were added,
 * capturing or not (Chromium), so this must run at boot, before the router mounts; a handler that
 * calls `stopImmediatePropagation` then keeps the step from the router.
 */
export function installPopGuard(target: Window = window): void {
  target.addEventListener('popstate', (event) => current?.(event));
}

/** Gives every Back and Forward to `handler` first, until the returned function is called. */
export function guardPops(handler: PopHandler): () => void {
  current = handler;
  return () => {
    if (current === handler) current = null;
  };
}
