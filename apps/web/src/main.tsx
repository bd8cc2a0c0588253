import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './ui/notifications.css';
import { createTheme, MantineProvider, Notification, type CSSVariablesResolver } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { queryClient } from './api/query-client';
import { installPopGuard } from './ui/pop-guard';

// Colours for WCAG AA contrast (4.5:1), which several of Mantine's defaults miss: filled
// components use shade 9 (white text on green, red, teal, blue and indigo 9 passes), orange and
// yellow get darker fills, light variants get darker text in light mode, and "dimmed" text and
// errors are darker in light mode and lighter in dark mode.
const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 9, dark: 9 },
  defaultRadius: 'md',
  components: {
    // A notification's close button is an icon: without a name, screen readers announce "button".
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } },
    }),
  },
});
const DARK_FILLS = { orange: '#a33a0b', yellow: '#8a4a00', lime: '#3f6b06' };
const LIGHT_VARIANT_TEXT = {
  green: '#1e6b2e',
  orange: '#a33a0b',
  yellow: '#8a4a00',
  lime: '#3f6b06',
  teal: '#06664a',
  red: '#c92a2a',
};
const PALETTE = [
  'dark',
  'gray',
  'red',
  'pink',
  'grape',
  'violet',
  'indigo',
  'blue',
  'cyan',
  'teal',
  'green',
  'lime',
  'yellow',
  'orange',
];
/** Mantine sets these per colour scheme, so the overrides go in both. */
const fills = Object.fromEntries(
  Object.entries(DARK_FILLS).flatMap(([color, fill]) => [
    [`--mantine-color-${color}-filled`, fill],
    [`--mantine-color-${color}-filled-hover`, fill],
  ]),
);
const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    ...fills,
    '--mantine-color-dimmed': '#5c636a',
    '--mantine-color-error': '#c92a2a',
    ...Object.fromEntries(
      Object.entries(LIGHT_VARIANT_TEXT).map(([color, text]) => [
        `--mantine-color-${color}-light-color`,
        text,
      ]),
    ),
  },
  dark: {
    ...fills,
    '--mantine-color-dimmed': '#a6a7ab',
    '--mantine-color-error': '#ff8787',
    // Outlines are text on the page's dark background: a light shade, not the dark fill shade.
    ...Object.fromEntries(
      PALETTE.map((color) => [`--mantine-color-${color}-outline`, `var(--mantine-color-${color}-4)`]),
    ),
  },
});

// Before the router mounts: the unsaved-changes guard must hear Back and Forward first.
installPopGuard();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="auto" cssVariablesResolver={cssVariablesResolver}>
      {/* Top centre, just below the 56 px header: toasts cover neither the header (its buttons and the
          signed-in user) nor the page's own actions, which sit at its right, nor the editor's sticky
          Save and Publish bar at the bottom. A toast under the pointer does not close, so one over a
          button would keep it covered. */}
      <Notifications position="top-center" className="tj-notifications" />
      <QueryClientProvider client={queryClient}>
        <App />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
