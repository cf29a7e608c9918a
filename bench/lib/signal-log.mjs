// Preloaded into the lakegate process the bench starts (node --import), to tell
// afterwards why it stopped: it only writes a line to stderr, it changes nothing
// (lakegate's own SIGINT/SIGTERM handlers still run; no handler is added for any
// other signal).
const at = () => new Date().toISOString();
const say = (s) => process.stderr.write(`[bench] ${at()} lakegate pid ${process.pid}: ${s}\n`);
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => say(`received ${sig} (from outside the bench unless the bench was stopping)`));
process.on('beforeExit', (code) => say(`event loop empty (beforeExit ${code})`));
process.on('exit', (code) => say(`exit ${code}`));
