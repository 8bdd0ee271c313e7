import { z } from 'zod';

// What HostOps reads of a registry's answers, and nothing more: every field bounded, so a hostile or
// broken answer is refused here ("registry answer unreadable") instead of reaching a date or a digest.

/** RFC 9224's bootstrap file for DNS: services are [[labels…], [base URLs…]]. */
export const bootstrapSchema = z.object({
  publication: z.string().max(64).optional(),
  services: z
    .array(
      z
        .array(z.array(z.string().max(2048)).max(5000))
        .min(2)
        .max(3),
    )
    .max(5000),
});
export type BootstrapFile = z.output<typeof bootstrapSchema>;

const event = z.looseObject({
  eventAction: z.string().max(100),
  eventDate: z.string().max(64).optional(),
});

/** RFC 9083's domain object: the expiration event, the status values, the nameservers, DNSSEC. */
export const domainObjectSchema = z.looseObject({
  objectClassName: z.literal('domain'),
  ldhName: z.string().max(253).optional(),
  status: z.array(z.string().max(100)).max(64).optional(),
  events: z.array(event).max(256).optional(),
  nameservers: z
    .array(z.looseObject({ ldhName: z.string().max(253) }))
    .max(64)
    .optional(),
  secureDNS: z.looseObject({ delegationSigned: z.boolean().optional() }).optional(),
});
export type DomainObject = z.output<typeof domainObjectSchema>;
