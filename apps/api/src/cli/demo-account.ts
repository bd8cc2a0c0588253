/** The demo user that `npm start` seeds outside production (seed-demo.ts) and `npm run demo:reset` resets. */
export const DEMO_EMAIL = 'demo@ticket-judge.local';
