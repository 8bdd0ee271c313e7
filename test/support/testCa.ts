// A certificate authority made at test time with openssl, and a certificate it signed for 127.0.0.1:
// what a test registry serves HTTPS with. Trusted through Node's own trust store — NODE_EXTRA_CA_CERTS for
// a process, tls.setDefaultCACertificates in this one — never through an option of the client.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCa {
  /** The CA's certificate (PEM): what NODE_EXTRA_CA_CERTS names. */
  caPem: string;
  /** Its file, for NODE_EXTRA_CA_CERTS. */
  caFile: string;
  /** The server's key and certificate (for 127.0.0.1 and localhost). */
  key: string;
  cert: string;
  dispose(): void;
}

/** Made with openssl (EC P-256: a few milliseconds), in a directory of its own. */
export function makeTestCa(): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'hostops-test-ca-'));
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  openssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'ca.key');
  openssl(
    ...['req', '-x509', '-new', '-key', 'ca.key', '-sha256', '-days', '2', '-subj', '/CN=HostOps test CA'],
    ...[
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign',
      '-out',
      'ca.pem',
    ],
  );
  openssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'server.key');
  openssl('req', '-new', '-key', 'server.key', '-subj', '/CN=127.0.0.1', '-out', 'server.csr');
  const extensions = file('server.ext');
  execFileSync('sh', [
    '-c',
    `printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\\nextendedKeyUsage=serverAuth\\n' > '${extensions}'`,
  ]);
  openssl(
    ...['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial'],
    ...['-days', '2', '-sha256', '-extfile', 'server.ext', '-out', 'server.pem'],
  );
  return {
    caPem: readFileSync(file('ca.pem'), 'utf8'),
    caFile: file('ca.pem'),
    key: readFileSync(file('server.key'), 'utf8'),
    cert: readFileSync(file('server.pem'), 'utf8'),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
