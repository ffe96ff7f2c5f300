// A fake OpenAI-compatible server for tests, benchmarks and trying the service by hand: real HTTP, `POST /chat/completions` answered with JSON that follows the
// request's `response_format.json_schema`, every call recorded. Tests steer it over HTTP (the service under test
// runs in another process): rules chosen by a substring of the prompt (a test's unique pet name) make it fail,
// throttle, answer slowly, answer invalid JSON or answer a given object.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  exampleOf,
  type FakeRule,
  type JsonSchema,
  languageOf,
  takeRule,
} from '../../shared/adapters/vision-model/fake.ts';

export type { FakeRule };

export interface RecordedCall {
  model: string;
  name: string;
  prompt: string;
  system: string;
  /** The `image_url` data URLs' bytes, base64. */
  images: string[];
  authorization: string | null;
  strict: boolean;
}

const MAX_BODY_BYTES = 32 * 1024 * 1024;

export interface FakeVisionServer {
  url: string;
  calls: RecordedCall[];
  rules: FakeRule[];
  close(): Promise<void>;
}

export async function startFakeVisionServer(port = 0): Promise<FakeVisionServer> {
  const calls: RecordedCall[] = [];
  let rules: FakeRule[] = [];
  const server: Server = createServer(async (req, res) => {
    const send = (status: number, body: unknown) => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    try {
      const url = new URL(req.url ?? '/', 'http://fake');
      if (url.pathname === '/__control/rules' && req.method === 'POST') {
        rules.push(...([] as FakeRule[]).concat((await readJson(req)) as FakeRule | FakeRule[]));
        return send(200, { rules: rules.length });
      }
      if (url.pathname === '/__control/rules' && req.method === 'DELETE') {
        rules = [];
        return send(200, { rules: 0 });
      }
      if (url.pathname === '/__calls' && req.method === 'GET') {
        const match = url.searchParams.get('match');
        const selected = match ? calls.filter((c) => c.prompt.includes(match)) : calls;
        return send(200, {
          count: selected.length,
          calls: selected.map(({ images, ...c }) => ({ ...c, images: images.length })),
        });
      }
      if (url.pathname !== '/chat/completions' || req.method !== 'POST') return send(404, { error: 'not found' });

      const body = (await readJson(req)) as ChatBody;
      const call = recordCall(body, req);
      calls.push(call);
      const rule = takeRule(rules, call);
      const mode = rule?.mode ?? 'ok';
      if (mode === 'fail') return send(500, { error: { message: 'model crashed' } });
      if (mode === 'throttle') return send(429, { error: { message: 'slow down' } });
      if (mode === 'slow') await new Promise((r) => setTimeout(r, rule?.delayMs ?? 5000));
      const schema = body.response_format?.json_schema?.schema ?? {};
      const content =
        mode === 'invalid_json'
          ? 'Sure! Here is the answer: {score: nine'
          : mode === 'schema_invalid'
            ? JSON.stringify({ unexpected: true })
            : JSON.stringify(rule?.answer ?? exampleOf(schema, languageOf(call.prompt)));
      return send(200, {
        id: `chatcmpl-${calls.length}`,
        object: 'chat.completion',
        model: body.model,
        choices: [
          {
            index: 0,
            finish_reason: 'stop',
            message:
              mode === 'refuse'
                ? { role: 'assistant', content: null, refusal: 'I cannot help with that' }
                : { role: 'assistant', content },
          },
        ],
        usage: { prompt_tokens: 1000, completion_tokens: 200, total_tokens: 1200 },
      });
    } catch (error) {
      send(400, { error: { message: String(error) } });
    }
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    calls,
    get rules() {
      return rules;
    },
    set rules(value) {
      rules = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface ChatBody {
  model: string;
  messages: { role: string; content: string | { type: string; text?: string; image_url?: { url: string } }[] }[];
  response_format?: { type: string; json_schema?: { name: string; strict?: boolean; schema: JsonSchema } };
}

function recordCall(body: ChatBody, req: IncomingMessage): RecordedCall {
  const parts = body.messages.flatMap((m) =>
    typeof m.content === 'string'
      ? [{ type: 'text', text: m.content, role: m.role }]
      : m.content.map((p) => ({ ...p, role: m.role })),
  );
  return {
    model: body.model,
    name: body.response_format?.json_schema?.name ?? '',
    system: parts
      .filter((p) => p.role === 'system')
      .map((p) => p.text ?? '')
      .join('\n'),
    prompt: parts
      .filter((p) => p.role === 'user' && p.type === 'text')
      .map((p) => p.text ?? '')
      .join('\n'),
    images: parts.flatMap((p) =>
      p.type === 'image_url' && p.image_url ? [p.image_url.url.replace(/^data:[^,]*,/, '')] : [],
    ),
    authorization: req.headers.authorization ?? null,
    strict: body.response_format?.json_schema?.strict === true,
  };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/** Standalone: `node --import tsx scripts/local/fake-vision-server.ts [port]` for trying the service by hand. */
if (import.meta.url === `file://${process.argv[1]}`) {
  const server = await startFakeVisionServer(Number(process.argv[2] ?? 0));
  console.log(`fake OpenAI-compatible server on ${server.url} (ANALYSIS_BASE_URL=${server.url})`);
}
