import { describe, expect, it } from '@jest/globals';
import { guardPops, installPopGuard } from './pop-guard';

/** A window stand-in: the guard's listener first, then the router's, as at boot. */
function boot() {
  const target = new EventTarget();
  installPopGuard(target as unknown as Window);
  const routed: Event[] = [];
  target.addEventListener('popstate', (event) => routed.push(event));
  const pop = () => target.dispatchEvent(new Event('popstate'));
  return { routed, pop };
}

describe('pop guard', () => {
  it('lets every step through to the router while nothing guards', () => {
    const { routed, pop } = boot();
    pop();
    expect(routed).toHaveLength(1);
  });

  it('gives a step to the guard first, which can keep it from the router, until released', () => {
    const { routed, pop } = boot();
    const seen: Event[] = [];
    const release = guardPops((event) => {
      seen.push(event);
      event.stopImmediatePropagation();
    });
    pop();
    expect([seen.length, routed.length]).toEqual([1, 0]);
    release();
    pop();
    expect([seen.length, routed.length]).toEqual([1, 1]);
  });

  it('keeps the newest guard when an older one is released after it (a remount)', () => {
    const { routed, pop } = boot();
    const releaseOld = guardPops(() => undefined);
    guardPops((event) => event.stopImmediatePropagation());
    releaseOld();
    pop();
    expect(routed).toHaveLength(0);
  });
});
