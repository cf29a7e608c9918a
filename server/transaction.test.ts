import { TransactionState } from './transaction.js';

const stmt = (kind: string, extra: Record<string, unknown> = {}) => ({ kind: `TRANS_STMT_${kind}`, ...extra });

describe('TransactionState', () => {
  it('moves I → T → E and back as PostgreSQL reports it', () => {
    const tx = new TransactionState();
    expect(tx.status()).toBe('I');
    expect(tx.apply(stmt('BEGIN')).tag).toBe('BEGIN');
    expect(tx.status()).toBe('T');
    tx.markFailed();
    expect(tx.status()).toBe('E');
    expect(() => tx.checkNotAborted()).toThrow(/current transaction is aborted/);
    // COMMIT of a failed block rolls back, and says so.
    expect(tx.apply(stmt('COMMIT')).tag).toBe('ROLLBACK');
    expect(tx.status()).toBe('I');
  });

  it('recovers a failed block with ROLLBACK TO SAVEPOINT', () => {
    const tx = new TransactionState();
    tx.apply(stmt('BEGIN'));
    tx.apply(stmt('SAVEPOINT', { savepoint_name: 'a' }));
    tx.markFailed();
    expect(tx.apply(stmt('ROLLBACK_TO', { savepoint_name: 'a' })).tag).toBe('ROLLBACK');
    expect(tx.status()).toBe('T');
    expect(() => tx.apply(stmt('RELEASE', { savepoint_name: 'nope' }))).toThrow(/savepoint "nope" does not exist/);
  });

  it('warns instead of failing for BEGIN in a block and COMMIT outside one', () => {
    const tx = new TransactionState();
    expect(tx.apply(stmt('COMMIT')).notice?.code).toBe('25P01');
    tx.apply(stmt('BEGIN'));
    expect(tx.apply(stmt('BEGIN')).notice?.code).toBe('25001');
    expect(() => new TransactionState().apply(stmt('SAVEPOINT', { savepoint_name: 's' }))).toThrow(/only be used in transaction blocks/);
  });

  it('outside a block, errors do not poison the session', () => {
    const tx = new TransactionState();
    tx.markFailed();
    expect(tx.status()).toBe('I');
    expect(() => tx.checkNotAborted()).not.toThrow();
  });
});
