/**
 * SCRAM-SHA-256 (RFC 5802 / 7677) server side, with verifiers in the format
 * PostgreSQL keeps in pg_authid: SCRAM-SHA-256$<iter>:<salt>$<StoredKey>:<ServerKey>.
 * No channel binding (SCRAM-SHA-256-PLUS) is offered.
 */
import { createHash, createHmac, pbkdf2, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { PgError, SqlState } from './errors.js';

export interface ScramVerifier {
  iterations: number;
  salt: Buffer;
  storedKey: Buffer;
  serverKey: Buffer;
}

const hmac = (key: Buffer, data: string | Buffer) => createHmac('sha256', key).update(data).digest();
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest();

function storedKeyOf(password: string, salt: Buffer, iterations: number): { storedKey: Buffer; serverKey: Buffer } {
  const salted = pbkdf2Sync(password.normalize('NFKC'), salt, iterations, 32, 'sha256');
  return { storedKey: sha256(hmac(salted, 'Client Key')), serverKey: hmac(salted, 'Server Key') };
}

export function makeVerifier(password: string, iterations = 4096, salt = randomBytes(16)): string {
  const { storedKey, serverKey } = storedKeyOf(password, salt, iterations);
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}

const pbkdf2Async = promisify(pbkdf2);

/**
 * Check a cleartext password against a verifier, as PostgreSQL does for
 * `password` authentication. Asynchronous: the key derivation must not stall
 * other sessions.
 */
export async function passwordMatches(verifier: ScramVerifier, password: string): Promise<boolean> {
  const salted = await pbkdf2Async(password.normalize('NFKC'), verifier.salt, verifier.iterations, 32, 'sha256');
  return timingSafeEqual(sha256(hmac(salted, 'Client Key')), verifier.storedKey);
}

export function parseVerifier(text: string): ScramVerifier | null {
  const m = /^SCRAM-SHA-256\$(\d+):([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+):([A-Za-z0-9+/=]+)$/.exec(text);
  if (!m) return null;
  const storedKey = Buffer.from(m[3]!, 'base64');
  const serverKey = Buffer.from(m[4]!, 'base64');
  if (storedKey.length !== 32 || serverKey.length !== 32) return null;
  return { iterations: Number(m[1]), salt: Buffer.from(m[2]!, 'base64'), storedKey, serverKey };
}

/**
 * A verifier for a user that does not exist, stable per user name, so an
 * attacker cannot tell unknown users from wrong passwords (PostgreSQL's mock
 * authentication does the same).
 */
export function mockVerifier(user: string, serverSecret: Buffer): ScramVerifier {
  const salt = hmac(serverSecret, `salt:${user}`).subarray(0, 16);
  return { iterations: 4096, salt, storedKey: randomBytes(32), serverKey: randomBytes(32) };
}

const malformed = () => new PgError(SqlState.protocolViolation, 'malformed SCRAM message', { severity: 'FATAL' });

function attributes(message: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of message.split(',')) {
    const eq = part.indexOf('=');
    if (eq !== 1) throw malformed();
    out.set(part[0]!, part.slice(2));
  }
  return out;
}

/** One SCRAM exchange: clientFirst → serverFirst, clientFinal → serverFinal or failure. */
export class ScramExchange {
  private clientFirstBare = '';
  private serverFirst = '';
  private nonce = '';
  /** The gs2 header of client-first ('n,,' or 'y,,'): client-final's c= must carry exactly it. */
  private gs2Header = '';

  constructor(private readonly verifier: ScramVerifier) {}

  /** Returns the server-first-message. */
  start(clientFirst: string): string {
    // gs2 header: 'n' (no channel binding) or 'y' (client supports it, we offer none).
    const m = /^([nyp])(=[^,]*)?,([^,]*),(.*)$/s.exec(clientFirst);
    if (!m) throw malformed();
    if (m[1] === 'p' || m[2] !== undefined) {
      throw new PgError(SqlState.protocolViolation, 'malformed SCRAM message', {
        severity: 'FATAL',
        detail: 'The client selected SCRAM-SHA-256 without channel binding, but the SCRAM message includes channel binding data.',
      });
    }
    // PostgreSQL supports no authorization identity: a= is refused, whatever it names.
    if (m[3] !== '') {
      if (!m[3]!.startsWith('a=')) throw malformed();
      throw new PgError(SqlState.featureNotSupported, 'client uses authorization identity, but it is not supported', { severity: 'FATAL' });
    }
    this.gs2Header = `${m[1]},,`;
    this.clientFirstBare = m[4]!;
    const attrs = attributes(this.clientFirstBare);
    const clientNonce = attrs.get('r');
    if (!clientNonce || attrs.has('m')) throw malformed();
    this.nonce = clientNonce + randomBytes(18).toString('base64');
    this.serverFirst = `r=${this.nonce},s=${this.verifier.salt.toString('base64')},i=${this.verifier.iterations}`;
    return this.serverFirst;
  }

  /** Returns the server-final-message, or null when the proof is wrong. */
  finish(clientFinal: string): string | null {
    const proofAt = clientFinal.lastIndexOf(',p=');
    if (proofAt < 0) throw malformed();
    const withoutProof = clientFinal.slice(0, proofAt);
    const attrs = attributes(withoutProof);
    if (attrs.get('r') !== this.nonce) throw malformed();
    if (attrs.get('c') !== Buffer.from(this.gs2Header).toString('base64')) {
      throw new PgError(SqlState.protocolViolation, 'unexpected SCRAM channel-binding attribute in client-final-message', { severity: 'FATAL' });
    }
    const proof = Buffer.from(clientFinal.slice(proofAt + 3), 'base64');
    if (proof.length !== 32) return null;
    const authMessage = `${this.clientFirstBare},${this.serverFirst},${withoutProof}`;
    const clientSignature = hmac(this.verifier.storedKey, authMessage);
    const clientKey = Buffer.alloc(32);
    for (let i = 0; i < 32; i++) clientKey[i] = proof[i]! ^ clientSignature[i]!;
    if (!timingSafeEqual(sha256(clientKey), this.verifier.storedKey)) return null;
    return `v=${hmac(this.verifier.serverKey, authMessage).toString('base64')}`;
  }
}
