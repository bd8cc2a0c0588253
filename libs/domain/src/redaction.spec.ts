import { describe, expect, it } from '@jest/globals';
import type { Ticket } from './ticket.js';
import { REDACTION_PLACEHOLDERS, redactText, redactTicket } from './redaction.js';

/** Text as customers write it, and what may be stored or sent to a model. */
const REDACTED: [kind: string, input: string, expected: string][] = [
  // Emails
  ['email', 'Please reply to jane.doe@example.com today.', 'Please reply to [EMAIL] today.'],
  ['email', 'CC: ops+billing@mail.example.co.uk, thanks', 'CC: [EMAIL], thanks'],
  ['email', 'Mein Konto: jürgen.müller@beispiel.de', 'Mein Konto: [EMAIL]'],
  ['email', '<mailto:first_last99@sub.example.org>', '<mailto:[EMAIL]>'],

  // Phones
  ['phone', 'Call me on +44 20 7946 0958 after lunch.', 'Call me on [PHONE] after lunch.'],
  ['phone', 'My cell is +1 (555) 014-2345.', 'My cell is [PHONE].'],
  ['phone', 'Reach me at 555-014-2345 or by email.', 'Reach me at [PHONE] or by email.'],
  ['phone', 'Office: (555) 014 2345', 'Office: [PHONE]'],
  ['phone', 'Mon portable : 06 12 34 56 78', 'Mon portable : [PHONE]'],
  ['phone', 'Büro +49 30 1234567, Durchwahl egal', 'Büro [PHONE], Durchwahl egal'],
  ['phone', 'Hotline 1-800-555-0199 kept me waiting', 'Hotline [PHONE] kept me waiting'],
  ['phone', 'UK mobile 07700 900123 or landline 020 7946 0958', 'UK mobile [PHONE] or landline [PHONE]'],
  ['phone', 'Tel. +44 (0)20 7946 0958', 'Tel. [PHONE]'],
  ['phone', 'Appelez le +33 6 12 34 56 78 svp', 'Appelez le [PHONE] svp'],
  ['phone', 'WhatsApp: +442079460958', 'WhatsApp: [PHONE]'],

  // Payment cards (all pass Luhn)
  ['card', 'I was charged twice on 4111 1111 1111 1111 yesterday', 'I was charged twice on [CARD] yesterday'],
  ['card', 'Card 5555-5555-5555-4444 exp 12/26', 'Card [CARD] exp 12/26'],
  ['card', 'Amex 3782 822463 10005 was declined', 'Amex [CARD] was declined'],
  ['card', 'card number:4012888888881881.', 'card number:[CARD].'],
  ['card', 'Discover 6011 1111 1111 1117, CVV withheld', 'Discover [CARD], CVV withheld'],

  // IBANs (all pass mod-97)
  ['iban', 'Refund to DE89 3704 0044 0532 0130 00 please', 'Refund to [IBAN] please'],
  ['iban', 'IBAN: GB82 WEST 1234 5698 7654 32', 'IBAN: [IBAN]'],
  ['iban', 'Mon IBAN est FR14 2004 1010 0505 0001 3M02 606.', 'Mon IBAN est [IBAN].'],
  ['iban', 'iban=NL91ABNA0417164300', 'iban=[IBAN]'],
  ['iban', 'Send 45 to BE68 5390 0754 7034 EUR by Friday', 'Send 45 to [IBAN] EUR by Friday'],
  ['iban', 'Cuenta ES91 2100 0418 4502 0005 1332', 'Cuenta [IBAN]'],

  // IP addresses
  ['ip', 'Login blocked from 192.168.1.10 again', 'Login blocked from [IP] again'],
  ['ip', 'Server 10.0.0.1:8080 times out.', 'Server [IP]:8080 times out.'],
  ['ip', 'Our range is 203.0.113.0/24', 'Our range is [IP]/24'],
  ['ip', 'IPv6 2001:db8::8a2e:370:7334 was flagged', 'IPv6 [IP] was flagged'],
  ['ip', 'Full form 2001:0db8:85a3:0000:0000:8a2e:0370:7334 too', 'Full form [IP] too'],
  ['ip', 'Works on ::1 but not on fe80::1ff:fe23:4567:890a', 'Works on [IP] but not on [IP]'],
  ['ip', 'Mapped address ::ffff:192.0.2.1 shows up', 'Mapped address [IP] shows up'],
  ['ip', 'Proxy at [2001:db8::1]:443', 'Proxy at [[IP]]:443'],
  ['ip', 'Version-like but valid: 1.2.3.4', 'Version-like but valid: [IP]'],

  // US social security numbers
  ['ssn', 'My SSN is 123-45-6789.', 'My SSN is [SSN].'],
  ['ssn', 'SSN 078-05-1120 on the W-2', 'SSN [SSN] on the W-2'],

  // Secrets
  ['secret', 'I pasted sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv in the chat', 'I pasted [SECRET] in the chat'],
  ['secret', 'Stripe key sk_live_51HxYzAbCdEfGhIjKlMnOpQr leaked', 'Stripe key [SECRET] leaked'],
  ['secret', 'pk_live_51HxYzAbCdEfGhIjKlMnOpQr and rk_live_51HxYzAbCdEfGhIj', '[SECRET] and [SECRET]'],
  ['secret', 'token ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789 expired', 'token [SECRET] expired'],
  ['secret', 'gho_16C7e42F292c6912E7710c838347Ae178B4a works', '[SECRET] works'],
  ['secret', 'PAT github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz', 'PAT [SECRET]'],
  ['secret', 'Slack bot xoxb-1234567890-0987654321-AbCdEfGhIjKl', 'Slack bot [SECRET]'],
  ['secret', 'aws_access_key_id = AKIAIOSFODNN7EXAMPLE', 'aws_access_key_id = [SECRET]'],
  ['secret', 'Maps key AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW', 'Maps key [SECRET]'],
  [
    'secret',
    'Our key tj_live_3xQ9vTzK2mLp8RwN4bYc7HdF1gJs6AeU0oVi5kPn2rXt9WqZy is rejected',
    'Our key [SECRET] is rejected',
  ],
  ['secret', 'Webhook secret whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'Webhook secret [SECRET]'],
  [
    'secret',
    'jwt eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c here',
    'jwt [SECRET] here',
  ],
  ['secret', 'Authorization: Bearer 8f14e45fceea167a5a36dedd4bea2543', 'Authorization: Bearer [SECRET]'],
  [
    'secret',
    'curl -H "authorization: bearer abc.DEF-123_xyz~/+=="',
    'curl -H "authorization: bearer [SECRET]"',
  ],
  ['secret', 'My password: hunter2', 'My password: [SECRET]'],
  ['secret', 'Password=S3cr3t!Pass, user=bob', 'Password=[SECRET] user=bob'],
  ['secret', 'pwd: qwerty123', 'pwd: [SECRET]'],
  ['secret', 'The door passcode is 4821.', 'The door passcode is [SECRET]'],
  ['secret', 'PASSWORD IS Tr0ub4dor&3', 'PASSWORD IS [SECRET]'],
  ['secret', 'New password is: Winter2024', 'New password is: [SECRET]'],
  [
    'secret',
    'see https://example.com/login?user=bob&pwd=hunter2',
    'see https://example.com/login?user=bob&pwd=[SECRET]',
  ],
  ['secret', '{"user":"bob","password":"correct horse battery"}', '{"user":"bob","password":[SECRET]}'],

  // Several kinds in one message
  [
    'mixed',
    'Hi, I am jane@example.com, card 4111-1111-1111-1111, phone +1 (555) 014-2345, login from 198.51.100.7.',
    'Hi, I am [EMAIL], card [CARD], phone [PHONE], login from [IP].',
  ],
];

/** Text that looks a bit like personal data but must reach the model untouched. */
const UNCHANGED: [kind: string, input: string][] = [
  ['card failing Luhn', 'Card 4111 1111 1111 1112 was declined'],
  ['card failing Luhn', 'Reference 1234567812345678 on the statement'],
  ['all-zero card', 'Test card 0000 0000 0000 0000'],
  ['order number', 'Order #123456789 never arrived'],
  ['order number', 'Your order ORD-2024-000123 has shipped'],
  ['invoice number', 'Invoice INV-2024-0042 is overdue'],
  ['invoice number', 'Rechnung Nr. 2024/00123 vom 01.03.2024'],
  ['tracking number', 'UPS tracking 1Z999AA10123456784'],
  ['ISO date', 'Delivered on 2024-03-15'],
  ['European date', 'Ordered 15/03/2024, paid 05.03.2024'],
  ['written date', 'Since March 3, 2024 nothing works'],
  ['date and time', 'Meeting 05-03-2024 14:30 CET'],
  ['time', 'The outage started at 14:30 and ended 16:45:10'],
  ['amount', 'I paid $1,299.99 for the yearly plan'],
  ['amount', 'Es wurden € 45,00 abgebucht'],
  ['amount', 'Montant : 1 234,56 EUR'],
  ['amount', 'A refund of +12.345.678,90 would be nice'],
  ['version', 'After upgrading to v2.3.1 the app crashes'],
  ['version', 'Build 1.2.3.4.5 is broken'],
  ['UK postcode', 'Ship to 10 Downing St, London SW1A 1AA'],
  ['German postcode', '01067 Dresden, Germany'],
  ['year range', 'Customer since 2019-2024'],
  ['password without value', 'I forgot my password'],
  ['password without value', 'Please reset my password.'],
  ['password complaint', 'My password is not working'],
  ['bearer as a word', 'The bearer of this letter is my assistant'],
  ['IBAN wrong checksum', 'Refund to DE89 3704 0044 0532 0130 01 please'],
  ['IBAN checksum, German IBAN one digit short', 'Refund to DE51 3704 0044 0532 0130 0 please'],
  ['IBAN checksum, no such country', 'Refund to QQ33 3704 0044 0532 0130 00 please'],
  ['SSN area 000', 'SSN 000-12-3456'],
  ['SSN area 666', 'SSN 666-12-3456'],
  ['SSN area 9xx', 'ITIN 912-34-5678'],
  ['SSN group 00', 'SSN 123-00-4567'],
  ['SSN serial 0000', 'SSN 123-45-0000'],
  ['octet over 255', 'Error code 256.1.1.1'],
  ['C++ scope', 'It throws in std::vector and Foo::bar'],
  ['MAC-like time', 'Timestamp 12:34:56'],
  ['percentage', 'Prices went up +5.5% in 2024'],
  ['key prefix in a word', 'The task-force meets on sk-II day'],
  ['short number', 'Ticket 4521, room 101, quantity 3'],
  ['ZIP+4', 'Mail to Springfield IL 62704-1234'],
];

describe('redactText', () => {
  it.each(REDACTED)('redacts %s: %s', (_kind, input, expected) => {
    expect(redactText(input)).toBe(expected);
  });

  it.each(UNCHANGED)('keeps %s: %s', (_kind, input) => {
    expect(redactText(input)).toBe(input);
  });

  it.each(REDACTED)('is idempotent for %s: %s', (_kind, input) => {
    const once = redactText(input);
    expect(redactText(once)).toBe(once);
  });

  it('only produces the listed placeholders', () => {
    const placeholders = new Set<string>(Object.values(REDACTION_PLACEHOLDERS));
    for (const [, , expected] of REDACTED) {
      for (const [token] of expected.matchAll(/\[[A-Z]+\]/g)) expect(placeholders).toContain(token);
    }
  });
});

describe('redactTicket', () => {
  const ticket: Ticket = {
    externalId: 'crm-jane.doe@example.com-555-014-2345',
    subject: 'Refund to DE89 3704 0044 0532 0130 00',
    customerMessage: 'I am jane.doe@example.com, call +44 20 7946 0958',
    messages: [
      { role: 'customer', text: 'Card 4111 1111 1111 1111', at: '2024-03-15T14:30:00Z' },
      { role: 'agent', text: 'Thanks, we never need your password.' },
    ],
    metadata: { ip: '192.168.1.10', plan: 'pro', seats: 12, vip: true, churned: null },
    createdAt: '2024-03-15T14:30:00Z',
  };

  it('redacts every text field and keeps the rest as given', () => {
    expect(redactTicket(ticket)).toEqual({
      externalId: 'crm-jane.doe@example.com-555-014-2345',
      subject: 'Refund to [IBAN]',
      customerMessage: 'I am [EMAIL], call [PHONE]',
      messages: [
        { role: 'customer', text: 'Card [CARD]', at: '2024-03-15T14:30:00Z' },
        { role: 'agent', text: 'Thanks, we never need your password.' },
      ],
      metadata: { ip: '[IP]', plan: 'pro', seats: 12, vip: true, churned: null },
      createdAt: '2024-03-15T14:30:00Z',
    });
  });

  it('returns a new object and leaves the input untouched', () => {
    const before = structuredClone(ticket);
    const redacted = redactTicket(ticket);
    expect(ticket).toEqual(before);
    expect(redacted).not.toBe(ticket);
    expect(redacted.messages).not.toBe(ticket.messages);
    expect(redacted.metadata).not.toBe(ticket.metadata);
  });

  it('adds no fields the ticket did not have', () => {
    expect(redactTicket({ subject: 'Hi', customerMessage: 'Call 555-014-2345' })).toStrictEqual({
      subject: 'Hi',
      customerMessage: 'Call [PHONE]',
    });
  });

  it('is idempotent', () => {
    const once = redactTicket(ticket);
    expect(redactTicket(once)).toEqual(once);
  });
});
