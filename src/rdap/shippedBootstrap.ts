import type { BootstrapFile } from './rdapSchemas.js';

/**
 * The bootstrap HostOps starts from when the store holds none and IANA cannot be reached (a first start
 * without network): the registries of the most common TLDs, as IANA's file (RFC 9224) listed them. The
 * first successful refresh replaces it in the store; a TLD missing here reads "no RDAP" until then.
 */
export const SHIPPED_BOOTSTRAP: BootstrapFile = {
  publication: '2026-11-01T00:00:00Z',
  services: [
    [['com'], ['https://rdap.verisign.com/com/v1/']],
    [['net'], ['https://rdap.verisign.com/net/v1/']],
    [['cc'], ['https://tld-rdap.verisign.com/cc/v1/']],
    [['tv'], ['https://tld-rdap.verisign.com/tv/v1/']],
    [['org'], ['https://rdap.publicinterestregistry.org/rdap/']],
    [['info', 'io', 'mobi', 'pro'], ['https://rdap.identitydigital.services/rdap/']],
    [['app', 'dev', 'page'], ['https://pubapi.registry.google/rdap/']],
    [['xyz', 'online', 'site', 'store', 'tech', 'website'], ['https://rdap.centralnic.com/']],
  ],
};
