/**
 * Every test signs its users up from 127.0.0.1, and the run's APIs share one Redis prefix, so the
 * production default (20 an hour) would refuse them; the tests of the throttle set their own.
 */
export const TEST_SIGN_UP_LIMIT = '1000000';
