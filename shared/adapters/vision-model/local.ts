// Any OpenAI-compatible chat-completions server (Ollama, vLLM, llama.cpp, LM Studio, OpenAI itself):
// photos as data: URLs, the answer constrained by `response_format: json_schema` (strict).
import { InvalidAnswer, type VisionModel, type VisionQuestion, VisionUnavailable } from '../../ports/vision-model.ts';

export interface OpenAiCompatibleOptions {
  baseUrl: string;
  model: string;
  apiKey?: string | undefined;
  fetch?: typeof fetch;
}

/** Bounds what a misbehaving server can make us read. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

export function openAiCompatibleModel(options: OpenAiCompatibleOptions): VisionModel {
  const send = options.fetch ?? fetch;
  const url = `${options.baseUrl}/chat/completions`;
  return {
    provider: 'openai',
    modelId: options.model,
    async ask(question) {
      let response: Response;
      try {
        response = await send(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(options.apiKey && { authorization: `Bearer ${options.apiKey}` }),
          },
          body: JSON.stringify(chatRequest(options.model, question)),
          signal: question.signal,
        });
      } catch (error) {
        if (question.signal.aborted) throw new VisionUnavailable('timeout', 'The vision model did not answer in time');
        throw new VisionUnavailable('unreachable', `The vision model server is unreachable (${url})`, {
          cause: error,
        });
      }
      const text = await readBounded(response, question.signal);
      if (response.status === 429) throw new VisionUnavailable('throttled', 'The vision model is rate-limiting us');
      if (!response.ok)
        throw new VisionUnavailable('provider_error', `The vision model server answered ${response.status}`, {
          cause: text.slice(0, 500),
        });
      return parseChatAnswer(text);
    },
  };
}

export function chatRequest(model: string, question: VisionQuestion) {
  return {
    model,
    temperature: 0,
    messages: [
      { role: 'system', content: question.instructions },
      {
        role: 'user',
        content: [
          { type: 'text', text: question.prompt },
          ...question.images.map((image) => ({
            type: 'image_url',
            image_url: { url: `data:${image.mediaType};base64,${Buffer.from(image.bytes).toString('base64')}` },
          })),
        ],
      },
    ],
    response_format: {
      type: 'json_schema',
      json_schema: { name: question.name, strict: true, schema: question.schema },
    },
  };
}

async function readBounded(response: Response, signal: AbortSignal): Promise<string> {
  try {
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > MAX_RESPONSE_BYTES) throw new Error('too large');
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of response.body ?? []) {
      size += chunk.byteLength;
      if (size > MAX_RESPONSE_BYTES) throw new Error('too large');
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  } catch (error) {
    if (signal.aborted) throw new VisionUnavailable('timeout', 'The vision model did not answer in time');
    throw new VisionUnavailable('provider_error', 'The vision model server sent an unreadable answer', {
      cause: error,
    });
  }
}

interface ChatCompletion {
  choices?: { message?: { content?: unknown; refusal?: unknown }; finish_reason?: unknown }[];
}

function parseChatAnswer(text: string): unknown {
  let completion: ChatCompletion;
  try {
    completion = JSON.parse(text) as ChatCompletion;
  } catch {
    throw new VisionUnavailable('provider_error', 'The vision model server did not answer with JSON');
  }
  const choice = completion.choices?.[0];
  if (typeof choice?.message?.refusal === 'string' && choice.message.refusal)
    throw new VisionUnavailable('refused', 'The vision model refused to answer');
  const content = choice?.message?.content;
  if (typeof content !== 'string') throw new InvalidAnswer('The answer has no message content');
  try {
    return JSON.parse(content);
  } catch {
    throw new InvalidAnswer('The answer is not JSON');
  }
}
