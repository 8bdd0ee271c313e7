// A preload (`node --import`, given through NODE_OPTIONS) that records every attempt of the process to
// reach beyond loopback — TCP and TLS connections, UDP datagrams, DNS look-ups and resolver queries — one
// line each to the file HOSTOPS_OUTBOUND_LOG names. It lets the attempt go on: it observes, the test judges.
// Plain JavaScript, so the built process loads it as it is.

import dgram from 'node:dgram';
import dns from 'node:dns';
import { appendFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

const LOG = process.env.HOSTOPS_OUTBOUND_LOG;
if (!LOG) throw new Error('outboundRecorder: HOSTOPS_OUTBOUND_LOG names no file');

const record = (what) => appendFileSync(LOG, `${what}\n`);

const isLoopback = (host) => {
  if (host === undefined || host === null || host === '') return true; // node's default: localhost
  const name = String(host)
    .replace(/^\[|\]$/g, '')
    .toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (net.isIPv4(name)) return name.startsWith('127.');
  if (net.isIPv6(name)) return name === '::1' || name.startsWith('::ffff:127.');
  return false;
};

// Every TCP connection (http, undici, tls, pg, ws) goes through Socket#connect.
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const first = args[0];
  const options = Array.isArray(first) ? first[0] : first;
  if (options && typeof options === 'object') {
    if (options.path === undefined && !isLoopback(options.host))
      record(`tcp ${options.host}:${options.port}`);
  } else if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    const host = typeof args[1] === 'string' ? args[1] : undefined;
    if (!isLoopback(host)) record(`tcp ${host}:${first}`);
  }
  return connect.apply(this, args);
};

// UDP (a resolver of our own making would use it).
const send = dgram.Socket.prototype.send;
dgram.Socket.prototype.send = function (...args) {
  const address = args.find((arg, n) => n > 0 && typeof arg === 'string');
  if (!isLoopback(address)) record(`udp ${address}`);
  return send.apply(this, args);
};

// Name look-ups (getaddrinfo): any name that is not loopback's, or an address not on loopback.
const wrapLookup = (target, key) => {
  const original = target[key];
  target[key] = function (hostname, ...rest) {
    if (!isLoopback(hostname)) record(`dns lookup ${hostname}`);
    return original.call(this, hostname, ...rest);
  };
};
wrapLookup(dns, 'lookup');
wrapLookup(dns.promises, 'lookup');

// Resolver queries (c-ares sends them to the system's or the configured servers): every one is recorded,
// whatever the servers' addresses — a resolver on loopback (systemd-resolved's 127.0.0.53) asks onwards.
const RESOLVES = [
  'resolve',
  'resolve4',
  'resolve6',
  'resolveAny',
  'resolveCname',
  'resolveMx',
  'resolveNs',
  'resolveTxt',
  'resolveSrv',
  'resolvePtr',
  'resolveNaptr',
  'resolveSoa',
  'resolveCaa',
  'reverse',
];
for (const target of [dns, dns.promises, dns.Resolver.prototype, dns.promises.Resolver.prototype]) {
  for (const key of RESOLVES) {
    const original = target[key];
    if (typeof original !== 'function') continue;
    target[key] = function (name, ...rest) {
      record(`dns ${key} ${name}`);
      return original.call(this, name, ...rest);
    };
  }
}
// ESM's named imports of node:dns and node:dns/promises see the wrapped functions too.
syncBuiltinESMExports();
