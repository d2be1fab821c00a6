import { createHash } from 'node:crypto';

/** Hex SHA-256: names cache files after what they hold without writing that down (a key, an instance URL). */
export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}
