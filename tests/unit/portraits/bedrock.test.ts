import { BedrockRuntimeClient, InvokeModelCommand, ValidationException } from '@aws-sdk/client-bedrock-runtime';
import { mockClient } from 'aws-sdk-client-mock';
import sharp from 'sharp';
import { beforeEach, describe, expect, it } from 'vitest';
import { bedrockImageGenerator, canvasSize } from '../../../shared/adapters/image-generator/aws.ts';
import { GenerationRefused } from '../../../shared/ports/image-generator.ts';

const bedrock = mockClient(BedrockRuntimeClient);
const MODEL = 'amazon.nova-canvas-v1:0';
const photo = () =>
  sharp({ create: { width: 800, height: 600, channels: 3, background: '#a0522d' } })
    .jpeg()
    .toBuffer();

/** The model answers a 1024 × 768 PNG (what Nova Canvas draws), returned for comparison. */
async function modelDraws(): Promise<Buffer> {
  const drawn = await sharp({ create: { width: 1024, height: 768, channels: 3, background: '#fff' } })
    .png()
    .toBuffer();
  bedrock
    .on(InvokeModelCommand)
    .resolves({ body: new TextEncoder().encode(JSON.stringify({ images: [drawn.toString('base64')] })) as never });
  return drawn;
}

describe('the Bedrock portrait adapter (Amazon Nova Canvas)', () => {
  beforeEach(() => bedrock.reset());

  it('asks the configured model for the style, conditioned on the source photo’s edges at a Canvas size', async () => {
    const drawn = await modelDraws();

    const result = await bedrockImageGenerator(MODEL, new BedrockRuntimeClient({})).generate(
      await photo(),
      'watercolour',
    );

    const input = bedrock.commandCalls(InvokeModelCommand)[0]!.args[0].input;
    expect(input.modelId).toBe(MODEL);
    const body = JSON.parse(String(input.body));
    expect(body).toMatchObject({
      taskType: 'TEXT_IMAGE',
      textToImageParams: { controlMode: 'CANNY_EDGE', text: expect.stringContaining('Watercolour') },
      imageGenerationConfig: { numberOfImages: 1, width: 1024, height: 768 },
    });
    const condition = await sharp(Buffer.from(body.textToImageParams.conditionImage, 'base64')).metadata();
    expect([condition.width, condition.height]).toEqual([1024, 768]);
    expect(result).toMatchObject({ contentType: 'image/png', width: 1024, height: 768 });
    expect(result.bytes.equals(drawn)).toBe(true);
  });

  it('answers a studio portrait as the JPEG its record names, though the model draws PNG', async () => {
    await modelDraws();

    const result = await bedrockImageGenerator(MODEL, new BedrockRuntimeClient({})).generate(await photo(), 'studio');

    expect(result).toMatchObject({ contentType: 'image/jpeg', width: 1024, height: 768 });
    expect(await sharp(result.bytes).metadata()).toMatchObject({ format: 'jpeg', width: 1024, height: 768 });
  });

  it('turns a refusal (content filter, bad input) into GenerationRefused and lets throttling through for a retry', async () => {
    const generator = bedrockImageGenerator(MODEL, new BedrockRuntimeClient({}));
    bedrock
      .on(InvokeModelCommand)
      .rejectsOnce(new ValidationException({ message: 'blocked by content filters', $metadata: {} }))
      .rejectsOnce(Object.assign(new Error('slow down'), { name: 'ThrottlingException' }))
      .resolvesOnce({
        body: new TextEncoder().encode(JSON.stringify({ images: [], error: 'nothing drawn' })) as never,
      });
    await expect(generator.generate(await photo(), 'studio')).rejects.toBeInstanceOf(GenerationRefused);
    await expect(generator.generate(await photo(), 'studio')).rejects.toThrow('slow down');
    await expect(generator.generate(await photo(), 'studio')).rejects.toThrow('nothing drawn');
  });

  it('sizes the canvas to the source’s shape within Nova Canvas limits', () => {
    expect(canvasSize(4000, 3000)).toEqual({ width: 1024, height: 768 });
    expect(canvasSize(600, 2400)).toEqual({ width: 320, height: 1024 });
    expect(canvasSize(500, 500)).toEqual({ width: 1024, height: 1024 });
  });
});
