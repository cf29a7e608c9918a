/**
 * Open cursors (suspended portals) each keep a DuckDB connection, so they are
 * bounded per session. The refusal comes before any row of the portal is
 * written, and the session goes on once a cursor is closed.
 */
import { describe as describeMessage, fe, parseDataRow, parseError, RawConn, type BackendMessage } from '../support/wire.js';
import { startInProcess, type InProcessGateway } from '../support/inProcess.js';

let gateway: InProcessGateway;
let c: RawConn;

beforeAll(async () => {
  gateway = await startInProcess(() => ({ maxOpenCursorsPerSession: 2 }));
  c = await RawConn.connect('127.0.0.1', gateway.server.port);
  await c.startup('alice', 'demo', 'alice');
}, 60000);

afterAll(async () => {
  c?.close();
  await gateway?.stop();
});

const names = (ms: BackendMessage[]) => ms.map(describeMessage);
const openCursor = (name: string) =>
  Buffer.concat([
    fe.parse('', 'SELECT i FROM generate_series(1, 10) AS g(i) ORDER BY i'),
    fe.bind(name, '', [], [], [0]),
    fe.execute(name, 3),
    fe.sync(),
  ]);

describe('open cursors', () => {
  it('refuses a third suspended portal with 54000 before sending rows, and recovers after Close', async () => {
    await c.simple('BEGIN');
    c.send(openCursor('C_1'));
    expect(names(await c.untilReady())).toContain('PortalSuspended');
    c.send(openCursor('C_2'));
    expect(names(await c.untilReady())).toContain('PortalSuspended');

    c.send(openCursor('C_3'));
    const refused = await c.untilReady();
    expect(refused.some((m) => m.type === 'D')).toBe(false);
    const err = refused.find((m) => m.type === 'E');
    expect(err && parseError(err.body)).toMatchObject({ code: '54000', message: 'too many open cursors (at most 2 per session)' });
    await c.simple('ROLLBACK');

    // ROLLBACK closed C_1 and C_2: cursors can be opened again, and they stream correctly.
    await c.simple('BEGIN');
    c.send(openCursor('C_4'));
    const rows = (await c.untilReady()).filter((m) => m.type === 'D').map((m) => parseDataRow(m.body)[0]!.toString());
    expect(rows).toEqual(['1', '2', '3']);
    c.send(Buffer.concat([fe.execute('C_4', 0), fe.sync()]));
    const rest = (await c.untilReady()).filter((m) => m.type === 'D').map((m) => parseDataRow(m.body)[0]!.toString());
    expect(rest).toEqual(['4', '5', '6', '7', '8', '9', '10']);
    await c.simple('COMMIT');
  });
});
