import { createServer } from 'node:net';

const HOST = '127.0.0.1';

/** A port nothing listens on right now (tests run beside a developer's `npm start`). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
