import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isIP, isIPv4 } from 'node:net';
import { domainToAscii } from '../validation/idna.js';
import {
  calendarDate,
  createSandboxState,
  logTimestamp,
  type SandboxDomain,
  type SandboxState,
} from './sandboxData.js';
import { startSandboxRegistry } from './sandboxRegistry.js';
import { type SandboxZone, sandboxZone } from './sandboxZone.js';

export interface SandboxOptions {
  /** The sandbox's clock: expiry dates and log times are relative to it. */
  now?: () => Date;
  /** Zone of the `DD.MM.YYYY HH:MM:SS` timestamps and expiry dates (the real API's is Europe/Berlin). */
  timeZone?: string;
}

export interface Sandbox {
  /** Base URL to give HostingClient (`http://127.0.0.1:<port>`). */
  url: string;
  /** The bearer token the sandbox accepts; made up at start, different every time. */
  token: string;
  /** What the session has changed, for tests and curious readers. */
  state: SandboxState;
  /** The sandbox's made-up registry (RDAP): RDAP_BOOTSTRAP_URL on the sandbox. */
  registryBootstrapUrl: string;
  /** The sandbox's made-up DNS zone: what the forward check of `/server rdns` asks on the sandbox. */
  zone: SandboxZone;
  close(): Promise<void>;
}

/** Sent with every answer, so anything reading the raw HTTP can tell it is not the real API. */
export const SANDBOX_HEADER = 'x-hostops-sandbox';

type Json = Record<string, unknown>;
type Answer = { status: number; body: Json };

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const badRequest = (message: string) => new HttpError(400, 'bad_request', message);
const notFound = (message: string) => new HttpError(404, 'not_found', message);
const conflict = (message: string) => new HttpError(409, 'conflict', message);

/**
 * An in-process stand-in for the hosting API: the seven operations of the spec on 127.0.0.1 (a free
 * port), believable data, changes remembered until close(), and booleans and integers quoted as the
 * real API's sample bodies show them.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const now = options.now ?? (() => new Date());
  const timeZone = options.timeZone ?? 'Europe/Berlin';
  const state = createSandboxState(now(), timeZone);
  const token = `sandbox-${randomBytes(18).toString('base64url')}`;
  const expected = Buffer.from(`Bearer ${token}`);

  const authorized = (header: string | undefined) => {
    if (header === undefined) return false;
    const given = Buffer.from(header);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  const server = createServer((req, res) => {
    void (async () => {
      // The API takes no request bodies; drain whatever came so the connection stays usable.
      for await (const _ of req);
      let answer: Answer;
      try {
        if (!authorized(req.headers.authorization)) {
          throw new HttpError(401, 'unauthorized', 'missing or invalid bearer token');
        }
        answer = route(req, state, now);
      } catch (error) {
        answer =
          error instanceof HttpError
            ? { status: error.status, body: { error: error.code, message: error.message } }
            : { status: 500, body: { error: 'internal', message: 'sandbox error' } };
      }
      send(res, answer);
    })();
  });
  // Longer than the client's pool keeps idle connections, so the client is always the one to close.
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // In-process helper: it must never be what keeps a finished process alive.
  server.unref();
  const { port } = server.address() as AddressInfo;
  const registry = await startSandboxRegistry(state);

  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    state,
    registryBootstrapUrl: registry.bootstrapUrl,
    zone: sandboxZone(),
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(() => registry.close());
      return closing;
    },
  };
}

function send(res: ServerResponse, { status, body }: Answer): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    [SANDBOX_HEADER]: 'true',
  });
  res.end(text);
}

function route(req: IncomingMessage, state: SandboxState, now: () => Date): Answer {
  const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
  const path = url.pathname;
  const method = req.method ?? 'GET';
  const query = url.searchParams;

  const serverLog = /^\/server\/logs\/([^/]*)$/.exec(path);
  if (serverLog) {
    allow(method, 'GET');
    return ok(serverLogOf(state, decode(serverLog[1] ?? '')));
  }
  const domainInfo = /^\/domain\/info\/([^/]*)$/.exec(path);
  if (domainInfo) {
    allow(method, 'GET');
    return ok(domainInfoOf(state, decode(domainInfo[1] ?? '')));
  }
  switch (path) {
    case '/server/set/network/ipv4/rdns':
      allow(method, 'PUT');
      return ok(setReverseDns(state, query, now));
    case '/musikbot/user':
      allow(method, 'POST');
      return ok(createMusicBotUser(state, query));
    case '/panel/license/binding':
      allow(method, 'POST');
      return ok(bindLicense(state, query));
    case '/domain/create':
      allow(method, 'POST');
      return ok(createDomain(state, query, now));
    case '/domain/dns':
      allow(method, 'POST');
      return ok(submitDnsRecords(state, query));
    default:
      throw notFound(`no such endpoint: ${method} ${path}`);
  }
}

const ok = (body: Json): Answer => ({ status: 200, body });

function allow(method: string, expected: string): void {
  if (method !== expected)
    throw new HttpError(405, 'method_not_allowed', `use ${expected} for this endpoint`);
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw badRequest('malformed percent-encoding in the path');
  }
}

/** Every parameter of every operation is required (spec §4); an empty value counts as missing. */
function param(query: URLSearchParams, name: string): string {
  const value = query.get(name);
  if (value === null || value.trim() === '') throw badRequest(`missing parameter: ${name}`);
  return value;
}

