import { DateTime } from 'luxon';
import { z } from 'zod';

// The spec's sample bodies quote booleans and integers; accept exactly those two spellings.
// (z.coerce.boolean() would turn "false" into true.)
export const flexibleBoolean = z.union([
  z.boolean(),
  z.enum(['true', 'false']).transform((value) => value === 'true'),
]);

export const flexibleInteger = z.union([
  z.number().int().refine(Number.isSafeInteger, 'integer out of range'),
  z
    .string()
    .regex(/^-?\d{1,15}$/, 'expected an integer')
    .transform(Number),
]);

const LOG_TIMESTAMP_FORMAT = 'dd.MM.yyyy HH:mm:ss';

/** `DD.MM.YYYY HH:MM:SS` in the API's zone → a real instant; empty or absent → null (e.g. still running). */
export const logTimestamp = (timeZone: string) =>
  z
    .union([z.string(), z.null()])
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === null || value.trim() === '') return null;
      const parsed = DateTime.fromFormat(value.trim(), LOG_TIMESTAMP_FORMAT, { zone: timeZone });
      if (!parsed.isValid) {
        ctx.addIssue({
          code: 'custom',
          message: `expected DD.MM.YYYY HH:MM:SS, got ${JSON.stringify(value)}`,
        });
        return z.NEVER;
      }
      return parsed.toJSDate();
    });

/** `YYYY-MM-DD` → the calendar date (in the API's zone); empty or absent → null (no expiry known). */
export const expiryDate = (timeZone: string) =>
  z
    .union([z.string(), z.null()])
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === null || value.trim() === '' || value.startsWith('0000-00-00')) {
        return null;
      }
      const parsed = DateTime.fromISO(value.trim(), { zone: timeZone });
      if (!parsed.isValid || !/^\d{4}-\d{2}-\d{2}/.test(value.trim())) {
        ctx.addIssue({ code: 'custom', message: `expected YYYY-MM-DD, got ${JSON.stringify(value)}` });
        return z.NEVER;
      }
      return parsed.startOf('day');
    });

const text = z.union([z.string(), z.number()]).transform(String);

export const serverLogSchema = (timeZone: string) =>
  z.object({
    starttime: logTimestamp(timeZone),
    endtime: logTimestamp(timeZone),
    type: text,
    status: text,
  });

export const domainInfoSchema = (timeZone: string) =>
  z.object({
    expirydate: expiryDate(timeZone),
    active: flexibleBoolean,
    expired: flexibleBoolean,
    transferredAway: flexibleBoolean,
  });

export const musicBotUserSchema = z.object({
  id: flexibleInteger,
  username: text,
  email: text,
  storage: flexibleInteger,
  bots: flexibleInteger,
});

/** Changing operations answer `{}`; whatever fields arrive are not shown by the spec and ignored. */
export const acknowledgementSchema = z.looseObject({});
