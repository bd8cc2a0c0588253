/** The CSP directive that keeps a page out of every other site's frames (clickjacking). */
export const FRAME_ANCESTORS_NONE = "frame-ancestors 'none'";

/**
 * Never framed: the directive for browsers with CSP 2, X-Frame-Options for the others. Pages with
 * a fuller policy put FRAME_ANCESTORS_NONE into it; responses without one send these as they are.
 */
export const NO_FRAMING_HEADERS = {
  'content-security-policy': FRAME_ANCESTORS_NONE,
  'x-frame-options': 'DENY',
} as const;
