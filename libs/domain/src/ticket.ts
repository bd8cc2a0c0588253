export type TicketRole = 'customer' | 'agent' | 'system';

export interface TicketMessage {
  role: TicketRole;
  text: string;
  at?: string;
}

export type MetadataValue = string | number | boolean | null;

/** A support ticket as the spec defines it; stored only in redacted form. */
export interface Ticket {
  externalId?: string;
  subject: string;
  customerMessage: string;
  messages?: TicketMessage[];
  metadata?: Record<string, MetadataValue>;
  createdAt?: string;
}