function integerParam(query: URLSearchParams, name: string): number {
  const value = param(query, name);
  if (!/^\d{1,15}$/.test(value)) throw badRequest(`parameter ${name} must be a non-negative integer`);
  return Number(value);
}

function booleanParam(query: URLSearchParams, name: string): boolean {
  const value = param(query, name);
  if (value !== 'true' && value !== 'false') throw badRequest(`parameter ${name} must be true or false`);
  return value === 'true';
}

/** Lowercase ASCII form; a Unicode name is looked up by its punycode, as a registry would. */
function domainKey(name: string): string {
  const lower = name.trim().toLowerCase().replace(/\.$/, '');
  return domainToAscii(lower) ?? lower;
}

function findServer(state: SandboxState, raw: string) {
  if (!/^\d{1,15}$/.test(raw)) throw badRequest('serverid must be an integer');
  const server = state.servers.get(Number(raw));
  if (!server) throw notFound(`server ${raw} not found`);
  return server;
}

function findDomain(state: SandboxState, raw: string): SandboxDomain {
  const domain = state.domains.get(domainKey(raw));
  if (!domain) throw notFound(`domain ${raw} not found`);
  return domain;
}

const quoted = (value: boolean | number) => String(value);

function serverLogOf(state: SandboxState, rawId: string): Json {
  const server = findServer(state, rawId);
  const entry = server.log.at(-1);
  if (!entry) throw notFound(`no log entries for server ${server.id}`);
  return {
    starttime: logTimestamp(entry.start, state.timeZone),
    endtime: logTimestamp(entry.end, state.timeZone),
    type: entry.type,
    status: entry.status,
  };
}

function domainInfoOf(state: SandboxState, name: string): Json {
  const domain = findDomain(state, name);
  return {
    expirydate: domain.expiryDate,
    active: quoted(domain.active),
    expired: quoted(domain.expired),
    transferredAway: quoted(domain.transferredAway),
  };
}

function setReverseDns(state: SandboxState, query: URLSearchParams, now: () => Date): Json {
  const server = findServer(state, param(query, 'serverid'));
  const ip = param(query, 'ip');
  const hostname = param(query, 'rdns');
  const validate = booleanParam(query, 'validate');
  const [address = '', prefix] = ip.split('/', 2);
  if (!isIPv4(address) || (prefix !== undefined && !/^\d{1,2}$/.test(prefix))) {
    throw badRequest('ip must be an IPv4 address, optionally with a prefix length');
  }
  // `.invalid` never resolves (RFC 6761): the one name the sandbox's "does it exist" check refuses.
  if (validate && /(^|\.)invalid\.?$/i.test(hostname)) {
    throw badRequest(`rdns validation failed: ${hostname} does not resolve`);
  }
  server.rdns.set(ip, hostname);
  const end = new Date(Math.floor(now().getTime() / 1000) * 1000);
  server.log.push({ type: 'rdns', status: 'success', start: new Date(end.getTime() - 2000), end });
  return {};
}

function createMusicBotUser(state: SandboxState, query: URLSearchParams): Json {
  const username = param(query, 'username');
  param(query, 'password');
  const email = param(query, 'email');
  if (!email.includes('@')) throw badRequest('parameter email must be an e-mail address');
  const storage = integerParam(query, 'storage');
  const bots = integerParam(query, 'bots');
  const user = { id: state.nextMusicBotUserId++, username, email, storage, bots };
  state.musicBotUsers.push(user);
  // The password is never stored nor returned.
  return {
    id: quoted(user.id),
    username,
    email,
    storage: quoted(storage),
    bots: quoted(bots),
  };
}

function bindLicense(state: SandboxState, query: URLSearchParams): Json {
  const license = param(query, 'license');
  const ip = param(query, 'ip_address');
  if (isIP(ip) === 0) throw badRequest('parameter ip_address must be an IPv4 or IPv6 address');
  state.licenseBindings.set(license, ip);
  return {};
}

function createDomain(state: SandboxState, query: URLSearchParams, now: () => Date): Json {
  const raw = param(query, 'domain');
  const contacts = {
    ownerC: param(query, 'ownerC'),
    adminC: param(query, 'adminC'),
    techC: param(query, 'techC'),
    zoneC: param(query, 'zoneC'),
  };
  const nameservers: [string, string] = [param(query, 'ns1'), param(query, 'ns2')];
  const name = domainKey(raw);
  if (!/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/.test(name)) {
    throw badRequest('parameter domain must be a domain name');
  }
  const existing = state.domains.get(name);
  // A domain that left or lapsed may be registered again; one still held here may not.
  if (existing && !existing.transferredAway && !existing.expired) {
    throw conflict(`domain ${raw} is already registered`);
  }
  state.domains.set(name, {
    name,
    expiryDate: calendarDate(now(), state.timeZone, 365),
    active: true,
    expired: false,
    transferredAway: false,
    contacts,
    nameservers,
    records: [],
  });
  return {};
}

function submitDnsRecords(state: SandboxState, query: URLSearchParams): Json {
  const raw = param(query, 'domain');
  const encoded = param(query, 'records');
  const domain = findDomain(state, raw);
  if (domain.transferredAway) throw conflict(`domain ${raw} was transferred to another provider`);
  let records: unknown;
  try {
    records = JSON.parse(encoded);
  } catch {
    throw badRequest('parameter records must be a JSON array');
  }
  if (!Array.isArray(records) || !records.every((r) => typeof r === 'object' && r !== null)) {
    throw badRequest('parameter records must be a JSON array of objects');
  }
  domain.records = records;
  return {};
}
