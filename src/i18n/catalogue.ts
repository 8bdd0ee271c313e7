import type { Locale } from './locales.js';
import * as access from './messages/access.js';
import * as audit from './messages/audit.js';
import * as changes from './messages/changes.js';
import * as common from './messages/common.js';
import * as console from './messages/console.js';
import * as domain from './messages/domain.js';
import * as errors from './messages/errors.js';
import * as help from './messages/help.js';
import * as musicbot from './messages/musicbot.js';
import * as panel from './messages/panel.js';
import * as rdap from './messages/rdap.js';
import * as server from './messages/server.js';
import * as validation from './messages/validation.js';
import * as watch from './messages/watch.js';

/**
 * Every text HostOps sends, by area (messages/*.ts, English beside German). Keys start with their
 * area's name, so areas never collide.
 */
export const english = {
  ...common.en,
  ...errors.en,
  ...changes.en,
  ...validation.en,
  ...server.en,
  ...domain.en,
  ...musicbot.en,
  ...panel.en,
  ...help.en,
  ...audit.en,
  ...watch.en,
  ...rdap.en,
  ...console.en,
  ...access.en,
} as const;

export type English = typeof english;

export const catalogue: Record<Locale, { readonly [K in keyof English]: string }> = {
  en: english,
  de: {
    ...common.de,
    ...errors.de,
    ...changes.de,
    ...validation.de,
    ...server.de,
    ...domain.de,
    ...musicbot.de,
    ...panel.de,
    ...help.de,
    ...audit.de,
    ...watch.de,
    ...rdap.de,
    ...console.de,
    ...access.de,
  },
};
